#include "injection/nvtx/nesting_levels.h"

#include <cstdlib>
#include <cstring>

namespace prof::injection::nvtx {
namespace {

// The depths of domains past the inline ones, grown with realloc and freed when the thread exits.
// Touched only by a thread that uses such a domain: its first touch registers the destructor
// (__cxa_thread_atexit allocates), which a thread that never gets here must not pay.
class OverflowLevels {
 public:
  OverflowLevels() = default;
  ~OverflowLevels() { std::free(depths_); }
  OverflowLevels(const OverflowLevels&) = delete;
  OverflowLevels& operator=(const OverflowLevels&) = delete;

  // The depth counter at `index`; nullptr when `grow` is false and there is none yet, or when
  // growing failed.
  int32_t* At(uint64_t index, bool grow) {
    if (index >= capacity_ && (!grow || !Grow(index + 1))) return nullptr;
    return &depths_[index];
  }

 private:
  bool Grow(uint64_t needed) {
    uint64_t capacity = capacity_ == 0 ? kInlineDomains : capacity_;
    while (capacity < needed) capacity *= 2;
    auto* grown = static_cast<int32_t*>(std::realloc(depths_, capacity * sizeof(int32_t)));
    if (grown == nullptr) return false;
    std::memset(grown + capacity_, 0, (capacity - capacity_) * sizeof(int32_t));
    depths_ = grown;
    capacity_ = capacity;
    return true;
  }

  int32_t* depths_ = nullptr;
  uint64_t capacity_ = 0;
};

thread_local OverflowLevels t_overflow_levels;

}  // namespace

thread_local int32_t t_inline_levels[kInlineDomains] = {};

int32_t PushLevelOfLaterDomain(uint64_t domain_id) {
  int32_t* depth = t_overflow_levels.At(domain_id - kInlineDomains, /*grow=*/true);
  if (depth == nullptr) return -1;
  return (*depth)++;
}

int32_t PopLevelOfLaterDomain(uint64_t domain_id) {
  int32_t* depth = t_overflow_levels.At(domain_id - kInlineDomains, /*grow=*/false);
  if (depth == nullptr || *depth == 0) return -1;
  return --(*depth);
}

}  // namespace prof::injection::nvtx
