// pytorch_op_sum and pytorch_module_sum on a hand-made report whose answers are worked out by
// hand. All times in ns; T1 = pid 100 / tid 1, T2 = pid 100 / tid 2.
//
// Default domain, push/pop:
//   T1 step [0,3000]                                        hand-written: no operator
//   T1 aten::linear, op_id 1 [0,1000] > aten::t, op_id 2 [100,200]
//                                     > aten::addmm, op_id 3, sizes [[2], [8, 4], ...] [300,900]
//   T1 aten::addmm, op_id 4, sizes [[2], [16, 4], ...] [2000,2500]
//   T1 custom, op_id = n/a [2600,2700]                      hand-written: no digit after op_id
//   T2 AddmmBackward0, seq = 1, op_id 5 [0,400]             another thread: no child of linear
// Domain Mine: T1 aten::fake, op_id = 9 [2700,2800]       not the default domain
// Domain PyTorch: T1 Net (Net) [0,2600] > Net.fc (Linear) [0,1000], Net.fc2 (Linear) [1900,2600];
//   T1 autograd.backward [2700,2900]                        not a module
// Kernels, by the call that launched them on T1: [150,160] in aten::t: 30; [350,360] in the
// first addmm: 100; [950,960] in aten::linear itself: 10; [2100,2110] in the second addmm: 200.
#include <catch2/catch.hpp>
#include <sstream>

#include "stats/report_database.h"
#include "stats/report_selection.h"
#include "tests/stats/stats_test_util.h"
#include "tests/support/test_support.h"

