// The ids nsys's CUDA_EVENT and SYNCHRONIZATION rows give CUDA events, kept by prof itself so that
// CUPTI's CUDA_EVENT and SYNCHRONIZATION activity kinds can stay off (on the training loop they
// cost more than every other kind but kernels together; docs/performance.md).
//
// The rules are CUPTI's, as nsys's exports show them: an event's `eventId` is its rank among the
// process's event creations (1, 2, ...); every record of any event takes the next `eventSyncId` of
// the process (1, 2, ...); a synchronization on an event names the event's id and the sync id of
// its latest record. A destroyed event's handle may come back from a later creation with a new id.
//
// Thread-safe: events are created, recorded and waited for on any thread. One short lock per call;
// the programs prof traces make a handful of event calls per training step, not per kernel.
#pragma once

#include <cstdint>
#include <mutex>
#include <unordered_map>

namespace prof::injection::cuda {

class EventRegistry {
 public:
  // CUPTI's "not applicable" id (CUPTI_SYNCHRONIZATION_INVALID_VALUE), what nsys stores for syncs
  // that name no event.
  static constexpr uint32_t kNoEventId = 0xffffffffu;
  static constexpr uint64_t kNoEventSyncId = 0xffffffffu;

  struct EventIds {
    uint32_t event_id = kNoEventId;
    uint64_t event_sync_id = kNoEventSyncId;
  };

  // A new event with handle `event`; returns its id.
  uint32_t Created(const void* event);
  void Destroyed(const void* event);
  // `event` recorded into a stream: its id and the record's new sync id. An event never seen
  // created (made before tracing began) gets an id here.
  EventIds Recorded(const void* event);
  // The ids a synchronization on `event` names: its id and its latest record's sync id
  // (kNoEventSyncId while it was never recorded; both kNo* for an event never seen).
  EventIds Latest(const void* event) const;

 private:
  uint32_t AddLocked(const void* event);

  mutable std::mutex mutex_;
  std::unordered_map<const void*, EventIds> events_;
  uint32_t next_event_id_ = 1;
  uint64_t next_event_sync_id_ = 1;
};

}  // namespace prof::injection::cuda
