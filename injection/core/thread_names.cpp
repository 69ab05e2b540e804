// Thread names set by the program (pthread_setname_np, prctl(PR_SET_NAME)) become
// ThreadNameRecords, so ThreadNames shows what the program called its threads (e.g. PyTorch's
// pt_autograd_0). nvtxNameOsThread names arrive through the NVTX tracer instead.
#include <dlfcn.h>
#include <pthread.h>
#include <sys/prctl.h>

#include <cstdarg>
#include <cstring>

#include "injection/core/event_stream.h"
#include "injection/core/ring_pool.h"

namespace prof::injection {
namespace {

// The kernel tid of `thread`, when it has emitted before (its ring remembers it); else 0.
uint32_t TidOfThread(pthread_t thread) {
  if (pthread_equal(thread, pthread_self())) return CurrentTid();
  uint32_t tid = 0;
  ForEachRing([&](const protocol::ThreadRing* ring) {
    if (tid == 0 &&
        ring->state.load(std::memory_order_acquire) == protocol::ThreadRing::State::kOwned &&
        pthread_equal(ring->owner_thread, thread)) {
      tid = ring->owner_tid;
    }
  });
  return tid;
}

// The kernel keeps 15 characters of a thread name and reads at most 16 bytes of the caller's.
constexpr size_t kThreadNameLimit = 15;

void EmitThreadName(uint32_t tid, const char* name) {
  if (tid == 0 || name == nullptr || !StreamEnabled()) return;
  protocol::ThreadNameRecord record{};
  record.header.kind = protocol::RecordKind::kThreadName;
  record.header.timestamp_ns = MonotonicNowNs();
  record.named_tid = tid;
  const size_t length = strnlen(name, kThreadNameLimit);
  record.text_length = ClampTextLength(length);
  EmitRecordWithText(&record.header, sizeof(record), name, length);
}

template <typename Function>
Function NextSymbol(const char* name) {
  return reinterpret_cast<Function>(dlsym(RTLD_NEXT, name));
}

}  // namespace
}  // namespace prof::injection

extern "C" PROF_EXPORT int pthread_setname_np(pthread_t thread, const char* name) {
  using Function = int (*)(pthread_t, const char*);
  static Function real = prof::injection::NextSymbol<Function>("pthread_setname_np");
  const int result = real(thread, name);
  if (result == 0) prof::injection::EmitThreadName(prof::injection::TidOfThread(thread), name);
  return result;
}

extern "C" PROF_EXPORT int prctl(int option, ...) {
  va_list args;
  va_start(args, option);
  unsigned long arg2 = va_arg(args, unsigned long);
  unsigned long arg3 = va_arg(args, unsigned long);
  unsigned long arg4 = va_arg(args, unsigned long);
  unsigned long arg5 = va_arg(args, unsigned long);
  va_end(args);
  using Function = int (*)(int, ...);
  static Function real = prof::injection::NextSymbol<Function>("prctl");
  const int result = real(option, arg2, arg3, arg4, arg5);
  if (result == 0 && option == PR_SET_NAME) {
    prof::injection::EmitThreadName(prof::injection::CurrentTid(),
                                    reinterpret_cast<const char*>(arg2));
  }
  return result;
}
