#include "injection/nvtx/nesting_levels.h"

#include <cstdlib>
#include <cstring>

namespace prof::injection::nvtx {
namespace {

class ThreadLevels {
 public:
  constexpr ThreadLevels() = default;
  ~ThreadLevels() { std::free(heap_); }
  ThreadLevels(const ThreadLevels&) = delete;
  ThreadLevels& operator=(const ThreadLevels&) = delete;

  // The depth counter of `domain_id`; nullptr when `grow` is false and the domain has none yet, or
  // when growing failed.
  int32_t* Depth(uint64_t domain_id, bool grow) {
    if (domain_id < kInlineDomains) return &inline_[domain_id];
    const uint64_t index = domain_id - kInlineDomains;
    if (index >= heap_capacity_ && (!grow || !Grow(index + 1))) return nullptr;
    return &heap_[index];
  }

 private:
  static constexpr uint64_t kInlineDomains = 16;

  bool Grow(uint64_t needed) {
    uint64_t capacity = heap_capacity_ == 0 ? kInlineDomains : heap_capacity_;
    while (capacity < needed) capacity *= 2;
    auto* grown = static_cast<int32_t*>(std::realloc(heap_, capacity * sizeof(int32_t)));
    if (grown == nullptr) return false;
    std::memset(grown + heap_capacity_, 0, (capacity - heap_capacity_) * sizeof(int32_t));
    heap_ = grown;
    heap_capacity_ = capacity;
    return true;
  }

  int32_t inline_[kInlineDomains] = {};
  int32_t* heap_ = nullptr;
  uint64_t heap_capacity_ = 0;
};

thread_local ThreadLevels t_levels;

}  // namespace

int32_t PushLevel(uint64_t domain_id) {
  int32_t* depth = t_levels.Depth(domain_id, /*grow=*/true);
  if (depth == nullptr) return -1;
  return (*depth)++;
}

int32_t PopLevel(uint64_t domain_id) {
  int32_t* depth = t_levels.Depth(domain_id, /*grow=*/false);
  if (depth == nullptr || *depth == 0) return -1;
  return --(*depth);
}

}  // namespace prof::injection::nvtx
