// cuda_kern_exec_trace and nvtx_kern_sum: on the hand-made report of cuda_trace_fixture.h and on
// one with nested ranges of one name and a graph launch (answers worked out by hand), and on the
// torch_mix nsys export, which has no nsys csv of either: its row counts and rows were checked
// with sqlite3 queries written apart from the reports' SQL (direct joins of the kernel, runtime
// and NVTX_EVENTS tables).
#include <catch2/catch.hpp>

#include "stats/report_database.h"
#include "stats/report_query.h"
#include "tests/stats/cuda_trace_fixture.h"
#include "tests/stats/stats_test_util.h"

namespace prof::stats::test {
namespace {

using Row = std::vector<std::string>;

const std::string kTorchMix =
    std::string(PROF_STATS_TEST_DATA) + "/nsys-torch_mix/torch_mix.sqlite";

TextRows Run(const std::string& path, const std::string& report,
             const std::vector<std::string>& options = {}) {
  storage::Database db;
  REQUIRE(OpenReportDatabase(path, &db).ok());
  ResultTable table;
  const Status status = RunReportQuery(&db, *FindReport(report), options, &table);
  INFO(status.message());
  REQUIRE(status.ok());
  return Texts(table);
}

// Thread pid 7 / tid 1. Ranges: push/pop :step [0,100], :step [200,300] > :step [210,250];
// start/end :mark [0,300]. Calls (corr: [start,end] -> kernels [start,end]):
//   1: [10,20] -> a [30,40];  2: [50,60] -> a [60,90];  3: [220,230] -> a [240,260] (in both
//   nested :step ranges);  4: [260,270] -> graph launch of b [280,284] and b [290,296];
//   5: [400,410] -> b [420,425] (in no range).
std::string MakeNestedReport(const std::string& name) {
  return MakeReport(
      name, {"NVTX_EVENTS", "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_KERNEL"},
      ReplaceAll(
          "INSERT INTO StringIds (id, value) VALUES (1, 'cudaLaunchKernel_v7000'),"
          " (2, 'cudaGraphLaunch_v10000'), (3, 'void a<int>()'), (4, 'a'), (5, 'b()'), (6, 'b');"
          "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) VALUES"
          " (0, 100, 59, 'step', $T, 0), (200, 300, 59, 'step', $T, 0),"
          " (210, 250, 59, 'step', $T, 0), (0, 300, 60, 'mark', $T, 0);"
          "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME"
          " (start, end, eventClass, globalTid, correlationId, nameId, returnValue) VALUES"
          " (10, 20, 1, $T, 1, 1, 0), (50, 60, 1, $T, 2, 1, 0), (220, 230, 1, $T, 3, 1, 0),"
          " (260, 270, 1, $T, 4, 2, 0), (400, 410, 1, $T, 5, 1, 0);"
          "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId,"
          " correlationId, globalPid, demangledName, shortName, registersPerThread, gridX, gridY,"
          " gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory,"
          " localMemoryPerThread, localMemoryTotal, gridId) VALUES"
          " (30, 40, 0, 1, 7, 1, $G, 3, 4, 16, 1, 1, 1, 32, 1, 1, 0, 0, 0, 0, 1),"
          " (60, 90, 0, 1, 7, 2, $G, 3, 4, 16, 1, 1, 1, 32, 1, 1, 0, 0, 0, 0, 2),"
          " (240, 260, 0, 1, 7, 3, $G, 3, 4, 16, 1, 1, 1, 32, 1, 1, 0, 0, 0, 0, 3),"
          " (280, 284, 0, 1, 7, 4, $G, 5, 6, 16, 1, 1, 1, 32, 1, 1, 0, 0, 0, 0, 4),"
          " (290, 296, 0, 1, 7, 4, $G, 5, 6, 16, 1, 1, 1, 32, 1, 1, 0, 0, 0, 0, 5),"
          " (420, 425, 0, 1, 7, 5, $G, 5, 6, 16, 1, 1, 1, 32, 1, 1, 0, 0, 0, 0, 6);",
          {{"$T", Tid(7, 1)}, {"$G", Tid(7, 0)}}));
}

TEST_CASE("cuda_kern_exec_trace lists every launch with its phases", "[stats][cuda]") {
  const ResultTable table = RunReport(MakeCudaTraceReport("exec_trace"), "cuda_kern_exec_trace");
  CHECK(table.columns == Row{"API Start (ns)", "API Dur (ns)", "Queue Start (ns)", "Queue Dur (ns)",
                             "Kernel Start (ns)", "Kernel Dur (ns)", "Total Dur (ns)", "PID", "TID",
                             "DevId", "API Function", "GridXYZ", "BlockXYZ", "Kernel Name"});
  // By API start; P2's call 1 gets P2's kernel, not T1's of the same correlation id.
  CHECK(Texts(table) ==
        TextRows{
            {"100", "10", "110", "1890", "2000", "100", "2000", "100", "2", "0", "cudaLaunchKernel",
             "   1    1    1", "  64    1    1", "kern_b<float>(float *)"},
            {"110", "10", "120", "880", "1000", "100", "990", "100", "1", "0", "cudaLaunchKernel",
             "   4    2    1", " 128    1    1", "kern_a(int)"},
            {"120", "10", "130", "2870", "3000", "10", "2890", "200", "1", "0", "cudaLaunchKernel",
             "   1    1    1", "  32    1    1", "kern_a(int)"},
            {"160", "10", "170", "1030", "1200", "50", "1090", "100", "1", "0", "cudaLaunchKernel",
             "   1    1    1", "  64    1    1", "kern_b<float>(float *)"},
        });
}

TEST_CASE("cuda_kern_exec_trace names kernels by option", "[stats][cuda]") {
  const std::string path = MakeCudaTraceReport("exec_trace_names");
  auto names = [&](const std::vector<std::string>& options) {
    Row column;
    for (const auto& row : Run(path, "cuda_kern_exec_trace", options)) column.push_back(row[13]);
    return column;
  };
  CHECK(names({"base"}) == Row{"kern_b", "kern_a", "kern_a", "kern_b"});
  // kern_b has no mangled name: its demangled name stands in.
  CHECK(names({"mangled"}) ==
        Row{"kern_b<float>(float *)", "_Z6kern_ai", "_Z6kern_ai", "kern_b<float>(float *)"});
}

TEST_CASE("cuda_kern_exec_trace lists each kernel of a graph launch", "[stats][cuda]") {
  const TextRows rows = Run(MakeNestedReport("exec_trace_graph"), "cuda_kern_exec_trace");
  REQUIRE(rows.size() == 6);
  // One call, two kernels, by kernel start; cudaGraphLaunch_v10000 keeps its longer suffix.
  CHECK(rows[3] == Row{"260", "10", "270", "10", "280", "4", "24", "7", "1", "0",
                       "cudaGraphLaunch_v10000", "   1    1    1", "  32    1    1", "b()"});
  CHECK(rows[4] == Row{"260", "10", "270", "20", "290", "6", "36", "7", "1", "0",
                       "cudaGraphLaunch_v10000", "   1    1    1", "  32    1    1", "b()"});
}

TEST_CASE("nvtx_kern_sum summarizes kernels per enclosing range", "[stats][nvtx][cuda]") {
  const ResultTable table = RunReport(MakeCudaTraceReport("kern_sum"), "nvtx_kern_sum");
  CHECK(table.columns == Row{"NVTX Range", "Style", "PID", "TID", "NVTX Inst", "Kern Inst",
                             "Total Time (ns)", "Avg (ns)", "Med (ns)", "Min (ns)", "Max (ns)",
                             "StdDev (ns)", "Kernel Name"});
  // K1 (call 1) is in :outer, :inner, :async; K2 (call 2) also in :leaf; K3 in T2's :other; P2's
  // K4 in no range. Memory operations and the second :inner (a memcpy only) do not count.
  const std::string a = "kern_a(int)";
  const std::string b = "kern_b<float>(float *)";
  CHECK(
      Texts(table) ==
      TextRows{
          {"", "", "200", "1", "0", "1", "10", "10.0", "10.0", "10", "10", "0.0", a},
          {":async", "StartEnd", "100", "1", "1", "1", "100", "100.0", "100.0", "100", "100", "0.0",
           a},
          {":async", "StartEnd", "100", "1", "1", "1", "50", "50.0", "50.0", "50", "50", "0.0", b},
          {":inner", "PushPop", "100", "1", "1", "1", "100", "100.0", "100.0", "100", "100", "0.0",
           a},
          {":inner", "PushPop", "100", "1", "1", "1", "50", "50.0", "50.0", "50", "50", "0.0", b},
          {":leaf", "PushPop", "100", "1", "1", "1", "50", "50.0", "50.0", "50", "50", "0.0", b},
          {":other", "PushPop", "100", "2", "1", "1", "100", "100.0", "100.0", "100", "100", "0.0",
           b},
          {":outer", "PushPop", "100", "1", "1", "1", "100", "100.0", "100.0", "100", "100", "0.0",
           a},
          {":outer", "PushPop", "100", "1", "1", "1", "50", "50.0", "50.0", "50", "50", "0.0", b},
      });
}

TEST_CASE("nvtx_kern_sum counts a kernel once per enclosing range of a name",
          "[stats][nvtx][cuda]") {
  // :step/a: pairs 10, 30 (first :step), 20 twice (the nested pair): 3 ranges, 3 kernels,
  // total 80, mean 20, median 20, StdDev sqrt(200 / 3) = 8.16. :mark/a: 10, 30, 20 -> StdDev
  // 10. b: the graph launch's 4 and 6 (StdDev sqrt(2) = 1.41); the last b is in no range.
  CHECK(
      Run(MakeNestedReport("kern_sum_nested"), "nvtx_kern_sum", {"base"}) ==
      TextRows{
          {"", "", "7", "1", "0", "1", "5", "5.0", "5.0", "5", "5", "0.0", "b"},
          {":mark", "StartEnd", "7", "1", "1", "3", "60", "20.0", "20.0", "10", "30", "10.0", "a"},
          {":mark", "StartEnd", "7", "1", "1", "2", "10", "5.0", "5.0", "4", "6", "1.4", "b"},
          {":step", "PushPop", "7", "1", "3", "3", "80", "20.0", "20.0", "10", "30", "8.2", "a"},
          {":step", "PushPop", "7", "1", "1", "2", "10", "5.0", "5.0", "4", "6", "1.4", "b"},
      });
  const TextRows named = Run(MakeNestedReport("kern_sum_demangled"), "nvtx_kern_sum");
  REQUIRE(named.size() == 5);
  CHECK(named[1][12] == "void a<int>()");
  CHECK(named[2][12] == "b()");
}

TEST_CASE("cuda_kern_exec_trace on torch_mix lists 321 launches", "[stats][golden][cuda]") {
  const TextRows rows = Run(kTorchMix, "cuda_kern_exec_trace", {"base"});
  REQUIRE(rows.size() == 321);
  // The first launch (in :setup): the kernel started after the call returned, so no queue.
  CHECK(rows[0] == Row{"5234814625", "1090840", "", "", "5235900071", "5279", "1090840", "490",
                       "490", "0", "cudaLaunchKernel", "1056    1    1", " 256    1    1",
                       "distribution_elementwise_grid_stride_kernel"});
  CHECK(rows[1] ==
        Row{"5412041711", "36244", "", "", "5412075630", "56736", "90655", "490", "490", "0",
            "cudaLaunchKernelExC_v11060", "   8   16    1", " 128    1    1",
            "sm80_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128x64x8_stage3_warpsize2x2x1_"
            "ffma_aligna4_alignc4_execute_kernel__5x_cublas"});
  CHECK(rows[320] == Row{"5586806536", "4767", "5586811303", "2170", "5586813473", "992", "7929",
                         "490", "490", "0", "cudaLaunchKernel", "   1    1    1", " 128    1    1",
                         "vectorized_elementwise_kernel"});
  size_t queued = 0;
  for (const auto& row : rows) queued += row[3].empty() ? 0 : 1;
  CHECK(queued == 312);
}

TEST_CASE("nvtx_kern_sum on torch_mix puts every kernel in setup or step",
          "[stats][golden][nvtx]") {
  // Demangled: :setup's one kernel and :step's six; the base names fold :step's four
  // vectorized_elementwise_kernel instantiations into one row.
  REQUIRE(Run(kTorchMix, "nvtx_kern_sum").size() == 7);
  const TextRows rows = Run(kTorchMix, "nvtx_kern_sum", {"base"});
  REQUIRE(rows.size() == 4);
  CHECK(rows[0] == Row{":setup", "PushPop", "490", "490", "1", "1", "5279", "5279.0", "5279.0",
                       "5279", "5279", "0.0", "distribution_elementwise_grid_stride_kernel"});
  CHECK(rows[2] == Row{":step", "PushPop", "490", "490", "40", "200", "455839", "2279.2", "2272.0",
                       "992", "4128", "958.2", "vectorized_elementwise_kernel"});
  CHECK(rows[3] == Row{":step", "PushPop", "490", "490", "40", "80", "417915", "5223.9", "5200.0",
                       "4832", "5472", "221.5", "reduce_kernel"});
  uint64_t kernels = 0;
  for (const auto& row : rows) kernels += std::stoull(row[5]);
  CHECK(kernels == 321);
}

}  // namespace
}  // namespace prof::stats::test
