#include "injection/python/python_interpreter.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>

namespace prof::injection::python {
namespace {

// Byte offsets into CPython's structs (Include/cpython/pystate.h, frameobject.h, code.h,
// unicodeobject.h and Include/internal/pycore_frame.h of each version, x86-64 and aarch64), checked
// with offsetof against each version's headers; tests/python_stack checks the readings against
// the interpreter's own traceback.
constexpr size_t kNone = ~size_t{0};
struct Layout {
  size_t thread_cframe;      // PyThreadState.cframe (3.11, 3.12); kNone: the frame hangs off the
  size_t frame_pointer;      //   thread state itself; then this is its offset there, else in cframe
  size_t frame_code;         // the frame's code object (f_code, 3.13: f_executable)
  size_t frame_previous;     // the calling frame (f_back, previous)
  size_t frame_instruction;  // prev_instr / instr_ptr, or 3.10's f_lasti (an int index)
  bool instruction_is_index;   // 3.10: f_lasti counts code units from the start of the bytecode
  size_t frame_owner;          // _PyInterpreterFrame.owner, kNone in 3.10
  int shim_owner;              // owner of the C stack's shim frames (3.12+), -1 when none
  size_t code_filename;        // PyCodeObject.co_filename
  size_t code_name;            // co_qualname (3.11+), co_name (3.10)
  size_t code_bytecode;        // co_code_adaptive (3.11+)
  size_t ascii_size;           // sizeof(PyASCIIObject): a compact ASCII string's text follows
  size_t compact_utf8_length;  // PyCompactUnicodeObject.utf8_length
  size_t compact_utf8;         // PyCompactUnicodeObject.utf8
};
constexpr Layout kPython310{kNone, 24, 32, 24, 96, true, kNone, -1, 104, 112, kNone, 48, 48, 56};
constexpr Layout kPython311{56, 8, 32, 48, 56, false, 69, -1, 112, 128, 184, 48, 48, 56};
constexpr Layout kPython312{56, 0, 0, 8, 56, false, 70, 3, 112, 128, 192, 40, 40, 48};
constexpr Layout kPython313{kNone, 72, 0, 8, 56, false, 70, 3, 112, 128, 200, 40, 40, 48};
// PyObject.ob_type, and PyASCIIObject's length and state (bits 2-4 kind, 5 compact, 6 ascii),
// placed alike in every version.
constexpr size_t kObjectType = 8;
constexpr size_t kUnicodeLength = 16;
constexpr size_t kUnicodeState = 32;
// A frame chain longer than this is taken for a corrupt one.
constexpr size_t kMaxFramesWalked = 1024;

struct CApi {
  const void* PyCode_Type;  // the type object of code objects
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
  switch (minor) {
    case 10:
      return &kPython310;
    case 11:
      return &kPython311;
    case 12:
      return &kPython312;
    case 13:
      return &kPython313;
    default:
      return nullptr;
  }
}

void Find() {
  if (!Resolve("Py_IsInitialized", &g_api.Py_IsInitialized) ||
      !Resolve("Py_GetVersion", &g_api.Py_GetVersion) ||
      !Resolve("PyGILState_GetThisThreadState", &g_api.PyGILState_GetThisThreadState) ||
      !Resolve("PyCode_Addr2Line", &g_api.PyCode_Addr2Line) ||
      !Resolve("PyCode_Type", &g_api.PyCode_Type)) {
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
  // Py_FinalizeEx clears this before it frees thread states: CUDA calls from exit-time
  // destructors must not walk freed frames.
  if (g_api.Py_IsInitialized() == 0) return 0;
  const Layout& layout = *g_layout;
  const auto* thread = static_cast<const char*>(g_api.PyGILState_GetThisThreadState());
  if (thread == nullptr) return 0;
  const char* holder = thread;
  if (layout.thread_cframe != kNone) holder = Read<const char*>(thread + layout.thread_cframe);
  if (holder == nullptr) return 0;
  const char* frame = Read<const char*>(holder + layout.frame_pointer);
  size_t count = 0;
  for (size_t walked = 0; frame != nullptr && count < capacity && walked < kMaxFramesWalked;
       ++walked) {
    const char* code = Read<const char*>(frame + layout.frame_code);
    const bool shim =
        layout.frame_owner != kNone && Read<char>(frame + layout.frame_owner) == layout.shim_owner;
    // 3.13's frames may run something other than a code object.
    if (code != nullptr && !shim && Read<const void*>(code + kObjectType) == g_api.PyCode_Type) {
      const void* instruction = layout.instruction_is_index
                                    ? reinterpret_cast<const void*>(static_cast<intptr_t>(
                                          Read<int>(frame + layout.frame_instruction)))
                                    : Read<const void*>(frame + layout.frame_instruction);
      frames[count++] = {code, instruction, frame};
    }
    frame = Read<const char*>(frame + layout.frame_previous);
  }
  return count;
}

int LineOf(const PythonFrame& frame) {
  if (g_api.PyUnstable_InterpreterFrame_GetLine != nullptr) {
    return g_api.PyUnstable_InterpreterFrame_GetLine(frame.frame);
  }
  // The line table is indexed by byte offset into the bytecode (2 bytes per code unit).
  const auto* code = static_cast<const char*>(frame.code);
  if (g_layout->instruction_is_index) {
    return g_api.PyCode_Addr2Line(
        code, static_cast<int>(reinterpret_cast<intptr_t>(frame.instruction)) * 2);
  }
  const auto offset = static_cast<int>(static_cast<const char*>(frame.instruction) -
                                       (code + g_layout->code_bytecode));
  return g_api.PyCode_Addr2Line(code, offset);
}

void DescribeCode(const void* code, std::string* file, std::string* function) {
  const auto* object = static_cast<const char*>(code);
  *file = UnicodeText(Read<const char*>(object + g_layout->code_filename));
  *function = UnicodeText(Read<const char*>(object + g_layout->code_name));
}

}  // namespace prof::injection::python
