// What every *_wrappers.cpp file uses to define an interposer in a line or two.
//
// A wrapper is an extern "C" function with libc's exact prototype (so the compiler checks it
// against libc's header), exported by PROF_EXPORT and listed in exports.map. Its body forwards to
// the next definition through the tracer:
//
//   extern "C" PROF_EXPORT ssize_t read(int fd, void* buffer, size_t count) {
//     return PROF_OSRT_FORWARD(read, syscall(SYS_read, fd, buffer, count), fd, buffer, count);
//   }
//
// The second argument is the fallback evaluated when the next definition is unavailable (see
// next_functions.h): the raw system call for thin system-call wrappers, else an ENOSYS failure.
#pragma once

#include <cerrno>
#include <cstdint>
#include <type_traits>

#include "injection/core/event_stream.h"
#include "injection/osrt/call_tracer.h"
#include "injection/osrt/next_functions.h"
#include "injection/protocol/osrt_functions.h"

#pragma GCC visibility push(hidden)

namespace prof::injection::osrt {

template <uint16_t kId>
constexpr uint16_t CheckedFunctionId() {
  static_assert(kId < protocol::kOsrtFunctionCount, "function missing from osrt_functions.h");
  return kId;
}

// Forwards to the next definition of `Function` (function `kId`) through the tracer, or returns
// `fallback()` when that definition is unavailable.
template <uint16_t kId, typename Function, typename Fallback, typename... Args>
inline auto Forward(Fallback&& fallback, Args... args) {
  using Result = std::invoke_result_t<Function, Args...>;
  const Function next = NextFunction<Function>(kId);
  if (next == nullptr) return static_cast<Result>(fallback());
  return TraceCall(kId, [&] { return next(args...); });
}

// The failure of a -1/errno (or nullptr/errno) function whose definition is unavailable.
template <typename Result>
Result Unavailable() {
  errno = ENOSYS;
  if constexpr (std::is_pointer_v<Result>) {
    return nullptr;
  } else {
    return static_cast<Result>(-1);
  }
}

}  // namespace prof::injection::osrt

#pragma GCC visibility pop

// The compile-time id of function `name`; does not compile when the table lacks it.
#define PROF_OSRT_FUNCTION_ID(name) \
  ::prof::injection::osrt::CheckedFunctionId<::prof::protocol::OsrtFunctionId(#name)>()

// Forwards the calling wrapper's arguments to the next `name`; `fallback` is an expression.
#define PROF_OSRT_FORWARD(name, fallback, ...)                                      \
  ::prof::injection::osrt::Forward<PROF_OSRT_FUNCTION_ID(name), decltype(&::name)>( \
      [&] { return fallback; }, __VA_ARGS__)
