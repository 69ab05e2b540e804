// pytorch_op_sum and pytorch_module_sum on real profiles of torch_training.py (Debian's
// python3-torch, CPU): every row's calls, self and total time against sums computed here from
// the raw NVTX_EVENTS rows, with nesting found by containment rather than by the report's
// push/pop stack walk; known counts per step; a report without operator ranges is skipped.
#include <catch2/catch.hpp>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "tests/pytorch/torch_training_run.h"
#include "tests/stats/stats_test_util.h"
#include "tests/support/test_support.h"

namespace prof::test {
namespace {

using Rows = std::vector<std::vector<std::string>>;
// Per name: calls, self time, total time (ns).
using Sums = std::map<std::string, std::tuple<int64_t, int64_t, int64_t>>;

// Both kinds of ranges. A report lives as long as its test case (MakeTempDir), so each profiles.
TrainingRun ProfileBoth() { return ProfileTraining("autograd-shapes-nvtx,functions-trace"); }

CommandResult Stats(const std::string& report, const std::string& request,
                    const std::string& format = "csv") {
  return RunCommand({ProfBinary(), "stats", "-r", request, "-f", format, report});
}

// The report's rows, csv-parsed, header left out; fails the test when prof stats fails.
Rows StatsRows(const std::string& report, const std::string& request) {
  const CommandResult result = Stats(report, request);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  Rows rows = stats::test::ParseCsv(result.out);
  REQUIRE(!rows.empty());
  rows.erase(rows.begin());
  return rows;
}

// Operator and Module are both column 10, after the time columns.
Sums ReportedSums(const Rows& rows) {
  Sums sums;
  for (const auto& row : rows) {
    sums[row[10]] = {std::stoll(row[9]), std::stoll(row[1]), std::stoll(row[3])};
  }
  return sums;
}

// `ranges` selects (id, start, end, tid, name). A child is a range of the same thread inside
// another with no range of the set between the two.
Sums ExpectedSums(const std::string& report, const std::string& ranges) {
  const Rows rows = QueryRows(
      report,
      "WITH r AS (" + ranges +
          "), direct AS (SELECT p.id AS parent, sum(c.end - c.start) AS time FROM r p JOIN r c "
          "ON c.tid = p.tid AND c.id <> p.id AND c.start >= p.start AND c.end <= p.end "
          "WHERE NOT EXISTS (SELECT 1 FROM r m WHERE m.tid = p.tid AND m.id NOT IN (p.id, c.id) "
          "AND m.start >= p.start AND m.end <= p.end AND m.start <= c.start AND m.end >= c.end) "
          "GROUP BY p.id) SELECT name, count(*), sum(end - start - coalesce(direct.time, 0)), "
          "sum(end - start) FROM r LEFT JOIN direct ON direct.parent = r.id GROUP BY name");
  Sums sums;
  for (const auto& row : rows) {
    sums[row[0]] = {std::stoll(row[1]), std::stoll(row[2]), std::stoll(row[3])};
  }
  return sums;
}

// The emit_nvtx ranges: default domain, the name up to the first comma.
const char* const kOperatorRanges =
    "SELECT rowid AS id, start, end, globalTid AS tid, substr(text, 1, instr(text, ',') - 1) AS "
    "name FROM NVTX_EVENTS WHERE eventType = 59 AND domainId = 0 AND text LIKE '%, op_id = %'";

// The module ranges: domain PyTorch of their process, "<path> (<class>)".
const char* const kModuleRanges =
    "SELECT e.rowid AS id, e.start, e.end, e.globalTid AS tid, e.text AS name FROM NVTX_EVENTS e "
    "JOIN NVTX_EVENTS d ON d.eventType = 75 AND d.text = 'PyTorch' AND d.domainId = e.domainId "
    "AND d.globalTid / 16777216 = e.globalTid / 16777216 WHERE e.eventType = 59 AND e.text GLOB "
    "'* (*)'";

TEST_CASE("pytorch_op_sum matches the operator ranges of a training loop", "[pytorch][torch]") {
  if (!HasTorch() || !HasOperatorRanges()) return;
  const TrainingRun run = ProfileBoth();
  const Sums reported = ReportedSums(StatsRows(run.report, "pytorch_op_sum"));
  CHECK(reported == ExpectedSums(run.report, kOperatorRanges));
  // Once a step each in forward, backward and the optimizer; a gradient per parameter.
  for (const char* name : {"aten::conv2d", "aten::addmm", "AddmmBackward0", "ConvolutionBackward0",
                           "Optimizer.step#SGD.step"}) {
    INFO(name);
    CHECK(std::get<0>(reported.at(name)) == kTrainingSteps);
  }
  CHECK(std::get<0>(reported.at("torch::autograd::AccumulateGrad")) == 4 * kTrainingSteps);
  // Each addmm runs inside a linear: the linear's total holds the addmm's.
  CHECK(std::get<2>(reported.at("aten::linear")) > std::get<2>(reported.at("aten::addmm")));
}

TEST_CASE("pytorch_op_sum:shapes splits the training loop's operators by input sizes",
          "[pytorch][torch]") {
  if (!HasTorch() || !HasOperatorRanges()) return;
  const Rows rows = StatsRows(ProfileBoth().report, "pytorch_op_sum:shapes");
  std::map<std::string, std::string> calls;
  for (const auto& row : rows) calls[row[10] + " " + row[11]] = row[9];
  CHECK(calls["aten::conv2d [[8, 1, 8, 8], [4, 1, 3, 3], [4], [], [], [], []]"] == "4");
  CHECK(calls["aten::addmm [[2], [8, 256], [256, 2], [], []]"] == "4");
}

// pytorch_module_sum's rows of one pass ("forward" or "backward"), keyed by module.
Sums ModuleSums(const Rows& rows, const std::string& pass) {
  Sums sums;
  for (const auto& row : rows) {
    if (row[10] == pass)
      sums[row[11]] = {std::stoll(row[9]), std::stoll(row[1]), std::stoll(row[3])};
  }
  return sums;
}

TEST_CASE("pytorch_module_sum matches the module ranges of a training loop", "[pytorch][torch]") {
  if (!HasTorch() || !HasOperatorRanges()) return;
  const TrainingRun run = ProfileBoth();
  const Rows rows = StatsRows(run.report, "pytorch_module_sum:sort=calls");
  const Sums reported = ModuleSums(rows, "forward");
  CHECK(reported == ExpectedSums(run.report, kModuleRanges));
  CHECK(reported.size() == 4);
  for (const char* name : {"Net (Net)", "Net.conv (Conv2d)", "Net.fc (Linear)",
                           "CrossEntropyLoss (CrossEntropyLoss)"}) {
    INFO(name);
    CHECK(std::get<0>(reported.at(name)) == kTrainingSteps);
  }
}

TEST_CASE("pytorch_module_sum gives each module the backward nodes of its operators",
          "[pytorch][torch]") {
  if (!HasTorch() || !HasOperatorRanges()) return;
  const TrainingRun run = ProfileBoth();
  const Sums reported = ModuleSums(StatsRows(run.report, "pytorch_module_sum"), "backward");
  // The model's nodes by name, summed from the raw rows: Linear's addmm and t, Conv2d's
  // convolution, the loss's two; Net's own forward ran relu and flatten (the rest).
  const Rows nodes = QueryRows(
      run.report,
      "SELECT substr(text, 1, instr(text, ',') - 1), count(*), sum(end - start) FROM NVTX_EVENTS "
      "WHERE eventType = 59 AND domainId = 0 AND text GLOB '*Backward[0-9], seq = *' GROUP BY 1");
  const std::map<std::string, std::string> module_of = {
      {"AddmmBackward0", "Net.fc (Linear)"},
      {"TBackward0", "Net.fc (Linear)"},
      {"ConvolutionBackward0", "Net.conv (Conv2d)"},
      {"NllLossBackward0", "CrossEntropyLoss (CrossEntropyLoss)"},
      {"LogSoftmaxBackward0", "CrossEntropyLoss (CrossEntropyLoss)"}};
  std::map<std::string, int64_t> self;
  int64_t net_total = 0;
  for (const auto& node : nodes) {
    INFO(node[0]);
    CHECK(std::stoll(node[1]) == kTrainingSteps);  // one node of each a step
    const auto known = module_of.find(node[0]);
    const std::string module = known == module_of.end() ? "Net (Net)" : known->second;
    self[module] += std::stoll(node[2]);
    if (module != "CrossEntropyLoss (CrossEntropyLoss)") net_total += std::stoll(node[2]);
  }
  REQUIRE(self.size() == 4);  // relu's and flatten's nodes left for Net itself
  CHECK(reported.size() == 4);
  for (const auto& [module, time] : self) {
    INFO(module);
    REQUIRE(reported.count(module) == 1);
    CHECK(std::get<0>(reported.at(module)) == kTrainingSteps);
    CHECK(std::get<1>(reported.at(module)) == time);
    CHECK(std::get<2>(reported.at(module)) == (module == "Net (Net)" ? net_total : time));
  }
}

TEST_CASE("prof export gives the training loop's modules their backward slices",
          "[pytorch][torch][export]") {
  if (!HasTorch() || !HasOperatorRanges()) return;
  const TrainingRun run = ProfileBoth();
  const std::string out = prof::test::MakeTempDir("torch_module_backward_export") + "/t.jsonl";
  const CommandResult exported =
      RunCommand({ProfBinary(), "export", "--type", "jsonl", "-q", "-o", out, run.report});
  INFO(exported.err);
  REQUIRE(exported.exit_code == 0);
  // (name, start, end) of each slice, in the export's start order; prof writes the fields in
  // this order: ..."start_ns":<n>,"end_ns":<n>,"name":"<text>","args":...
  Rows slices;
  std::istringstream lines(stats::test::ReadFile(out));
  for (std::string line; std::getline(lines, line);) {
    if (line.find("\"kind\":\"pytorch_module_backward\"") == std::string::npos) continue;
    auto field = [&](const std::string& key, const std::string& end) {
      const size_t at = line.find(key) + key.size();
      return line.substr(at, line.find(end, at) - at);
    };
    slices.push_back({field("\"name\":\"", "\",\"args\""), field("\"start_ns\":", ","),
                      field("\"end_ns\":", ",")});
  }
  // Autograd runs a step's seven nodes in this order: the loss's two, Linear's addmm and t, Net's
  // own (flatten's and relu's), the convolution. A slice spans its run's first and last node;
  // Net's holds its children's, as its forward range does.
  const Rows nodes = QueryRows(
      run.report,
      "SELECT substr(text, 1, instr(text, ',') - 1), start, end FROM NVTX_EVENTS WHERE "
      "eventType = 59 AND domainId = 0 AND text GLOB '*Backward[0-9], seq = *' ORDER BY start");
  REQUIRE(nodes.size() == 7 * kTrainingSteps);
  Rows expected;
  for (int step = 0; step < kTrainingSteps; ++step) {
    auto node = [&](int index) { return nodes[7 * step + index]; };
    CHECK(node(0)[0] == "NllLossBackward0");
    CHECK(node(2)[0] == "AddmmBackward0");
    CHECK(node(6)[0] == "ConvolutionBackward0");
    expected.push_back({"CrossEntropyLoss (CrossEntropyLoss) backward", node(0)[1], node(1)[2]});
    expected.push_back({"Net (Net) backward", node(2)[1], node(6)[2]});
    expected.push_back({"Net.fc (Linear) backward", node(2)[1], node(3)[2]});
    expected.push_back({"Net.conv (Conv2d) backward", node(6)[1], node(6)[2]});
  }
  CHECK(slices == expected);
}

TEST_CASE("pytorch_op_sum prints as every report does", "[pytorch][torch]") {
  if (!HasTorch() || !HasOperatorRanges()) return;
  const std::string report = ProfileBoth().report;
  const CommandResult json = Stats(report, "pytorch_op_sum", "json");
  REQUIRE(json.exit_code == 0);
  CHECK(json.out.find("\"Operator\": \"aten::conv2d\"") != std::string::npos);
  const CommandResult column = Stats(report, "pytorch_op_sum", "column");
  REQUIRE(column.exit_code == 0);
  CHECK(column.out.find(" ** PyTorch Operator Summary (pytorch_op_sum):") == 0);
}

TEST_CASE("pytorch_op_sum skips a report without operator ranges", "[pytorch][torch]") {
  if (!HasTorch()) return;
  const TrainingRun run = ProfileTraining("functions-trace");
  const CommandResult result = Stats(run.report, "pytorch_op_sum");
  CHECK(result.exit_code == 0);
  CHECK(result.out.empty());
  CHECK(result.err == "prof: SKIPPED: " + run.report +
                          " does not contain PyTorch operator ranges (prof profile "
                          "--pytorch=autograd-nvtx).\n");
}

}  // namespace
}  // namespace prof::test
