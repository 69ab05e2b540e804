// A file size for people, as `prof export` reports what it wrote: "812 B", "12.3 MB". Decimal
// units (1 MB = 10^6 bytes), as prof's reports count MB.
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

}  // namespace prof
