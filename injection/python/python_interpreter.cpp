#include "injection/python/python_interpreter.h"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>

#include "injection/protocol/cpython_layout.h"
#include "injection/protocol/cpython_line_table.h"
#include "injection/python/own_memory.h"

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
  void* (*PyGILState_GetThisThreadState)();  // reads the thread's own TLS slot only
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
      !Resolve("PyCode_Type", &g_api.PyCode_Type)) {
    g_no_symbols.store(true, std::memory_order_relaxed);
    return;
  }
  // Py_GetVersion only formats constants: it may be asked before the interpreter starts, so the
  // layout is known (and the sampling signal's reads need no search) from the process's start.
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

// Each read below goes through OwnMemory: what the program freed reads as "gone", never a fault.

template <typename T>
T Field(const char* bytes, size_t offset) {
  T value;
  std::memcpy(&value, bytes + offset, sizeof(value));
  return value;
}

// Names and paths longer than this are cut (prof's record texts are shorter still).
constexpr int64_t kMaxTextBytes = 4096;
constexpr int64_t kMaxLineTableBytes = 1 << 20;
// Enough for every layout's frame_read_size and code_read_size.
constexpr size_t kMaxStructRead = 256;

// A str object's text: compact ASCII strings (nearly every name and path) directly, others through
// their cached UTF-8 copy when CPython made one; "?" otherwise.
std::string UnicodeText(const OwnMemory& memory, const char* object) {
  // A compact ASCII string's header is the shorter one: read it first, the longer one only when
  // the string has it (an object may end right after its header).
  char header[kMaxStructRead];
  if (object == nullptr || !memory.Read(object, header, g_layout->ascii_size)) return "?";
  const auto state = Field<uint32_t>(header, kUnicodeState);
  const bool compact = (state >> 5) & 1;
  const bool ascii = (state >> 6) & 1;
  if (!compact) return "?";
  const char* text = object + g_layout->ascii_size;
  int64_t length = Field<int64_t>(header, kUnicodeLength);
  if (!ascii) {
    if (!memory.Read(object, header, g_layout->compact_size)) return "?";
    text = Field<const char*>(header, g_layout->compact_utf8);
    length = Field<int64_t>(header, g_layout->compact_utf8_length);
  }
  if (text == nullptr || length < 0) return "?";
  std::string out(static_cast<size_t>(std::min(length, kMaxTextBytes)), '\0');
  return memory.Read(text, out.data(), out.size()) ? out : "?";
}

// Keeps the frames whose code is a code object, in order, reading every code object's type in one
// system call per batch; returns how many are kept. A code object the program freed since its
// frame was read is not one any more.
size_t KeepCodeFrames(const OwnMemory& memory, PythonFrame* frames, size_t count) {
  constexpr size_t kBatch = 64;
  size_t kept = 0;
  for (size_t first = 0; first < count;) {
    const size_t batch = std::min(kBatch, count - first);
    const void* types[kBatch];
    iovec local[kBatch], remote[kBatch];
    for (size_t i = 0; i < batch; ++i) {
      local[i] = {&types[i], sizeof(types[i])};
      remote[i] = {
          const_cast<char*>(static_cast<const char*>(frames[first + i].code)) + kObjectType,
          sizeof(types[i])};
    }
    const size_t whole = memory.ReadMany(local, remote, batch);
    for (size_t i = 0; i < whole; ++i) {
      if (types[i] == g_api.PyCode_Type) frames[kept++] = frames[first + i];
    }
    // The kernel stopped at an unreadable code object: skip it, read on after it.
    first += whole < batch ? whole + 1 : batch;
  }
  return kept;
}

}  // namespace

