// Interned strings: each distinct text is stored once and its string_view stays valid for the
// interner's lifetime (the set's nodes never move). Not thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <unordered_set>

namespace prof::symbols {

class StringInterner {
 public:
  std::string_view Intern(std::string text) { return *strings_.insert(std::move(text)).first; }
  size_t size() const { return strings_.size(); }

 private:
  std::unordered_set<std::string> strings_;
};

}  // namespace prof::symbols
