// The shared library symbols_target dlopens: its frame sits between prof_test::Drive and
// hot_seventy, so unwinding crosses a library that the program did not link.
#include "tests/symbols/symbols_target_api.h"

extern "C" PROF_TEST_NOINLINE int plugin_call(int (*function)(int), int rounds) {
  // Not a tail call: the result is used, so this frame stays on the stack during the call.
  int result = function(rounds);
  return result * 3 + 1;
}
