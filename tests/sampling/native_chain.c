/* Three functions of a library built without frame pointers (-O2 -fomit-frame-pointer, as
   Debian builds CPython and libtorch): chain_outer calls chain_middle calls chain_inner, which
   burns the CPU. native_chain.py calls chain_outer through ctypes, so every sample of the burn has
   the stack chain_inner <- chain_middle <- chain_outer <- (libffi, CPython) <- call_into_c. */
#include <stdint.h>

__attribute__((noinline)) uint64_t chain_inner(uint64_t n) {
  volatile uint64_t sum = 0;
  for (uint64_t i = 0; i < n; ++i) sum += i * 7;
  return sum;
}

/* The empty asm after each call keeps the call a call (no tail call, no inlining across it). */
__attribute__((noinline)) uint64_t chain_middle(uint64_t n) {
  const uint64_t result = chain_inner(n);
  __asm__ volatile("" ::: "memory");
  return result + 1;
}

__attribute__((noinline)) uint64_t chain_outer(uint64_t n) {
  const uint64_t result = chain_middle(n);
  __asm__ volatile("" ::: "memory");
  return result + 2;
}
