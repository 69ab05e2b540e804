// End-to-end subject: a thread whose first NVTX calls are made inside a signal handler. Those calls
// must not allocate: a signal may interrupt malloc itself, and a handler that then allocates waits
// forever for the lock its own thread holds. The program counts the allocations made while its
// handler runs and prints "tid <name> <tid>" per thread and "allocations in the handler: N".
//
// The count: the program defines malloc and its relatives, which glibc's loader and libc itself
// then call too (glibc supports replacing malloc this way); under AddressSanitizer, whose own
// malloc must stay in charge, the sanitizer's allocation hooks count instead.
#include <nvtx3/nvToolsExt.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstddef>
#include <cstdio>
#include <thread>

namespace {

__thread bool t_in_handler = false;
std::atomic<int> g_allocations_in_handler{0};

void CountAllocation() {
  if (t_in_handler) g_allocations_in_handler.fetch_add(1, std::memory_order_relaxed);
}

uint32_t ThisTid() { return static_cast<uint32_t>(syscall(SYS_gettid)); }

void OnSignal(int) {
  t_in_handler = true;
  nvtxRangePushA("in the handler");
  nvtxMarkA("mark in the handler");
  nvtxRangePop();
  t_in_handler = false;
}

}  // namespace

#if defined(__SANITIZE_ADDRESS__)
// From the sanitizer runtime's allocator interface (GCC ships no header for it).
extern "C" int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void*,
                                                                             size_t),
                                                         void (*free_hook)(const volatile void*));

namespace {
void OnAllocation(const volatile void*, size_t) { CountAllocation(); }
void OnFree(const volatile void*) {}
}  // namespace
#else
extern "C" {
void* __libc_malloc(size_t size);
void* __libc_calloc(size_t count, size_t size);
void* __libc_realloc(void* pointer, size_t size);
void __libc_free(void* pointer);

void* malloc(size_t size) {
  CountAllocation();
  return __libc_malloc(size);
}
void* calloc(size_t count, size_t size) {
  CountAllocation();
  return __libc_calloc(count, size);
}
void* realloc(void* pointer, size_t size) {
  CountAllocation();
  return __libc_realloc(pointer, size);
}
void free(void* pointer) { __libc_free(pointer); }
}
#endif

int main() {
#if defined(__SANITIZE_ADDRESS__)
  __sanitizer_install_malloc_and_free_hooks(OnAllocation, OnFree);
#endif
  std::printf("tid main %u\n", ThisTid());
  nvtxMarkA("main starts");  // NVTX loads its injection here, on the main thread
  struct sigaction action {};
  action.sa_handler = OnSignal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGUSR1, &action, nullptr);
  std::thread worker([] {
    std::printf("tid worker %u\n", ThisTid());
    raise(SIGUSR1);  // delivered to this thread before raise returns
  });
  worker.join();
  std::printf("allocations in the handler: %d\n", g_allocations_in_handler.load());
  std::fflush(stdout);
  return 0;
}
