// Maps strings to StringIds ids: dense from 0 in order of first use, as nsys numbers StringIds.
// Lookups of known strings allocate nothing (the hot path: one OS-runtime function name per row).
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace prof::storage {

class StringInterner {
 public:
  struct Result {
    int64_t id;
    bool added;  // true on the first use of the string: the caller writes its StringIds row
  };

  Result Intern(std::string_view value);
  size_t size() const { return ids_.size(); }

 private:
  // A deque never moves its elements, so the map's keys keep pointing at valid characters.
  std::deque<std::string> storage_;
  std::unordered_map<std::string_view, int64_t> ids_;
};

}  // namespace prof::storage
