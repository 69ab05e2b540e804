#include "injection/cuda/event_registry.h"

namespace prof::injection::cuda {

uint32_t EventRegistry::AddLocked(const void* event) {
  const uint32_t id = next_event_id_++;
  events_[event] = EventIds{id, kNoEventSyncId};
  return id;
}

uint32_t EventRegistry::Created(const void* event) {
  std::lock_guard<std::mutex> lock(mutex_);
  return AddLocked(event);
}

void EventRegistry::Destroyed(const void* event) {
  std::lock_guard<std::mutex> lock(mutex_);
  events_.erase(event);
}

EventRegistry::EventIds EventRegistry::Recorded(const void* event) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = events_.find(event);
  if (found == events_.end()) {
    AddLocked(event);
    found = events_.find(event);
  }
  found->second.event_sync_id = next_event_sync_id_++;
  return found->second;
}

EventRegistry::EventIds EventRegistry::Latest(const void* event) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto found = events_.find(event);
  return found != events_.end() ? found->second : EventIds{};
}

}  // namespace prof::injection::cuda
