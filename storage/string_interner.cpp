#include "storage/string_interner.h"

namespace prof::storage {

StringInterner::Result StringInterner::Intern(std::string_view value) {
  if (auto found = ids_.find(value); found != ids_.end()) return {found->second, false};
  const int64_t id = static_cast<int64_t>(ids_.size());
  const std::string& stored = storage_.emplace_back(value);
  ids_.emplace(std::string_view(stored), id);
  return {id, true};
}

}  // namespace prof::storage
