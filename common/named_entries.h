// Looking up prof's small registries (reports, rules, output formats, export types) by name, and
// listing their names for "valid ...: a, b, c" messages.
#pragma once

#include <iterator>
#include <string>
#include <string_view>

namespace prof {

// The entry of `entries` (each with a `name`) called `name`, or nullptr.
template <typename Entries>
auto FindByName(const Entries& entries, std::string_view name) -> decltype(&*std::begin(entries)) {
  for (const auto& entry : entries) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

inline std::string_view NameOf(std::string_view name) { return name; }
inline std::string_view NameOf(const std::string& name) { return name; }
template <typename Entry>
std::string_view NameOf(const Entry* entry) {
  return entry->name;
}
template <typename Entry>
std::string_view NameOf(const Entry& entry) {
  return entry.name;
}

// The names of `entries` (entries with a `name`, pointers to them, or names), joined by ", ".
template <typename Entries>
std::string JoinNames(const Entries& entries) {
  std::string names;
  for (const auto& entry : entries) {
    names += (names.empty() ? "" : ", ") + std::string(NameOf(entry));
  }
  return names;
}

}  // namespace prof
