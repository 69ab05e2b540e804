#include "injection/python/python_interpreter.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>

namespace prof::injection::python {
namespace {

// Byte offsets into CPython's structs (Include/cpython/pystate.h, Include/internal/
// pycore_frame.h, Include/cpython/code.h, Include/cpython/unicodeobject.h of each version), for
// x86-64 and aarch64 builds. tests/python_stack checks them against the interpreter's own API.
struct Layout {
  size_t thread_cframe;         // PyThreadState.cframe
  size_t cframe_current_frame;  // _PyCFrame.current_frame
  size_t frame_code;            // _PyInterpreterFrame.f_code
  size_t frame_previous;        // _PyInterpreterFrame.previous
  size_t frame_prev_instr;      // _PyInterpreterFrame.prev_instr
  size_t frame_owner;           // _PyInterpreterFrame.owner
  int shim_owner;               // owner of the C stack's shim frames (3.12), -1 when none
  size_t code_filename;         // PyCodeObject.co_filename
  size_t code_qualname;         // PyCodeObject.co_qualname
  size_t code_bytecode;         // PyCodeObject.co_code_adaptive
  size_t ascii_size;            // sizeof(PyASCIIObject): a compact ASCII string's text follows
  size_t compact_utf8_length;   // PyCompactUnicodeObject.utf8_length
  size_t compact_utf8;          // PyCompactUnicodeObject.utf8
};
constexpr Layout kPython311{56, 8, 32, 48, 56, 69, -1, 112, 128, 184, 48, 48, 56};
constexpr Layout kPython312{56, 0, 0, 8, 56, 70, 3, 112, 128, 192, 40, 40, 48};
// PyASCIIObject: length and state (bits 2-4 kind, 5 compact, 6 ascii) sit alike in both.
constexpr size_t kUnicodeLength = 16;
constexpr size_t kUnicodeState = 32;
// A frame chain longer than this is taken for a corrupt one.
constexpr size_t kMaxFramesWalked = 1024;

struct CApi {
  int (*Py_IsInitialized)();
  const char* (*Py_GetVersion)();
  void* (*PyGILState_GetThisThreadState)();                 // reads the thread's own TLS slot only
  int (*PyCode_Addr2Line)(const void*, int);                // pure read of the line table
  int (*PyUnstable_InterpreterFrame_GetLine)(const void*);  // 3.12: likewise, from the frame
};

CApi g_api{};
const Layout* g_layout = nullptr;
std::mutex g_find_mutex;  // guards g_version and the search
std::atomic<InterpreterSupport> g_support{InterpreterSupport::kNotPython};
std::string g_version;
// Set when the process has no CPython symbols at all: looking again would only cost time.
std::atomic<bool> g_no_symbols{false};

template <typename Function>
bool Resolve(const char* name, Function* out) {
  *out = reinterpret_cast<Function>(dlsym(RTLD_DEFAULT, name));
  return *out != nullptr;
}

template <typename T>
T Read(const char* address) {
  T value;
  std::memcpy(&value, address, sizeof(value));
  return value;
}

// The layout of "3.12.3 (main, ...)"; nullptr for a version prof cannot read, or a free-threaded
// build (its version string says so).
const Layout* LayoutOf(const std::string& version) {
  int major = 0, minor = 0;
  if (std::sscanf(version.c_str(), "%d.%d", &major, &minor) != 2) return nullptr;
  if (version.find("free-threading") != std::string::npos || major != 3) return nullptr;
  if (minor == 11) return &kPython311;
  if (minor == 12) return &kPython312;
  return nullptr;
}

void Find() {
  if (!Resolve("Py_IsInitialized", &g_api.Py_IsInitialized) ||
      !Resolve("Py_GetVersion", &g_api.Py_GetVersion) ||
      !Resolve("PyGILState_GetThisThreadState", &g_api.PyGILState_GetThisThreadState) ||
      !Resolve("PyCode_Addr2Line", &g_api.PyCode_Addr2Line)) {
    g_no_symbols.store(true, std::memory_order_relaxed);
    return;
  }
  Resolve("PyUnstable_InterpreterFrame_GetLine", &g_api.PyUnstable_InterpreterFrame_GetLine);
  if (g_api.Py_IsInitialized() == 0) return;
  const char* version = g_api.Py_GetVersion();
  g_version = version != nullptr ? version : "";
  g_version = g_version.substr(0, g_version.find('\n'));
  g_layout = LayoutOf(g_version);
  g_support.store(
      g_layout != nullptr ? InterpreterSupport::kSupported : InterpreterSupport::kUnsupported,
      std::memory_order_release);
}

// A str object's text: compact ASCII strings (nearly every name and path) directly, others through
// their cached UTF-8 copy when CPython made one; "?" otherwise.
std::string UnicodeText(const char* object) {
  if (object == nullptr) return "?";
  const auto state = Read<uint32_t>(object + kUnicodeState);
  const bool compact = (state >> 5) & 1;
  const bool ascii = (state >> 6) & 1;
  if (!compact) return "?";
  if (ascii) {
    const auto length = Read<int64_t>(object + kUnicodeLength);
    return std::string(object + g_layout->ascii_size, static_cast<size_t>(length));
  }
  const char* utf8 = Read<const char*>(object + g_layout->compact_utf8);
  if (utf8 == nullptr) return "?";
  return std::string(utf8,
                     static_cast<size_t>(Read<int64_t>(object + g_layout->compact_utf8_length)));
}

}  // namespace

InterpreterSupport FindInterpreter(std::string* version) {
  InterpreterSupport support = g_support.load(std::memory_order_acquire);
  // Not found yet, or the interpreter was still starting: look again.
  if ((support == InterpreterSupport::kNotPython &&
       !g_no_symbols.load(std::memory_order_relaxed)) ||
      version != nullptr) {
    std::lock_guard<std::mutex> lock(g_find_mutex);
    if (g_support.load(std::memory_order_relaxed) == InterpreterSupport::kNotPython) Find();
    support = g_support.load(std::memory_order_relaxed);
    if (version != nullptr) *version = g_version;
  }
  return support;
}

size_t ReadCurrentStack(PythonFrame* frames, size_t capacity) {
  if (FindInterpreter(nullptr) != InterpreterSupport::kSupported) return 0;
  const auto* thread = static_cast<const char*>(g_api.PyGILState_GetThisThreadState());
  if (thread == nullptr) return 0;
  const char* cframe = Read<const char*>(thread + g_layout->thread_cframe);
  if (cframe == nullptr) return 0;
  const char* frame = Read<const char*>(cframe + g_layout->cframe_current_frame);
  size_t count = 0;
  for (size_t walked = 0; frame != nullptr && count < capacity && walked < kMaxFramesWalked;
       ++walked) {
    const char* code = Read<const char*>(frame + g_layout->frame_code);
    const int owner = Read<char>(frame + g_layout->frame_owner);
    if (code != nullptr && owner != g_layout->shim_owner) {
      frames[count++] = {code, Read<const char*>(frame + g_layout->frame_prev_instr), frame};
    }
    frame = Read<const char*>(frame + g_layout->frame_previous);
  }
  return count;
}

int LineOf(const PythonFrame& frame) {
  if (g_api.PyUnstable_InterpreterFrame_GetLine != nullptr) {
    return g_api.PyUnstable_InterpreterFrame_GetLine(frame.frame);
  }
  // prev_instr points into the code's bytecode; the line table is indexed by byte offset.
  const auto* code = static_cast<const char*>(frame.code);
  const auto offset = static_cast<int>(static_cast<const char*>(frame.instruction) -
                                       (code + g_layout->code_bytecode));
  return g_api.PyCode_Addr2Line(code, offset);
}

void DescribeCode(const void* code, std::string* file, std::string* function) {
  const auto* object = static_cast<const char*>(code);
  *file = UnicodeText(Read<const char*>(object + g_layout->code_filename));
  *function = UnicodeText(Read<const char*>(object + g_layout->code_qualname));
}

}  // namespace prof::injection::python
