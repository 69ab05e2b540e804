// What `prof diff` compares: items (a kernel, an API function, an NVTX range, a total...) with
// their statistics in one report. Every time is in ns.
//
// To add a kind of item: add it to ItemKind (the order is the order of rows within a verdict),
// name it in ItemKindName, and register its query in item_queries.cpp.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>

namespace prof::diff {

enum class ItemKind {
  kGpuBusy,  // per device: time any GPU operation ran (the union of their intervals)
  kGpuSpan,  // first GPU operation's start to the last one's end
  kRange,    // the instances of the NVTX range chosen with --range, compared on their median
  kKernel,
  kMemop,
  kCudaApi,
  kNvtx,
  kOsrt,
};

// The kind as output formats print it: gpu_busy, gpu_span, range, kernel, memop, cuda_api, nvtx,
// osrt.
std::string_view ItemKindName(ItemKind kind);

// Items of a range are compared on the median instance (a run may do more steps); every other
// item on its total.
inline bool ComparesMedian(ItemKind kind) { return kind == ItemKind::kRange; }

struct ItemKey {
  ItemKind kind;
  std::string name;

  friend bool operator<(const ItemKey& a, const ItemKey& b) {
    return std::tie(a.kind, a.name) < std::tie(b.kind, b.name);
  }
};

// An item in one report.
struct ItemStats {
  int64_t instances = 0;
  int64_t total_ns = 0;
  std::optional<double> median_ns;  // none for totals (gpu_busy, gpu_span)
  // For NVTX ranges and OS runtime calls (kinds range, nvtx, osrt): the compared value (median or
  // total) less the time their threads waited inside them: in wait calls (waits.h) or for a CPU,
  // preempted (queries/views/waiting_intervals.sql). None for other kinds.
  std::optional<double> excluding_waits_ns;
};

// Every item of one report.
using ReportItems = std::map<ItemKey, ItemStats>;

}  // namespace prof::diff
