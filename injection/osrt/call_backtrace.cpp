#include "injection/osrt/call_backtrace.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "injection/core/frame_walk.h"
#include "injection/protocol/record_format.h"
#include "injection/python/python_interpreter.h"

namespace prof::injection::osrt {
namespace {

// The readable mapping that holds the thread's stack pointer, learned at its first backtrace
// (and again should the stack pointer ever lie outside it: a signal handler on an alternate
// stack). Initial-exec TLS: no allocation, no lock.
__thread StackBounds t_stack __attribute__((tls_model("initial-exec"))) = {0, 0};

// Parses "start-end perms ..." (hex addresses) at the start of a /proc/self/maps line.
bool ParseMapping(const char* line, size_t length, uintptr_t* start, uintptr_t* end,
                  bool* readable) {
  size_t at = 0;
  uintptr_t* field = start;
  *start = *end = 0;
  for (; at < length; ++at) {
    const char c = line[at];
    if (c == '-' && field == start) {
      field = end;
      continue;
    }
    if (c == ' ') break;
    const int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (digit < 0) return false;
    *field = *field * 16 + static_cast<uintptr_t>(digit);
  }
  if (field != end || at + 1 >= length) return false;
  *readable = line[at + 1] == 'r';
  return true;
}

// The mapping of /proc/self/maps that contains `address`, read with raw system calls into a
// buffer on the stack; {0, 0} when none does or the file cannot be read.
StackBounds MappingOf(uintptr_t address) {
  const int fd =
      static_cast<int>(syscall(SYS_openat, AT_FDCWD, "/proc/self/maps", O_RDONLY | O_CLOEXEC));
  if (fd < 0) return {};
  char chunk[4096];
  char line[64];  // a line's start: its addresses and permissions are all that is read
  size_t line_length = 0;
  StackBounds found;
  for (;;) {
    const ssize_t got = syscall(SYS_read, fd, chunk, sizeof(chunk));
    if (got <= 0) break;
    for (ssize_t i = 0; i < got; ++i) {
      if (chunk[i] != '\n') {
        if (line_length < sizeof(line)) line[line_length++] = chunk[i];
        continue;
      }
      uintptr_t start = 0, end = 0;
      bool readable = false;
      if (ParseMapping(line, line_length, &start, &end, &readable) && readable &&
          address >= start && address < end) {
        found = {start, end};
      }
      line_length = 0;
    }
    if (found.high != 0) break;
  }
  syscall(SYS_close, fd);
  return found;
}

}  // namespace

size_t CaptureNativeFrames(const void* record_call_frame, uint64_t* ips, size_t capacity) {
  if (capacity == 0) return 0;
  const auto sp = reinterpret_cast<uintptr_t>(record_call_frame);
  if (sp < t_stack.low || sp >= t_stack.high) t_stack = MappingOf(sp);
  const StackBounds stack = t_stack;
  constexpr uintptr_t kRecord = 2 * sizeof(uintptr_t);
  if (stack.high == 0 || sp % sizeof(uintptr_t) != 0 || sp > stack.high - kRecord) return 0;
  // RecordCall's frame record {the wrapper's frame, a return address into the wrapper}; the
  // wrapper's {its caller's frame, the call site of the traced function}.
  const uintptr_t wrapper = reinterpret_cast<const uintptr_t*>(sp)[0];
  if (wrapper < sp + kRecord || wrapper > stack.high - kRecord || wrapper % sizeof(uintptr_t)) {
    return 0;
  }
  const auto* record = reinterpret_cast<const uintptr_t*>(wrapper);
  return WalkFramePointers(record[1], record[0], wrapper + kRecord, stack, ips, capacity).count;
}

size_t CapturePythonFrames(uint64_t* pairs, size_t capacity) {
  static_assert(protocol::kMaxOsrtBacktraceDepth <= python::kMaxFramePairs);
  if (python::FindInterpreterWithoutWaiting() != python::InterpreterSupport::kSupported) return 0;
  return python::ReadCurrentStackPairs(pairs, capacity);
}

}  // namespace prof::injection::osrt
