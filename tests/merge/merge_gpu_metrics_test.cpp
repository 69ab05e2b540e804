// prof merge on GPU metrics (merged_metric_types.h): every sample kept, timestamps on the merged
// time base, and series of the same GPU id from two inputs (another host's GPU 0) kept apart by
// typeId, with metric ids that mean different metrics in each input.
#include <catch2/catch.hpp>

#include "merge/merge_runner.h"
#include "storage/schema_catalog.h"
#include "tests/merge/merge_fixture.h"
#include "tests/support/test_support.h"

namespace prof::merge::test {
namespace {

using prof::test::QueryRows;
using Rows = std::vector<std::vector<std::string>>;

std::string MetricTables() {
  return std::string(*storage::TableDdl("GPU_METRICS")) + ";" +
         std::string(*storage::TableDdl("TARGET_INFO_GPU_METRICS")) + ";";
}

// The rank 1 input's GPU 0 series, with its bits 63..48 (the second input: 2).
const std::string kSecondGpu0 = std::to_string((int64_t{2} << 48) | 256);

TEST_CASE("merge keeps the GPU metrics of every input apart by typeId", "[merge][gpu_metrics]") {
  const std::string rank0 = RankZeroReportWith(
      "metrics_rank0", MetricTables() +
                           "INSERT INTO TARGET_INFO_GPU_METRICS VALUES"
                           " (256, 0, 'GPU 0', 0, 'SMs Active [Throughput %]'),"
                           " (256, 0, 'GPU 0', 1, 'SM Issue [Throughput %]');"
                           "INSERT INTO GPU_METRICS VALUES (1010, 10, 256, 0, 20),"
                           " (1010, 10, 256, 1, 10);");
  // Another host's GPU 0, its metric ids the other way round, and a GPU 1 no input shares.
  const std::string rank1 = RankOneReportWith(
      "metrics_rank1", MetricTables() +
                           "INSERT INTO TARGET_INFO_GPU_METRICS VALUES"
                           " (256, 0, 'GPU 0', 0, 'SM Issue [Throughput %]'),"
                           " (256, 0, 'GPU 0', 1, 'SMs Active [Throughput %]'),"
                           " (257, 1, 'GPU 1', 0, 'SMs Active [Throughput %]');"
                           "INSERT INTO GPU_METRICS VALUES (2010, 10, 256, 1, 90),"
                           " (2010, 10, 256, 0, 60), (2010, 10, 257, 0, 55);");
  const std::string output = prof::test::MakeTempDir("merge_gpu_metrics") + "/all";
  MergeOutcome outcome;
  const Status status = RunMerge({{rank0, rank1}, output, false}, &outcome);
  INFO(status.message());
  REQUIRE(status.ok());
  CHECK(outcome.left_out_tables.empty());
  const std::string out = outcome.output_path;
  CHECK(QueryRows(out,
                  "SELECT typeId, metricId, metricName FROM TARGET_INFO_GPU_METRICS"
                  " ORDER BY typeId, metricId") ==
        Rows{{"256", "0", "SMs Active [Throughput %]"},
             {"256", "1", "SM Issue [Throughput %]"},
             {"257", "0", "SMs Active [Throughput %]"},
             {kSecondGpu0, "0", "SM Issue [Throughput %]"},
             {kSecondGpu0, "1", "SMs Active [Throughput %]"}});
  // Every sample names one metric; rank 1's are 500 ns later on the merged time base; the raw
  // GPU clock is left as it was.
  CHECK(QueryRows(out,
                  "SELECT s.rawTimestamp, s.timestamp, s.typeId & 255, m.metricName, s.value"
                  " FROM GPU_METRICS AS s JOIN TARGET_INFO_GPU_METRICS AS m"
                  " USING (typeId, metricId) ORDER BY s.timestamp, s.typeId, s.metricId") ==
        Rows{{"1010", "10", "0", "SMs Active [Throughput %]", "20"},
             {"1010", "10", "0", "SM Issue [Throughput %]", "10"},
             {"2010", "510", "1", "SMs Active [Throughput %]", "55"},
             {"2010", "510", "0", "SM Issue [Throughput %]", "60"},
             {"2010", "510", "0", "SMs Active [Throughput %]", "90"}});
}

}  // namespace
}  // namespace prof::merge::test
