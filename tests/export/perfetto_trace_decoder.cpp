#include "tests/export/perfetto_trace_decoder.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>

namespace prof::exporter::test {
namespace {

bool ReadVarint(std::string_view* data, uint64_t* value) {
  *value = 0;
  for (int shift = 0; shift < 64 && !data->empty(); shift += 7) {
    const auto byte = static_cast<unsigned char>(data->front());
    data->remove_prefix(1);
    *value |= uint64_t{byte & 0x7Fu} << shift;
    if ((byte & 0x80) == 0) return true;
  }
  return false;
}

}  // namespace

bool NextField(std::string_view* data, Field* field, bool* ok) {
  *ok = true;
  if (data->empty()) return false;
  uint64_t key = 0;
  if (!ReadVarint(data, &key)) return *ok = false;
  field->number = static_cast<uint32_t>(key >> 3);
  field->wire_type = static_cast<uint32_t>(key & 7);
  if (field->wire_type == 0) {
    if (!ReadVarint(data, &field->value)) return *ok = false;
  } else if (field->wire_type == 1) {
    if (data->size() < 8) return *ok = false;
    field->value = 0;
    for (int i = 0; i < 8; ++i) {
      field->value |= uint64_t{static_cast<unsigned char>((*data)[i])} << (8 * i);
    }
    data->remove_prefix(8);
  } else if (field->wire_type == 2) {
    uint64_t size = 0;
    if (!ReadVarint(data, &size) || size > data->size()) return *ok = false;
    field->bytes = data->substr(0, size);
    data->remove_prefix(size);
  } else {
    return *ok = false;
  }
  return true;
}

namespace {

struct TrackInfo {
  std::optional<uint64_t> parent;
  bool is_thread = false;
  bool is_process = false;
  bool is_counter = false;
  int64_t pid = 0;
  int64_t tid = 0;
  std::string name;
};

struct Event {
  int64_t ts = 0;
  size_t order = 0;  // position in the file: ties keep it, as trace processor's sort does
  uint64_t type = 0;
  std::string name;
  std::string category;
  std::vector<uint64_t> flow_ids;
  int64_t counter_value = 0;
};

struct Slice {
  int64_t start = 0;
  int64_t end = 0;
  std::string category;
  std::string name;
};

class Decoder {
 public:
  std::vector<std::string> Summarize(const std::string& bytes) {
    std::string_view trace = bytes;
    Field field;
    bool ok = true;
    while (NextField(&trace, &field, &ok)) {
      if (field.number == 1 && field.wire_type == 2) ReadPacket(field.bytes);
    }
    if (!ok) Error("malformed Trace");
    BuildSlices();
    Finish();
    std::sort(lines_.begin(), lines_.end());
    return lines_;
  }

  // After Summarize: see PerfettoCounterValues.
  std::vector<std::string> CounterValues(int64_t pid, const std::string& name) const {
    const auto found = counter_values_.find({pid, name});
    return found == counter_values_.end() ? std::vector<std::string>() : found->second;
  }

 private:
  void Error(const std::string& text) { lines_.push_back("error " + text); }

  // Calls on_field for each field of `message`.
  template <typename OnField>
  void ForEachField(std::string_view message, std::string_view what, OnField on_field) {
    Field field;
    bool ok = true;
    while (NextField(&message, &field, &ok)) on_field(field);
    if (!ok) Error("malformed " + std::string(what));
  }

  void ReadPacket(std::string_view packet) {
    std::optional<int64_t> timestamp;
    std::string_view track_event;
    bool has_track_event = false;
    ForEachField(packet, "TracePacket", [&](const Field& f) {
      if (f.number == 8) timestamp = static_cast<int64_t>(f.value);
      if (f.number == 13 && (f.value & 1)) ClearInterned();
      if (f.number == 12) ReadInterned(f.bytes);
      if (f.number == 60) ReadTrackDescriptor(f.bytes);
      if (f.number == 11) {
        track_event = f.bytes;
        has_track_event = true;
      }
    });
    if (!has_track_event) return;
    if (!timestamp) Error("track event without timestamp");
    ReadTrackEvent(track_event, timestamp.value_or(0));
  }

  void ClearInterned() { interned_.clear(); }

  void ReadInterned(std::string_view data) {
    ForEachField(data, "InternedData", [&](const Field& f) {
      uint64_t iid = 0;
      std::string name;
      ForEachField(f.bytes, "interned string", [&](const Field& g) {
        if (g.number == 1) iid = g.value;
        if (g.number == 2) name = std::string(g.bytes);
      });
      interned_[{f.number, iid}] = name;
    });
  }

