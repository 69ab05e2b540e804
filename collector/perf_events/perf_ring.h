// Reads one perf_event_open ring buffer: the kernel's metadata page (struct perf_event_mmap_page)
// and the data area after it, which the kernel fills and this reader empties.
//
// Protocol (man perf_event_open, "mmap layout"): the kernel advances data_head after writing
// records; the reader loads data_head with acquire ordering (so the record bytes are visible), reads
// the records between data_tail and that head, and stores data_tail with release ordering (so the
// kernel overwrites nothing the reader still reads). Both counters grow without wrapping; the
// position in the area is counter % size (size is a power of 2). Records are 8-byte aligned, so a
// header never straddles the end of the area, but a record's body may: such a record is copied
// whole into a scratch buffer.
//
// Not thread-safe; one reader per ring. Works on any memory laid out like the kernel's, which lets
// tests build rings by hand.
#pragma once

#include <linux/perf_event.h>

#include <cstdint>
#include <vector>

#include "collector/perf_events/perf_records.h"

namespace prof::collector::perf {

class PerfRing {
 public:
  // `data_size` is a power of 2 (the kernel's data_size field); `meta` and `data` outlive this.
  PerfRing(perf_event_mmap_page* meta, uint8_t* data, uint64_t data_size);

  // Starts a pass: loads data_head once; records the kernel appends later wait for the next pass.
  void BeginPass();
  // The next whole record of the pass, contiguous (in the ring, or in scratch when it wraps),
  // valid until the next call. False at the end of the pass. A record whose size is not a
  // non-zero multiple of 8 or runs past the head breaks the framing: the rest of the pass is
  // skipped and its bytes added to `*malformed_bytes`.
  bool Next(PerfSpan<uint8_t>* record, uint64_t* malformed_bytes);
  // Hands the bytes read in this pass back to the kernel.
  void EndPass();

  // Bytes the kernel has written that this reader has not given back yet (head read now).
  uint64_t PendingBytes() const;
  uint64_t data_size() const { return size_; }

 private:
  perf_event_mmap_page* meta_;
  uint8_t* data_;
  uint64_t size_;
  uint64_t head_ = 0;  // data_head loaded by BeginPass
  uint64_t tail_ = 0;  // the next record to read
  std::vector<uint8_t> scratch_;
};

}  // namespace prof::collector::perf