namespace prof::stats::test {
namespace {

using Row = std::vector<std::string>;

const char* const kRangeRows =
    "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) VALUES"
    " (0, 0, 75, 'PyTorch', $T1, 1), (0, 0, 75, 'Mine', $T1, 2),"
    " (0, 3000, 59, 'step', $T1, 0),"
    " (0, 1000, 59, 'aten::linear, seq = 0, op_id = 1', $T1, 0),"
    " (100, 200, 59, 'aten::t, seq = 0, op_id = 2', $T1, 0),"
    " (300, 900, 59, 'aten::addmm, seq = 1, op_id = 3, sizes = [[2], [8, 4], [4, 2], [], []],"
    " input_op_ids = [(0,-1), (0,-1), (2,0), (0,-1), (0,-1)]', $T1, 0),"
    " (2000, 2500, 59, 'aten::addmm, seq = 2, op_id = 4, sizes = [[2], [16, 4], [4, 2], [], []],"
    " input_op_ids = [(0,-1), (0,-1), (0,-1), (0,-1), (0,-1)]', $T1, 0),"
    " (2600, 2700, 59, 'custom, op_id = n/a', $T1, 0),"
    " (0, 400, 59, 'AddmmBackward0, seq = 1, op_id = 5', $T2, 0),"
    " (2700, 2800, 59, 'aten::fake, op_id = 9', $T1, 2),"
    " (0, 2600, 59, 'Net (Net)', $T1, 1), (0, 1000, 59, 'Net.fc (Linear)', $T1, 1),"
    " (1900, 2600, 59, 'Net.fc2 (Linear)', $T1, 1), (2700, 2900, 59, 'autograd.backward', $T1, 1);";

const char* const kGpuRows =
    "INSERT INTO StringIds (id, value) VALUES (1, 'cudaLaunchKernel_v7000'), (2, 'gemm');"
    "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME"
    " (start, end, eventClass, globalTid, correlationId, nameId, returnValue) VALUES"
    " (150, 160, 1, $T1, 1, 1, 0), (350, 360, 1, $T1, 2, 1, 0), (950, 960, 1, $T1, 3, 1, 0),"
    " (2100, 2110, 1, $T1, 4, 1, 0);"
    "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, greenContextId,"
    " streamId, correlationId, globalPid, demangledName, shortName, mangledName,"
    " registersPerThread, gridX, gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory,"
    " dynamicSharedMemory, localMemoryPerThread, localMemoryTotal, gridId) VALUES"
    " (5000, 5030, 0, 1, 0, 7, 1, $G1, 2, 2, NULL, 32, 1, 1, 1, 32, 1, 1, 0, 0, 0, 0, 1),"
    " (5100, 5200, 0, 1, 0, 7, 2, $G1, 2, 2, NULL, 32, 1, 1, 1, 32, 1, 1, 0, 0, 0, 0, 2),"
    " (5300, 5310, 0, 1, 0, 7, 3, $G1, 2, 2, NULL, 32, 1, 1, 1, 32, 1, 1, 0, 0, 0, 0, 3),"
    " (5400, 5600, 0, 1, 0, 7, 4, $G1, 2, 2, NULL, 32, 1, 1, 1, 32, 1, 1, 0, 0, 0, 0, 4);";

std::string WithIds(const std::string& sql) {
  return ReplaceAll(sql, {{"$T1", Tid(100, 1)}, {"$T2", Tid(100, 2)}, {"$G1", Tid(100, 0)}});
}

std::string GpuReport(const std::string& name) {
  return MakeReport(name,
                    {"NVTX_EVENTS", "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_KERNEL"},
                    WithIds(std::string(kRangeRows) + kGpuRows));
}

std::string CpuReport(const std::string& name) {
  return MakeReport(name, {"NVTX_EVENTS"}, WithIds(kRangeRows));
}

const Row kOperatorColumns = {"Self CPU (%)", "Self CPU (ns)", "CPU Total (%)", "CPU Total (ns)",
                              "CPU Avg (ns)", "Self GPU (%)",  "Self GPU (ns)", "GPU Total (ns)",
                              "GPU Avg (ns)", "Calls",         "Operator",      "Input Shapes"};

TEST_CASE("pytorch_op_sum adds up operator ranges as key_averages does", "[pytorch][stats]") {
  const ResultTable table = RunReport(GpuReport("op_sum"), "pytorch_op_sum");
  CHECK(table.columns == kOperatorColumns);
  // Self CPU: linear 1000 - 100 - 600 = 300; summed self 1100 + 400 + 300 + 100 = 1900. Self GPU:
  // linear 140 - 30 - 100 = 10; summed 300 + 10 + 30 = 340. By self CPU time.
  CHECK(Texts(table) == TextRows{{"57.9", "1100", "57.9", "1100", "550.0", "88.2", "300", "300",
                                  "150.0", "2", "aten::addmm", ""},
                                 {"21.1", "400", "21.1", "400", "400.0", "0.0", "0", "0", "0.0",
                                  "1", "AddmmBackward0", ""},
                                 {"15.8", "300", "52.6", "1000", "1000.0", "2.9", "10", "140",
                                  "140.0", "1", "aten::linear", ""},
                                 {"5.3", "100", "5.3", "100", "100.0", "8.8", "30", "30", "30.0",
                                  "1", "aten::t", ""}});
}

TEST_CASE("pytorch_op_sum sorts by the column asked for", "[pytorch][stats]") {
  const std::string report = GpuReport("op_sum_sort");
  const auto names = [&](const std::string& sort) {
    std::vector<std::string> out;
    for (const Row& row : Texts(RunReport(report, "pytorch_op_sum", {"sort=" + sort}))) {
      out.push_back(row[10]);
    }
    return out;
  };
  CHECK(names("total_cpu") == Row{"aten::addmm", "aten::linear", "AddmmBackward0", "aten::t"});
  CHECK(names("self_gpu") == Row{"aten::addmm", "aten::t", "aten::linear", "AddmmBackward0"});
  CHECK(names("total_gpu") == Row{"aten::addmm", "aten::linear", "aten::t", "AddmmBackward0"});
  // Ties by name, in byte order.
  CHECK(names("calls") == Row{"aten::addmm", "AddmmBackward0", "aten::linear", "aten::t"});
}

TEST_CASE("pytorch_op_sum takes sort= from its list of columns only", "[pytorch][stats]") {
  storage::Database db;
  REQUIRE(OpenReportDatabase(CpuReport("op_sum_sort_option"), &db).ok());
  std::vector<ReportRequest> requests;
  CHECK(SelectReports({"pytorch_op_sum:sort=calls:shapes"}, &db, &requests).ok());
  const Status status = SelectReports({"pytorch_module_sum:sort=gpu"}, &db, &requests);
  CHECK(status.message() ==
        "option sort of report pytorch_module_sum takes "
        "<self_cpu|total_cpu|self_gpu|total_gpu|calls> (got 'gpu')");
}

TEST_CASE("pytorch_op_sum:shapes gives a row per operator and input sizes", "[pytorch][stats]") {
  const TextRows rows = Texts(RunReport(GpuReport("op_sum_shapes"), "pytorch_op_sum", {"shapes"}));
  REQUIRE(rows.size() == 5);
  CHECK(rows[0] == Row{"31.6", "600", "31.6", "600", "600.0", "29.4", "100", "100", "100.0", "1",
                       "aten::addmm", "[[2], [8, 4], [4, 2], [], []]"});
  CHECK(rows[1] == Row{"26.3", "500", "26.3", "500", "500.0", "58.8", "200", "200", "200.0", "1",
                       "aten::addmm", "[[2], [16, 4], [4, 2], [], []]"});
  CHECK(rows[2][11] == "");  // AddmmBackward0: recorded without sizes
}

TEST_CASE("pytorch_op_sum leaves the GPU columns empty without GPU work", "[pytorch][stats]") {
  const TextRows rows = Texts(RunReport(CpuReport("op_sum_cpu"), "pytorch_op_sum"));
  REQUIRE(rows.size() == 4);
  CHECK(rows[2] ==
        Row{"15.8", "300", "52.6", "1000", "1000.0", "", "", "", "", "1", "aten::linear", ""});
}

Row ModuleColumns() {
  Row columns(kOperatorColumns.begin(), kOperatorColumns.end() - 2);
  columns.push_back("Pass");
  columns.push_back("Module");
  return columns;
}

TEST_CASE("pytorch_module_sum adds up module ranges", "[pytorch][stats]") {
  const ResultTable table = RunReport(GpuReport("module_sum"), "pytorch_module_sum");
  CHECK(table.columns == ModuleColumns());
  // Net: 2600 - 1000 - 700 = 900 self, every kernel (340) but none of its own. Summed self 2600.
  // Backward: AddmmBackward0 (seq 1, 400 ns on T2) was made by the addmm in Net.fc, inside Net.
  CHECK(Texts(table) == TextRows{{"38.5", "1000", "38.5", "1000", "1000.0", "41.2", "140", "140",
                                  "140.0", "1", "forward", "Net.fc (Linear)"},
                                 {"34.6", "900", "100.0", "2600", "2600.0", "0.0", "0", "340",
                                  "340.0", "1", "forward", "Net (Net)"},
                                 {"26.9", "700", "26.9", "700", "700.0", "58.8", "200", "200",
                                  "200.0", "1", "forward", "Net.fc2 (Linear)"},
                                 {"100.0", "400", "100.0", "400", "400.0", "", "0", "0", "0.0", "1",
                                  "backward", "Net.fc (Linear)"},
                                 {"0.0", "0", "100.0", "400", "400.0", "", "0", "0", "0.0", "1",
                                  "backward", "Net (Net)"}});
}

TEST_CASE("pytorch_module_sum gives each backward node to the module that made it",
          "[pytorch][stats]") {
  // seq 0: aten::linear and its aten::t both carry it; the later one (aten::t) made the node, in
  // Net.fc. seq 2: the second addmm, in Net.fc2. seq 7: no operator made it. Pid 200 has no
  // operator of seq 1, so its node stays out.
  const std::string backward_rows =
      "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) VALUES"
      " (500, 550, 59, 'TBackward0, seq = 0, op_id = 6', $T2, 0),"
      " (600, 900, 59, 'AddmmBackward0, seq = 2, op_id = 7', $T2, 0),"
      " (920, 990, 59, 'MulBackward0, seq = 7, op_id = 8', $T2, 0),"
      " (0, 5000, 59, 'AddmmBackward0, seq = 1, op_id = 1', $P2, 0);";
  const std::string report = MakeReport(
      "module_backward", {"NVTX_EVENTS"},
      ReplaceAll(WithIds(std::string(kRangeRows) + backward_rows), {{"$P2", Tid(200, 1)}}));
  const ResultTable table = RunReport(report, "pytorch_module_sum");
  TextRows backward;
  for (const Row& row : Texts(table)) {
    if (row[10] == "backward") backward.push_back({row[1], row[3], row[9], row[11]});
  }
  // self, total, calls, module: Net.fc 400 + 50, Net.fc2 300, Net both through its children.
  CHECK(backward == TextRows{{"450", "450", "1", "Net.fc (Linear)"},
                             {"300", "300", "1", "Net.fc2 (Linear)"},
                             {"0", "750", "1", "Net (Net)"}});
}

TEST_CASE("prof export gives each run of a module's backward nodes one slice nested as forward",
          "[pytorch][export]") {
  // T3, in the order autograd ran them: seq 2 (Net.fc2's addmm), seq 1 and seq 0 (Net.fc's addmm
  // and t: one run), seq 7 (no operator made it: no slice, no break), seq 1 again (a rise: the
  // next pass, a run of its own). T2's node of seq 1 is Net.fc's; pid 200's has no maker.
  const std::string backward_rows =
      "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) VALUES"
      " (100, 200, 59, 'AddmmBackward0, seq = 2, op_id = 6', $T3, 0),"
      " (300, 400, 59, 'AddmmBackward0, seq = 1, op_id = 7', $T3, 0),"
      " (450, 500, 59, 'TBackward0, seq = 0, op_id = 8', $T3, 0),"
      " (600, 700, 59, 'MulBackward0, seq = 7, op_id = 9', $T3, 0),"
      " (800, 900, 59, 'AddmmBackward0, seq = 1, op_id = 10', $T3, 0),"
      " (0, 5000, 59, 'AddmmBackward0, seq = 1, op_id = 1', $P2, 0);";
  const std::string report = MakeReport("module_backward_export", {"NVTX_EVENTS"},
                                        ReplaceAll(WithIds(std::string(kRangeRows) + backward_rows),
                                                   {{"$T3", Tid(100, 3)}, {"$P2", Tid(200, 1)}}));
  const std::string out = prof::test::MakeTempDir("module_backward_export_out") + "/trace.jsonl";
  const prof::test::CommandResult result = prof::test::RunCommand(
      {prof::test::ProfBinary(), "export", "--type", "jsonl", "-q", "-o", out, report});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  std::vector<std::string> slices;
  std::istringstream lines(ReadFile(out));
  for (std::string line; std::getline(lines, line);) {
    if (line.find("\"kind\":\"pytorch_module_backward\"") != std::string::npos) {
      slices.push_back(line);
    }
  }
  auto slice = [](int tid, int start, int end, const std::string& module, int nodes) {
    return "{\"type\":\"event\",\"kind\":\"pytorch_module_backward\",\"category\":\"pytorch\","
           "\"pid\":100,\"tid\":" +
           std::to_string(tid) + ",\"start_ns\":" + std::to_string(start) +
           ",\"end_ns\":" + std::to_string(end) + ",\"name\":\"" + module +
           " backward\",\"args\":{\"nodes\":" + std::to_string(nodes) + "}}";
  };
  // Net encloses Net.fc and Net.fc2 as in forward: its runs hold both children's nodes.
  CHECK(slices == std::vector<std::string>{
                      slice(2, 0, 400, "Net (Net)", 1), slice(2, 0, 400, "Net.fc (Linear)", 1),
                      slice(3, 100, 500, "Net (Net)", 3), slice(3, 100, 200, "Net.fc2 (Linear)", 1),
                      slice(3, 300, 500, "Net.fc (Linear)", 2), slice(3, 800, 900, "Net (Net)", 1),
                      slice(3, 800, 900, "Net.fc (Linear)", 1)});
}

TEST_CASE("prof export adds no module backward slices without PyTorch module ranges",
          "[pytorch][export]") {
  // The operator ranges alone (--pytorch=autograd-nvtx): no domain PyTorch, so no slice.
  const std::string report = MakeReport(
      "module_backward_export_none", {"NVTX_EVENTS"},
      WithIds("INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) VALUES"
              " (0, 100, 59, 'aten::addmm, seq = 1, op_id = 1', $T1, 0),"
              " (200, 300, 59, 'AddmmBackward0, seq = 1, op_id = 2', $T2, 0);"));
  const std::string out = prof::test::MakeTempDir("module_backward_export_none_out") + "/t.jsonl";
  const prof::test::CommandResult result = prof::test::RunCommand(
      {prof::test::ProfBinary(), "export", "--type", "jsonl", "-q", "-o", out, report});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const std::string text = ReadFile(out);
  CHECK(text.find("pytorch_module_backward") == std::string::npos);
  CHECK(text.find("AddmmBackward0") != std::string::npos);
}

}  // namespace
}  // namespace prof::stats::test
