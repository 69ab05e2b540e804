// CUPTI activity records → prof's CUDA stream records (injection/protocol/cuda_records.h).
//
// ActivityConverter is the seam between CUPTI and the stream: it reads CUPTI's structs and hands
// finished protocol records to a RecordSink, so the conversion can be exercised with records built in
// memory. It copies values unconverted (the collector maps CUPTI's enums onto nsys's).
//
// Threads: Convert() may be called from any thread (CUPTI's worker thread, or the thread that forces a
// flush), but not concurrently: the caller serialises buffers (activity_buffers.cpp holds a lock).
// A kernel name is sent as a CudaStringRecord before the first kernel that uses it *from the thread
// that emits it*, and again when a later buffer is delivered on another thread, because records of
// different threads may reach the launcher in any order.
#pragma once

#include <cupti.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>

#include "injection/protocol/cuda_records.h"

namespace prof::injection::cuda {

class RecordSink {
 public:
  virtual ~RecordSink() = default;
  // Sends one record: `fixed_size` bytes of struct, then `text_length` bytes of text.
  virtual void Send(protocol::RecordHeader* record, size_t fixed_size, const char* text,
                    size_t text_length) = 0;
  // The thread the records are sent from (to know when a name must be sent again).
  virtual uint32_t SendingThread() = 0;
};

class ActivityConverter {
 public:
  explicit ActivityConverter(RecordSink* sink) : sink_(sink) {}

  // Converts and sends one record; kinds prof does not convert are ignored and counted.
  void Convert(const CUpti_Activity& record);
  uint64_t ignored_records() const { return ignored_; }

 private:
  struct NameEntry {
    uint64_t id;
    uint32_t sent_from_tid;
  };

  void Kernel(const CUpti_Activity& record);
  void Memcpy(const CUpti_Activity& record);
  void PeerMemcpy(const CUpti_Activity& record);
  void Memset(const CUpti_Activity& record);
  void GraphTrace(const CUpti_Activity& record);
  void Device(const CUpti_Activity& record);
  void Context(const CUpti_Activity& record);
  void Stream(const CUpti_Activity& record);
  void Memory(const CUpti_Activity& record);
  // The id of `name`, sending its CudaStringRecord first when this thread has not sent it.
  uint64_t NameId(const char* name);

  RecordSink* sink_;
  std::unordered_map<std::string, NameEntry> names_;
  uint64_t next_name_id_ = 1;
  uint64_t ignored_ = 0;
};

}  // namespace prof::injection::cuda