  std::string Interned(uint32_t table, uint64_t iid) {
    auto found = interned_.find({table, iid});
    if (found != interned_.end()) return found->second;
    Error("unknown interned id " + std::to_string(iid));
    return "";
  }

  void ReadTrackDescriptor(std::string_view data) {
    uint64_t uuid = 0;
    TrackInfo info;
    ForEachField(data, "TrackDescriptor", [&](const Field& f) {
      if (f.number == 1) uuid = f.value;
      if (f.number == 2) info.name = std::string(f.bytes);
      if (f.number == 5) info.parent = f.value;
      if (f.number == 8) info.is_counter = true;
      if (f.number == 3 || f.number == 4) {
        info.is_process = f.number == 3;
        info.is_thread = f.number == 4;
        ForEachField(f.bytes, "descriptor", [&](const Field& g) {
          if (g.number == 1) info.pid = static_cast<int64_t>(g.value);
          if (f.number == 4 && g.number == 2) info.tid = static_cast<int64_t>(g.value);
          if ((f.number == 3 && g.number == 6) || (f.number == 4 && g.number == 5)) {
            info.name = std::string(g.bytes);
          }
        });
      }
    });
    if (tracks_.count(uuid) > 0) Error("track " + std::to_string(uuid) + " described twice");
    tracks_[uuid] = info;
    if ((info.is_process || info.is_thread) && !info.name.empty()) {
      lines_.push_back("track " + std::to_string(info.pid) + " " + std::to_string(info.tid) + " " +
                       info.name);
    }
  }

  void ReadTrackEvent(std::string_view data, int64_t ts) {
    Event event;
    event.ts = ts;
    event.order = next_order_++;
    uint64_t track = 0;
    ForEachField(data, "TrackEvent", [&](const Field& f) {
      if (f.number == 9) event.type = f.value;
      if (f.number == 11) track = f.value;
      if (f.number == 10) event.name = Interned(2, f.value);
      if (f.number == 3) event.category = Interned(1, f.value);
      if (f.number == 47) event.flow_ids.push_back(f.value);
      if (f.number == 30) event.counter_value = static_cast<int64_t>(f.value);
      if (f.number == 4) {
        ForEachField(f.bytes, "DebugAnnotation", [&](const Field& g) {
          if (g.number == 1) Interned(3, g.value);
        });
      }
    });
    if (tracks_.count(track) == 0) Error("event on undescribed track " + std::to_string(track));
    events_[track].push_back(std::move(event));
  }

  // The process or thread track a track belongs to: itself, or its parent's owner.
  const TrackInfo& OwnerTrack(uint64_t uuid) {
    for (int depth = 0; depth < 8; ++depth) {
      const TrackInfo& info = tracks_[uuid];
      if (info.is_thread || info.is_process) return info;
      if (!info.parent) break;
      uuid = *info.parent;
    }
    Error("track without a process or thread");
    return tracks_[0];
  }

  void BuildSlices() {
    for (auto& [uuid, events] : events_) {
      std::stable_sort(events.begin(), events.end(),
                       [](const Event& a, const Event& b) { return a.ts < b.ts; });
      const TrackInfo& owner = OwnerTrack(uuid);
      const int64_t pid = owner.pid, tid = owner.tid;
      const bool owned_by_process = owner.is_process;
      const bool on_thread = tracks_[uuid].is_thread;
      if (tracks_[uuid].is_counter) {
        AddCounterLine(pid, tracks_[uuid].name, events);
        continue;
      }
      std::vector<const Event*> open;
      for (const Event& event : events) {
        if (event.type == 1 || event.type == 3) {
          ++counts_[{event.category, pid, tid}];
          for (uint64_t id : event.flow_ids) flows_[id].push_back(&event);
        }
        if (event.type == 1) {
          if (on_thread && event.category == "nvtx") {
            lines_.push_back("depth " + std::to_string(pid) + " " + std::to_string(tid) + " " +
                             event.name + " " + std::to_string(NvtxDepth(open)));
          }
          open.push_back(&event);
        } else if (event.type == 2) {
          if (open.empty()) {
            Error("slice end without a begin");
            continue;
          }
          // Start/end lanes of a process overlap one another by design, and PyTorch module
          // backward slices cut across the operator ranges of their thread: as
          // trace_summary.py leaves async slices (chrome's form of both) out of the overlap
          // count, so does this.
          if (!owned_by_process && open.back()->category != "pytorch") {
            slices_[{pid, tid}].push_back(
                {open.back()->ts, event.ts, open.back()->category, open.back()->name});
          }
          open.pop_back();
        } else if (event.type != 3) {
          Error("unexpected event type " + std::to_string(event.type));
        }
      }
      if (!open.empty()) Error("slice without an end");
    }
  }

