// Routes each decoded record to the tracker that owns its kind, through a table indexed by
// RecordKind — adding a kind means registering one handler, never editing an if-chain.
#pragma once

#include <array>
#include <cstdint>
#include <functional>

#include "collector/process_stream.h"
#include "injection/protocol/record_format.h"

namespace prof::collector {

class RecordDispatcher {
 public:
  using Handler = std::function<void(const ProcessStream&, const protocol::RecordHeader&)>;

  // `min_size`: the kind's fixed struct size; shorter records are counted as malformed, so handlers
  // may copy their fixed struct without checking.
  void Register(protocol::RecordKind kind, size_t min_size, Handler handler);
  // Calls the kind's handler; records of kinds nobody registered are counted and skipped.
  void Dispatch(const ProcessStream& process, const protocol::RecordHeader& record);

  uint64_t unknown_records() const { return unknown_records_; }
  uint64_t malformed_records() const { return malformed_records_; }

 private:
  struct Entry {
    size_t min_size = 0;
    Handler handler;
  };
  static constexpr size_t kMaxKinds = 256;
  std::array<Entry, kMaxKinds> entries_;
  uint64_t unknown_records_ = 0;
  uint64_t malformed_records_ = 0;
};

}  // namespace prof::collector
