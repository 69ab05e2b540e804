// The regression gate (diff/item_comparison.h) on items built in memory.
#include "diff/item_comparison.h"

#include <algorithm>
#include <catch2/catch.hpp>

namespace prof::diff {
namespace {

const ItemKey kGemm = {ItemKind::kKernel, "gemm"};
const ItemKey kRelu = {ItemKind::kKernel, "relu"};
const ItemKey kStep = {ItemKind::kRange, "step"};

ReportItems Items(std::initializer_list<std::pair<const ItemKey, ItemStats>> items) {
  return ReportItems(items);
}

ItemStats Stats(int64_t instances, int64_t total_ns, double median_ns) {
  return {instances, total_ns, median_ns, std::nullopt};
}

ItemStats Total(int64_t total_ns) { return Stats(4, total_ns, static_cast<double>(total_ns) / 4); }

// The one diff of `key`; fails the test when it is not there exactly once.
ItemDiff Find(const std::vector<ItemDiff>& diffs, const ItemKey& key) {
  const auto is_key = [&](const ItemDiff& diff) {
    return diff.key.kind == key.kind && diff.key.name == key.name;
  };
  REQUIRE(std::count_if(diffs.begin(), diffs.end(), is_key) == 1);
  return *std::find_if(diffs.begin(), diffs.end(), is_key);
}

Verdict VerdictOf(int64_t base_ns, int64_t new_ns, const GateOptions& gate = {}) {
  const auto diffs =
      CompareItems({Items({{kGemm, Total(base_ns)}})}, {Items({{kGemm, Total(new_ns)}})}, gate);
  REQUIRE(diffs.size() == 1);
  return diffs[0].verdict;
}

TEST_CASE("diff gate: a change above the threshold regresses or improves", "[diff]") {
  CHECK(VerdictOf(1000, 1200) == Verdict::kRegressed);
  CHECK(VerdictOf(1000, 800) == Verdict::kImproved);
  CHECK(VerdictOf(1000, 1050) == Verdict::kUnchanged);  // exactly 5% is not more than 5%
  CHECK(VerdictOf(1000, 1051) == Verdict::kRegressed);
  CHECK(VerdictOf(1000, 1200, {25, 0}) == Verdict::kUnchanged);
}

TEST_CASE("diff gate: --min-time ignores changes of at most that many ns", "[diff]") {
  CHECK(VerdictOf(1000, 1200, {5, 200}) == Verdict::kUnchanged);
  CHECK(VerdictOf(1000, 1201, {5, 200}) == Verdict::kRegressed);
  CHECK(VerdictOf(1000, 700, {5, 200}) == Verdict::kImproved);
}

TEST_CASE("diff gate: a zero base counts any growth as above the threshold", "[diff]") {
  const auto diffs = CompareItems({Items({{kGemm, Stats(1, 0, 0.0)}})},
                                  {Items({{kGemm, Stats(1, 10, 10.0)}})}, {});
  REQUIRE(diffs.size() == 1);
  CHECK(diffs[0].verdict == Verdict::kRegressed);
  CHECK_FALSE(diffs[0].change_pct.has_value());
  CHECK(diffs[0].change_ns == 10);
}

TEST_CASE("diff gate: items on one side only are new or vanished", "[diff]") {
  const auto diffs =
      CompareItems({Items({{kGemm, Total(1000)}})}, {Items({{kRelu, Total(300)}})}, {});
  REQUIRE(diffs.size() == 2);
  CHECK(diffs[0].key.name == "relu");
  CHECK(diffs[0].verdict == Verdict::kNew);
  CHECK(diffs[0].change_ns == 300);
  CHECK(diffs[1].key.name == "gemm");
  CHECK(diffs[1].verdict == Verdict::kVanished);
  CHECK(diffs[1].change_ns == -1000);
  CHECK(diffs[1].candidate.instances == 0);
}

TEST_CASE("diff gate: several reports compare medians against the run-to-run spread", "[diff]") {
  const std::vector<ReportItems> base = {
      Items({{kGemm, Total(4000)}}), Items({{kGemm, Total(5200)}}), Items({{kGemm, Total(3600)}})};
  const std::vector<ReportItems> noisy_new = {Items({{kGemm, Total(4800)}}),
                                              Items({{kGemm, Total(4800)}})};
  const ItemDiff noise = Find(CompareItems(base, noisy_new, {}), kGemm);
  CHECK(noise.verdict == Verdict::kNoise);
  CHECK(noise.base.total_ns == 4000);
  CHECK(noise.base.spread_ns == 1600);
  CHECK(noise.candidate.spread_ns == 0);
  CHECK(noise.noise_ns == 1600);
  CHECK(noise.change_ns == 800);
  CHECK(*noise.change_pct == Approx(20.0));

  const std::vector<ReportItems> steady_base = {Items({{kGemm, Total(4000)}}),
                                                Items({{kGemm, Total(4040)}})};
  const ItemDiff regressed = Find(CompareItems(steady_base, noisy_new, {}), kGemm);
  CHECK(regressed.verdict == Verdict::kRegressed);
  CHECK(regressed.base.total_ns == 4020);  // the mean of an even count's middle two
  CHECK(regressed.noise_ns == 40);
}

TEST_CASE("diff gate: a report without the item counts zero for it", "[diff]") {
  const std::vector<ReportItems> base = {Items({{kGemm, Total(4000)}}), Items({})};
  const ItemDiff diff = Find(CompareItems(base, {Items({{kGemm, Total(4000)}})}, {}), kGemm);
  CHECK(diff.base.total_ns == 2000);
  CHECK(diff.base.instances == 2);
  CHECK(diff.base.spread_ns == 4000);
  CHECK(*diff.base.median_ns == 1000);  // only the report that has it
  CHECK(diff.verdict == Verdict::kNoise);
}

TEST_CASE("diff gate: a range is compared on its median instance", "[diff]") {
  // Twice the steps, each 2% slower: the total doubles, the median does not regress.
  const auto diffs = CompareItems({Items({{kStep, Stats(10, 10000, 1000.0)}})},
                                  {Items({{kStep, Stats(20, 20400, 1020.0)}})}, {});
  REQUIRE(diffs.size() == 1);
  CHECK(diffs[0].verdict == Verdict::kUnchanged);
  CHECK(diffs[0].change_ns == 20);
  CHECK(*diffs[0].change_pct == Approx(2.0));
}

TEST_CASE("diff gate: a range's change counts once per base instance against --min-time",
          "[diff]") {
  // The median grows by 100 ns (3.3%): 400 ns over 4 instances, 300 ns over 3.
  const GateOptions gate = {3, 330};
  CHECK(CompareItems({Items({{kStep, Stats(4, 12000, 3000.0)}})},
                     {Items({{kStep, Stats(4, 12400, 3100.0)}})}, gate)[0]
            .verdict == Verdict::kRegressed);
  CHECK(CompareItems({Items({{kStep, Stats(3, 9000, 3000.0)}})},
                     {Items({{kStep, Stats(3, 9300, 3100.0)}})}, gate)[0]
            .verdict == Verdict::kUnchanged);
}

TEST_CASE("diff gate: a total grown through a few instances is noise", "[diff]") {
  // 20 steps, one of them 4 ms longer: the total grows 6.2%, the typical step 0.2%.
  const ItemKey step = {ItemKind::kNvtx, ":step"};
  const ItemDiff outlier = Find(CompareItems({Items({{step, Stats(20, 65018557, 3149365.5)}})},
                                             {Items({{step, Stats(20, 69077900, 3155300.0)}})}, {}),
                                step);
  CHECK(outlier.verdict == Verdict::kNoise);
  CHECK(outlier.change_ns == 4059343);
  CHECK(outlier.noise_ns == 0);
  // Every step 6% slower, or 6% more steps: the typical total grows as much.
  CHECK(CompareItems({Items({{step, Stats(20, 60000, 3000.0)}})},
                     {Items({{step, Stats(20, 63600, 3180.0)}})}, {})[0]
            .verdict == Verdict::kRegressed);
  CHECK(CompareItems({Items({{step, Stats(50, 150000, 3000.0)}})},
                     {Items({{step, Stats(53, 159000, 3000.0)}})}, {})[0]
            .verdict == Verdict::kRegressed);
  // The typical total grew, but by no more than --min-time.
  CHECK(CompareItems({Items({{step, Stats(20, 60000, 3000.0)}})},
                     {Items({{step, Stats(20, 64000, 3010.0)}})}, {5, 1000})[0]
            .verdict == Verdict::kNoise);
  // The typical total shrank while the total grew.
  CHECK(CompareItems({Items({{step, Stats(20, 60000, 3000.0)}})},
                     {Items({{step, Stats(20, 66000, 2900.0)}})}, {})[0]
            .verdict == Verdict::kNoise);
}

TEST_CASE("diff gate: a grown wait is uncounted unless waits count", "[diff]") {
  const ItemKey wait = {ItemKind::kOsrt, "pthread_cond_wait"};
  const ItemKey read = {ItemKind::kOsrt, "read"};
  const std::vector<ReportItems> base = {Items({{wait, Total(1000)}, {read, Total(1000)}})};
  const std::vector<ReportItems> slower = {Items({{wait, Total(2000)}, {read, Total(2000)}})};
  CHECK(Find(CompareItems(base, slower, {}), wait).verdict == Verdict::kUncounted);
  CHECK(Find(CompareItems(base, slower, {}), read).verdict == Verdict::kRegressed);
  CHECK(Find(CompareItems(base, slower, {5, 0, true}), wait).verdict == Verdict::kRegressed);
  CHECK(Find(CompareItems(slower, base, {}), wait).verdict == Verdict::kImproved);
  CHECK(VerdictName(Verdict::kUncounted) == "uncounted");
}

// An NVTX range's stats with `excluding_waits` ns outside wait calls (its total or median).
ItemStats Waiting(int64_t instances, int64_t total_ns, double median_ns, double excluding_waits) {
  return {instances, total_ns, median_ns, excluding_waits};
}

TEST_CASE("diff gate: an NVTX range grown by waiting inside it is uncounted unless waits count",
          "[diff]") {
  // The bundled example on a busy machine: 20 steps grew 9 ms, 8.6 ms of it in pthread_cond_wait.
  const ItemKey step = {ItemKind::kNvtx, ":step"};
  const std::vector<ReportItems> base = {Items({{step, Waiting(20, 70429851, 1942148, 13435483)}})};
  const std::vector<ReportItems> waited = {
      Items({{step, Waiting(20, 79394398, 3113000.5, 13822716)}})};
  CHECK(Find(CompareItems(base, waited, {}), step).verdict == Verdict::kUncounted);
  CHECK(Find(CompareItems(base, waited, {5, 0, true}), step).verdict == Verdict::kRegressed);
  // Its own work grew 6 ms (45%): regressed, whatever its waits did.
  const std::vector<ReportItems> slower = {
      Items({{step, Waiting(20, 79394398, 3113000.5, 19435483)}})};
  CHECK(Find(CompareItems(base, slower, {}), step).verdict == Verdict::kRegressed);
  // Its work grew 6 ms, no more than --min-time, while its total grew 9 ms.
  CHECK(Find(CompareItems(base, slower, {5, 6500000}), step).verdict == Verdict::kUncounted);
  // A range that shrank by waiting less improved.
  CHECK(Find(CompareItems(waited, base, {}), step).verdict == Verdict::kImproved);
  // --range compares the median instance less its waits, weighted by the base's instances.
  const std::vector<ReportItems> range_base = {Items({{kStep, Waiting(20, 60000, 3000, 1000)}})};
  const std::vector<ReportItems> range_waited = {Items({{kStep, Waiting(20, 80000, 4000, 1020)}})};
  const std::vector<ReportItems> range_slower = {Items({{kStep, Waiting(20, 80000, 4000, 1200)}})};
  CHECK(Find(CompareItems(range_base, range_waited, {5, 500}), kStep).verdict ==
        Verdict::kUncounted);
  CHECK(Find(CompareItems(range_base, range_slower, {5, 500}), kStep).verdict ==
        Verdict::kRegressed);
  // A call preempted for 5 ms: its time on the CPU did not change.
  const ItemKey create = {ItemKind::kOsrt, "pthread_create"};
  CHECK(Find(CompareItems({Items({{create, Waiting(1, 171344, 171344, 171344)}})},
                          {Items({{create, Waiting(1, 5189026, 5189026, 176012)}})}, {5, 5000000}),
             create)
            .verdict == Verdict::kUncounted);
  // Items without waits known are judged on their compared value alone.
  CHECK(Find(CompareItems({Items({{kStep, Stats(20, 60000, 3000)}})},
                          {Items({{kStep, Stats(20, 80000, 4000)}})}, {5, 500}),
             kStep)
            .verdict == Verdict::kRegressed);
}

TEST_CASE("diff gate: rows by verdict then largest change then kind and name", "[diff]") {
  const ItemKey busy = {ItemKind::kGpuBusy, "device 0"};
  const ItemKey api = {ItemKind::kCudaApi, "cudaMalloc"};
  const auto diffs = CompareItems(
      {Items({{kGemm, Total(1000)}, {kRelu, Total(1000)}, {busy, Total(1000)}, {api, Total(10)}})},
      {Items({{kGemm, Total(1100)}, {kRelu, Total(1000)}, {busy, Total(1300)}, {api, Total(10)}})},
      {});
  REQUIRE(diffs.size() == 4);
  CHECK(diffs[0].key.name == "device 0");
  CHECK(diffs[1].key.name == "gemm");
  CHECK(diffs[2].key.name == "relu");  // unchanged, change 0: kernel before cuda_api
  CHECK(diffs[3].key.name == "cudaMalloc");
  CHECK(VerdictName(diffs[0].verdict) == "regressed");
  CHECK(VerdictName(diffs[3].verdict) == "unchanged");
}

}  // namespace
}  // namespace prof::diff
