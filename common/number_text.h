// Numbers as prof's messages print them for people: file sizes ("812 B", "12.3 MB", decimal units:
// 1 MB = 10^6 bytes, as prof's reports count MB) and counts with thousands separators ("12,345").
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <string>

namespace prof {

inline std::string ByteSizeText(uint64_t bytes) {
  if (bytes < 1000) return std::to_string(bytes) + " B";
  constexpr std::array<const char*, 4> kUnits = {"kB", "MB", "GB", "TB"};
  double value = static_cast<double>(bytes) / 1000;
  size_t unit = 0;
  // From 999.95 on, one decimal would print "1000.0": the next unit reads better.
  while (value >= 999.95 && unit + 1 < kUnits.size()) {
    value /= 1000;
    ++unit;
  }
  std::array<char, 32> text{};
  std::snprintf(text.data(), text.size(), "%.1f %s", value, kUnits[unit]);
  return text.data();
}

inline std::string CountText(uint64_t count) {
  std::string digits = std::to_string(count);
  for (int at = static_cast<int>(digits.size()) - 3; at > 0; at -= 3) digits.insert(at, ",");
  return digits;
}

}  // namespace prof
