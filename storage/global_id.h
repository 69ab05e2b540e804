// nsys's serialized GlobalId for processes and threads, as found in every export's globalTid and
// globalPid columns: bits 63..56 hardware id, 55..48 VM id, 47..24 pid, 23..0 tid. nsys exports of
// local captures carry VM id 1 (the constant below); prof writes the same so joins and scripts
// written against nsys exports work unchanged.
#pragma once

#include <cstdint>

namespace prof::storage {

inline constexpr int64_t kLocalVmBits = int64_t{1} << 48;

inline constexpr int64_t GlobalPid(uint32_t pid) {
  return kLocalVmBits | (static_cast<int64_t>(pid & 0xFFFFFF) << 24);
}
inline constexpr int64_t GlobalTid(uint32_t pid, uint32_t tid) {
  return GlobalPid(pid) | static_cast<int64_t>(tid & 0xFFFFFF);
}
inline constexpr uint32_t PidOf(int64_t global_id) {
  return static_cast<uint32_t>((global_id >> 24) & 0xFFFFFF);
}
inline constexpr uint32_t TidOf(int64_t global_id) {
  return static_cast<uint32_t>(global_id & 0xFFFFFF);
}

}  // namespace prof::storage