InterpreterSupport FindInterpreter(std::string* version) {
  InterpreterSupport support = g_support.load(std::memory_order_acquire);
  // Not found yet (a libpython the program loads later is found then): look again.
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
  if (g_support.load(std::memory_order_acquire) != InterpreterSupport::kSupported) return 0;
  // Py_FinalizeEx clears this before it frees thread states: CUDA calls from exit-time
  // destructors must not walk freed frames.
  if (g_api.Py_IsInitialized() == 0 || !OwnMemory::Available()) return 0;
  const Layout& layout = *g_layout;
  const auto* thread = static_cast<const char*>(g_api.PyGILState_GetThisThreadState());
  if (thread == nullptr) return 0;
  const OwnMemory memory;
  const char* holder = thread;
  if (layout.thread_cframe != kNone && !memory.ReadValue(thread + layout.thread_cframe, &holder)) {
    return 0;
  }
  const char* frame = nullptr;
  if (holder == nullptr || !memory.ReadValue(holder + layout.frame_pointer, &frame)) return 0;
  size_t count = 0;
  char bytes[kMaxStructRead];
  for (size_t walked = 0; frame != nullptr && count < capacity && walked < kMaxFramesWalked;
       ++walked) {
    // A frame that is gone (its data-stack chunk freed a moment ago) ends the stack.
    if (!memory.Read(frame, bytes, layout.frame_read_size)) break;
    const char* code = Field<const char*>(bytes, layout.frame_code);
    const bool shim =
        layout.frame_owner != kNone && Field<char>(bytes, layout.frame_owner) == layout.shim_owner;
    if (code != nullptr && !shim) {
      const void* instruction = layout.instruction_is_index
                                    ? reinterpret_cast<const void*>(static_cast<intptr_t>(
                                          Field<int>(bytes, layout.frame_instruction)))
                                    : Field<const void*>(bytes, layout.frame_instruction);
      frames[count++] = {code, instruction, frame};
    }
    frame = Field<const char*>(bytes, layout.frame_previous);
  }
  // 3.13's frames may run something other than a code object.
  return KeepCodeFrames(memory, frames, count);
}

size_t ReadCurrentStackPairs(uint64_t* pairs, size_t capacity) {
  PythonFrame frames[kMaxFramePairs];
  const size_t count = ReadCurrentStack(frames, std::min(capacity, kMaxFramePairs));
  for (size_t i = 0; i < count; ++i) {
    pairs[2 * i] = reinterpret_cast<uint64_t>(frames[i].code);
    pairs[2 * i + 1] = reinterpret_cast<uint64_t>(frames[i].instruction);
  }
  return count;
}

int LineOf(const PythonFrame& frame) {
  const OwnMemory memory;
  const Layout& layout = *g_layout;
  const auto* code = static_cast<const char*>(frame.code);
  char header[kMaxStructRead];
  if (!memory.Read(code, header, layout.code_read_size)) return -1;
  const int first_line = Field<int>(header, layout.code_first_line);
  const auto* table_object = Field<const char*>(header, layout.code_line_table);
  int64_t table_size = 0;
  if (table_object == nullptr || !memory.ReadValue(table_object + layout.bytes_size, &table_size) ||
      table_size < 0 || table_size > kMaxLineTableBytes) {
    return first_line;
  }
  std::string table(static_cast<size_t>(table_size), '\0');
  if (!memory.Read(table_object + layout.bytes_data, table.data(), table.size())) {
    return first_line;
  }
  int line = -1;
  if (layout.instruction_is_index) {
    const auto lasti = reinterpret_cast<intptr_t>(frame.instruction);
    line = protocol::cpython::LineOfLineTable310(table, first_line, static_cast<int>(lasti * 2));
  } else {
    // The instruction's byte offset in co_code_adaptive (one code unit before it before the
    // frame's first instruction ran, in 3.11 and 3.12).
    const auto offset = static_cast<const char*>(frame.instruction) - (code + layout.code_bytecode);
    line = protocol::cpython::LineOfLocationTable(table, first_line, static_cast<int>(offset));
  }
  // An instruction without a line of its own (CPython's artificial ones): the function's line.
  return line < 0 ? first_line : line;
}

void DescribeCode(const void* code, std::string* file, std::string* function) {
  const OwnMemory memory;
  const auto* object = static_cast<const char*>(code);
  const char* filename = nullptr;
  const char* name = nullptr;
  *file = memory.ReadValue(object + g_layout->code_filename, &filename)
              ? UnicodeText(memory, filename)
              : "?";
  *function =
      memory.ReadValue(object + g_layout->code_name, &name) ? UnicodeText(memory, name) : "?";
}

}  // namespace prof::injection::python
