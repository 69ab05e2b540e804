// The CUDA event ids prof writes into CUDA_EVENT and SYNCHRONIZATION rows, numbered as CUPTI does
// (the values below are those of nsys's export of the training loop on the H200: events 1, 2 and
// 40 recorded in turn take sync ids 1, 2, 3).
#include "injection/cuda/event_registry.h"

#include <catch2/catch.hpp>
#include <thread>
#include <vector>

using prof::injection::cuda::EventRegistry;

namespace {

const void* Handle(uintptr_t value) { return reinterpret_cast<const void*>(value); }

}  // namespace

TEST_CASE("event ids follow creation order and sync ids follow records across events", "[events]") {
  EventRegistry events;
  CHECK(events.Created(Handle(0x10)) == 1);
  CHECK(events.Created(Handle(0x20)) == 2);
  CHECK(events.Created(Handle(0x30)) == 3);
  const auto first = events.Recorded(Handle(0x10));
  CHECK(first.event_id == 1);
  CHECK(first.event_sync_id == 1);
  const auto second = events.Recorded(Handle(0x20));
  CHECK(second.event_id == 2);
  CHECK(second.event_sync_id == 2);
  const auto again = events.Recorded(Handle(0x10));
  CHECK(again.event_id == 1);
  CHECK(again.event_sync_id == 3);
  // A wait names the latest record; an event never recorded has no sync id yet.
  CHECK(events.Latest(Handle(0x10)).event_sync_id == 3);
  CHECK(events.Latest(Handle(0x20)).event_sync_id == 2);
  CHECK(events.Latest(Handle(0x30)).event_id == 3);
  CHECK(events.Latest(Handle(0x30)).event_sync_id == EventRegistry::kNoEventSyncId);
}

TEST_CASE("a destroyed event's handle comes back from a later creation with a new id", "[events]") {
  EventRegistry events;
  CHECK(events.Created(Handle(0x10)) == 1);
  events.Recorded(Handle(0x10));
  events.Destroyed(Handle(0x10));
  CHECK(events.Latest(Handle(0x10)).event_id == EventRegistry::kNoEventId);
  CHECK(events.Latest(Handle(0x10)).event_sync_id == EventRegistry::kNoEventSyncId);
  CHECK(events.Created(Handle(0x10)) == 2);
  CHECK(events.Latest(Handle(0x10)).event_sync_id == EventRegistry::kNoEventSyncId);
  CHECK(events.Recorded(Handle(0x10)).event_sync_id == 2);
}

TEST_CASE("an event recorded without a seen creation gets the next id", "[events]") {
  EventRegistry events;
  CHECK(events.Created(Handle(0x10)) == 1);
  const auto unseen = events.Recorded(Handle(0x99));
  CHECK(unseen.event_id == 2);
  CHECK(unseen.event_sync_id == 1);
  CHECK(events.Created(Handle(0x20)) == 3);
}

TEST_CASE("threads recording at once get distinct sync ids", "[events]") {
  EventRegistry events;
  constexpr int kThreads = 4;
  constexpr int kRecords = 10000;
  for (int t = 0; t < kThreads; ++t) events.Created(Handle(0x100 + t));
  std::vector<std::vector<uint64_t>> seen(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kRecords; ++i)
        seen[t].push_back(events.Recorded(Handle(0x100 + t)).event_sync_id);
    });
  }
  for (auto& thread : threads) thread.join();
  std::vector<bool> taken(kThreads * kRecords + 1, false);
  for (const auto& ids : seen) {
    for (size_t i = 0; i < ids.size(); ++i) {
      REQUIRE(ids[i] >= 1);
      REQUIRE(ids[i] <= kThreads * kRecords);
      REQUIRE_FALSE(taken[ids[i]]);
      taken[ids[i]] = true;
      if (i > 0) REQUIRE(ids[i] > ids[i - 1]);  // one thread's records in its order
    }
  }
}
