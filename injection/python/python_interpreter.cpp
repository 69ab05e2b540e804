#include "injection/python/python_interpreter.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>

#include "injection/protocol/cpython_layout.h"

namespace prof::injection::python {
namespace {

using protocol::cpython::kNone;
using protocol::cpython::kObjectType;
using protocol::cpython::kUnicodeLength;
using protocol::cpython::kUnicodeState;
using protocol::cpython::Layout;

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
// Py_GetVersion()'s first line. A fixed buffer: the search may run inside an OS-runtime call that
// a signal handler made, where allocating could deadlock.
char g_version[160];
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
const Layout* LayoutOf(const char* version) {
  int major = 0, minor = 0;
  if (std::sscanf(version, "%d.%d", &major, &minor) != 2) return nullptr;
  if (std::strstr(version, "free-threading") != nullptr) return nullptr;
  return protocol::cpython::LayoutOf(major, minor);
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
  size_t length = 0;
  for (; version != nullptr && version[length] != '\0' && version[length] != '\n' &&
         length + 1 < sizeof(g_version);
       ++length) {
    g_version[length] = version[length];
  }
  g_version[length] = '\0';
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

InterpreterSupport FindInterpreterWithoutWaiting() {
  const InterpreterSupport support = g_support.load(std::memory_order_acquire);
  if (support != InterpreterSupport::kNotPython || g_no_symbols.load(std::memory_order_relaxed)) {
    return support;
  }
  std::unique_lock<std::mutex> lock(g_find_mutex, std::try_to_lock);
  if (!lock.owns_lock()) return InterpreterSupport::kNotPython;
  if (g_support.load(std::memory_order_relaxed) == InterpreterSupport::kNotPython) Find();
  return g_support.load(std::memory_order_relaxed);
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
