#include "collector/symbols/user_registers.h"

namespace prof::symbols {

UserRegisters UserRegisters::FromPerfSample(uint64_t mask, const uint64_t* values, size_t count) {
  UserRegisters registers;
  size_t next = 0;
  for (int bit = 0; bit < PERF_REG_X86_64_MAX && next < count; ++bit) {
    if ((mask & (uint64_t{1} << bit)) != 0) registers.values[bit] = values[next++];
  }
  return registers;
}

}  // namespace prof::symbols
