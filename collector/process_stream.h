// What the collector knows about one traced process while decoding its records: handed to every
// tracker together with each record of that process's connection.
#pragma once

#include <cstdint>
#include <string>

#include "storage/global_id.h"

namespace prof::collector {

struct ProcessStream {
  // Unique per connection. A pid is not: a fork child that execs streams twice under one pid (once
  // before exec, once after), so per-stream state must be keyed by stream_id.
  uint64_t stream_id = 0;
  uint32_t pid = 0;
  std::string name;
  // CLOCK_MONOTONIC ns at session start: record timestamps minus this are report timestamps.
  uint64_t session_start_ns = 0;

  int64_t SessionTime(uint64_t monotonic_ns) const {
    return static_cast<int64_t>(monotonic_ns) - static_cast<int64_t>(session_start_ns);
  }
  int64_t GlobalTid(uint32_t tid) const { return storage::GlobalTid(pid, tid); }
  int64_t GlobalPid() const { return storage::GlobalPid(pid); }
};

}  // namespace prof::collector
