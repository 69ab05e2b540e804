// A sample's user-space registers as perf delivers them for --backtrace=dwarf
// (PERF_SAMPLE_REGS_USER), indexed by x86-64's enum perf_event_x86_regs (<asm/perf_regs.h>), and
// the copied user stack (PERF_SAMPLE_STACK_USER) that the DWARF unwinder reads.
#pragma once

#include <asm/perf_regs.h>

#include <array>
#include <cstddef>
#include <cstdint>

namespace prof::symbols {

// The registers DWARF unwinding needs on x86-64: the general-purpose ones, SP and IP. This is the
// perf_event_attr.sample_regs_user to request (perf rejects the segment registers DS..GS).
constexpr uint64_t kUnwindRegisterMask = ((uint64_t{1} << (PERF_REG_X86_IP + 1)) - 1) |  // AX..IP
                                         (((uint64_t{1} << (PERF_REG_X86_R15 + 1)) - 1) &
                                          ~((uint64_t{1} << PERF_REG_X86_R8) - 1));  // R8..R15

struct UserRegisters {
  // values[PERF_REG_X86_SP] is the stack pointer; registers perf did not deliver stay 0.
  std::array<uint64_t, PERF_REG_X86_64_MAX> values{};

  uint64_t ip() const { return values[PERF_REG_X86_IP]; }
  uint64_t sp() const { return values[PERF_REG_X86_SP]; }

  // A sample's register block: one u64 per bit set in `mask` (the attr's sample_regs_user), in
  // increasing bit order. Values beyond `count` are missing and stay 0.
  static UserRegisters FromPerfSample(uint64_t mask, const uint64_t* values, size_t count);
};

// Bytes that somebody else owns (C++17 has no std::span).
struct ByteSpan {
  const uint8_t* data = nullptr;
  size_t size = 0;
};

}  // namespace prof::symbols
