// -r parsing: rule names, option values and their defaults, spellings, and the one-line errors.
#include "analyze/rule_request.h"

#include <catch2/catch.hpp>

namespace prof::analyze {
namespace {

RuleRequest Parse(const std::string& text) {
  std::vector<RuleRequest> requests;
  const Status status = SelectRules({text}, &requests);
  INFO(status.message());
  REQUIRE(status.ok());
  REQUIRE(requests.size() == 1);
  return requests[0];
}

std::string ErrorOf(const std::vector<std::string>& texts) {
  std::vector<RuleRequest> requests;
  const Status status = SelectRules(texts, &requests);
  REQUIRE_FALSE(status.ok());
  return status.message();
}

TEST_CASE("a rule without options gets every option's default", "[analyze][options]") {
  const RuleRequest request = Parse("gpu_gaps");
  CHECK(request.rule->name == "gpu_gaps");
  CHECK(request.Integer("rows") == 50);
  CHECK(request.Integer("gap") == 500);
  CHECK(request.Integer("start") == std::nullopt);
  CHECK(request.Text("nvtx") == std::nullopt);
  CHECK(request.Spelling() == "gpu_gaps");
  CHECK(request.FileStem() == "gpu_gaps");
  CHECK(request.Substitute("idle for more than {gap} ms") == "idle for more than 500 ms");
}

TEST_CASE("options are parsed and kept in order and spelled back", "[analyze][options]") {
  const RuleRequest request = Parse("gpu_time_util:threshold=20:chunks=10:nvtx=step@Lib:rows=-1");
  CHECK(request.Integer("threshold") == 20);
  CHECK(request.Integer("chunks") == 10);
  CHECK(request.Integer("rows") == -1);
  CHECK(request.Text("nvtx") == "step@Lib");
  CHECK(request.Spelling() == "gpu_time_util:threshold=20:chunks=10:nvtx=step@Lib:rows=-1");
  CHECK(request.FileStem() == "gpu_time_util_threshold-20_chunks-10_nvtx-step@Lib_rows--1");
}

TEST_CASE("a repeated option keeps its last value", "[analyze][options]") {
  const RuleRequest request = Parse("gpu_gaps:gap=1:gap=2");
  CHECK(request.Integer("gap") == 2);
  CHECK(request.Spelling() == "gpu_gaps:gap=2");
}

TEST_CASE("no rule named selects summary", "[analyze][options]") {
  std::vector<RuleRequest> requests;
  REQUIRE(SelectRules({}, &requests).ok());
  REQUIRE(requests.size() == 1);
  CHECK(requests[0].Spelling() == "summary");
  CHECK(requests[0].Integer("warmup") == 1);
  CHECK(requests[0].Text("step") == std::nullopt);
  CHECK(requests[0].Integer("gap") == std::nullopt);
}

TEST_CASE("a rule named twice with the same values runs once", "[analyze][options]") {
  std::vector<RuleRequest> requests;
  REQUIRE(SelectRules({"gpu_gaps", "gpu_gaps:gap=500", "gpu_gaps:gap=300"}, &requests).ok());
  REQUIRE(requests.size() == 2);
  CHECK(requests[0].Spelling() == "gpu_gaps");
  CHECK(requests[1].Spelling() == "gpu_gaps:gap=300");
}

TEST_CASE("bad rules and option values are one-line errors", "[analyze][options]") {
  CHECK(
      ErrorOf({"gpu_gap"}) ==
      "unknown rule 'gpu_gap'; valid rules: cuda_memcpy_async, cuda_memcpy_sync, "
      "cuda_memset_sync, cuda_api_sync, gpu_gaps, gpu_time_util, summary, overlap, "
      "sync_hotspots, idle_class, gap_cause, gap_cause_sum, cpu_in_gaps, nccl_overlap, nccl_skew, "
      "gpu_underuse");
  CHECK(
      ErrorOf({"overlap:gap=5"}) ==
      "unknown option 'gap' of rule overlap; valid options: rows, start, end, nvtx, step, warmup");
  CHECK(ErrorOf({"summary:warmup=-1"}) ==
        "option warmup of rule summary must be at least 0 (got -1)");
  CHECK(ErrorOf({"gap_cause:gap=1.5"}) ==
        "option gap of rule gap_cause takes an integer (got '1.5')");
  CHECK(ErrorOf({"gpu_gaps:threshold=5"}) ==
        "unknown option 'threshold' of rule gpu_gaps; valid options: rows, start, end, nvtx, gap");
  CHECK(ErrorOf({"cuda_api_sync:gap=5"}) ==
        "unknown option 'gap' of rule cuda_api_sync; valid options: rows, start, end, nvtx");
  CHECK(ErrorOf({"gpu_gaps:gap"}) == "option gap of rule gpu_gaps needs a value (gap=...)");
  CHECK(ErrorOf({"gpu_gaps:gap=abc"}) ==
        "option gap of rule gpu_gaps takes an integer (got 'abc')");
  CHECK(ErrorOf({"gpu_gaps:gap=12ms"}) ==
        "option gap of rule gpu_gaps takes an integer (got '12ms')");
  CHECK(ErrorOf({"gpu_gaps:gap="}) == "option gap of rule gpu_gaps takes an integer (got '')");
  CHECK(ErrorOf({"gpu_gaps:gap=-1"}) == "option gap of rule gpu_gaps must be at least 0 (got -1)");
  CHECK(ErrorOf({"gpu_gaps:rows=-2"}) ==
        "option rows of rule gpu_gaps must be at least -1 (got -2)");
  CHECK(ErrorOf({"gpu_time_util:chunks=0"}) ==
        "option chunks of rule gpu_time_util must be from 1 to 1000 (got 0)");
  CHECK(ErrorOf({"gpu_time_util:chunks=1001"}) ==
        "option chunks of rule gpu_time_util must be from 1 to 1000 (got 1001)");
  CHECK(ErrorOf({"gpu_gaps:nvtx="}) == "option nvtx of rule gpu_gaps needs a value");
  CHECK(ErrorOf({"gpu_gaps:start=10:end=5"}) == "rule gpu_gaps: start= (10) is after end= (5)");
  // The first bad request fails the whole selection.
  CHECK(ErrorOf({"gpu_gaps", "nope"}).rfind("unknown rule 'nope'", 0) == 0);
}

}  // namespace
}  // namespace prof::analyze