  // "counter <pid> <samples> <largest value> <name>", as trace_summary.py writes it.
  void AddCounterLine(int64_t pid, const std::string& name, const std::vector<Event>& events) {
    int64_t largest = 0;
    for (const Event& event : events) {
      if (event.type != 4) Error("non-counter event on a counter track");
      largest = std::max(largest, event.counter_value);
      counter_values_[{pid, name}].push_back(std::to_string(event.ts) + " " +
                                             std::to_string(event.counter_value));
    }
    lines_.push_back("counter " + std::to_string(pid) + " " + std::to_string(events.size()) + " " +
                     std::to_string(largest) + " " + name);
  }

  static size_t NvtxDepth(const std::vector<const Event*>& open) {
    return static_cast<size_t>(std::count_if(open.begin(), open.end(),
                                             [](const Event* e) { return e->category == "nvtx"; }));
  }

  void Finish() {
    for (const auto& [key, n] : counts_) {
      const auto& [category, pid, tid] = key;
      lines_.push_back("count " + category + " " + std::to_string(pid) + " " + std::to_string(tid) +
                       " " + std::to_string(n));
    }
    for (auto& [owner, slices] : slices_) CountOverlaps(owner, &slices);
    const std::set<std::string> gpu = {"cuda_kernel", "cuda_memcpy", "cuda_memset", "cuda_graph"};
    for (auto& [id, events] : flows_) {
      std::stable_sort(events.begin(), events.end(),
                       [](const Event* a, const Event* b) { return a->ts < b->ts; });
      if (events.size() < 2 || events.front()->category != "cuda_api") {
        Error("flow " + std::to_string(id) + " does not start at an API call");
        continue;
      }
      for (size_t i = 1; i < events.size(); ++i) {
        if (gpu.count(events[i]->category) == 0) Error("flow to a non-GPU event");
        lines_.push_back("flow " + events.front()->name + " -> " + events[i]->name);
      }
    }
  }

  // Same rule as trace_summary.py: slices in (start, longest first) order that end after the
  // innermost open slice ends.
  void CountOverlaps(const std::pair<int64_t, int64_t>& owner, std::vector<Slice>* slices) {
    std::sort(slices->begin(), slices->end(), [](const Slice& a, const Slice& b) {
      return std::tie(a.start, b.end) < std::tie(b.start, a.end);
    });
    std::vector<int64_t> stack;
    int overlaps = 0;
    for (const Slice& slice : *slices) {
      while (!stack.empty() && stack.back() <= slice.start) stack.pop_back();
      if (!stack.empty() && slice.end > stack.back()) ++overlaps;
      stack.push_back(slice.end);
    }
    if (overlaps > 0) {
      lines_.push_back("overlap " + std::to_string(owner.first) + " " +
                       std::to_string(owner.second) + " " + std::to_string(overlaps));
    }
  }

  std::vector<std::string> lines_;
  std::map<std::pair<uint32_t, uint64_t>, std::string> interned_;  // (table field, iid) -> name
  std::map<uint64_t, TrackInfo> tracks_;
  std::map<uint64_t, std::vector<Event>> events_;  // by track uuid
  std::map<std::tuple<std::string, int64_t, int64_t>, int> counts_;
  std::map<std::pair<int64_t, int64_t>, std::vector<Slice>> slices_;
  std::map<uint64_t, std::vector<const Event*>> flows_;
  size_t next_order_ = 0;
  std::map<std::pair<int64_t, std::string>, std::vector<std::string>> counter_values_;
};

}  // namespace

std::vector<std::string> SummarizePerfettoTrace(const std::string& bytes) {
  return Decoder().Summarize(bytes);
}

std::vector<std::string> PerfettoCounterValues(const std::string& bytes, int64_t pid,
                                               const std::string& name) {
  Decoder decoder;
  decoder.Summarize(bytes);
  return decoder.CounterValues(pid, name);
}

}  // namespace prof::exporter::test
