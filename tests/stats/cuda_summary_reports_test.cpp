// The CUDA summary reports on a hand-made report with known answers: kernel name options, version
// suffixes, ties, queue times, a peer copy, a missing memset table and missing tables.
#include <catch2/catch.hpp>

#include "stats/report_database.h"
#include "stats/report_query.h"
#include "stats/report_selection.h"
#include "storage/sqlite_database.h"
#include "tests/stats/stats_test_util.h"

namespace prof::stats::test {
namespace {

// Thread pid 100 / tid 1 launches (correlation id: API call [start,end] -> GPU work [start,end]):
//   1: cudaLaunchKernel_v7000 [900,950]   -> "void k<int>(int)" [1000,1100] (queue 50)
//   2: cudaLaunchKernel_v7000 [1150,1250] -> "void k<int>(int)" [1200,1300] (starts before the
//      call returns: no queue time)
//   3: cuLaunchKernel [1990,2000]         -> "void j()" [2000,2200] (queue 0; no mangled name)
//   4: cudaMemcpyPeerAsync_v4000 [3000,3010] -> peer copy of 2,000,000 B [3100,3300]
// The file has no CUPTI_ACTIVITY_KIND_MEMSET table, as nsys exports without memsets.
std::string MakeCudaReport(const std::string& name) {
  const std::string pid = Tid(100, 0);
  const std::string tid = Tid(100, 1);
  return MakeReport(
      name,
      {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_MEMCPY",
       "ENUM_CUDA_MEMCPY_OPER"},
      "INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel_v7000'), (2, 'cuLaunchKernel'),"
      " (3, 'void k<int>(int)'), (4, 'k'), (5, '_Z1kIiEvi'), (6, 'void j()'), (7, 'j'),"
      " (8, 'cudaMemcpyPeerAsync_v4000');"
      "INSERT INTO ENUM_CUDA_MEMCPY_OPER VALUES (1, 'CUDA_MEMCPY_KIND_HTOD', 'Host-to-Device'),"
      " (10, 'CUDA_MEMCPY_KIND_PTOP', 'Peer-to-Peer');"
      "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId,"
      " correlationId, globalPid, demangledName, shortName, mangledName, registersPerThread,"
      " gridX, gridY, gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory,"
      " localMemoryPerThread, localMemoryTotal, gridId) VALUES"
      " (1000, 1100, 0, 1, 7, 1, " +
          pid +
          ", 3, 4, 5, 32, 1, 1, 1, 128, 1, 1, 0, 0, 0, 0, 1),"
          " (1200, 1300, 0, 1, 7, 2, " +
          pid +
          ", 3, 4, 5, 32, 1, 1, 1, 128, 1, 1, 0, 0, 0, 0, 2),"
          " (2000, 2200, 0, 1, 7, 3, " +
          pid +
          ", 6, 7, NULL, 32, 1, 1, 1, 128, 1, 1, 0, 0, 0, 0, 3);"
          "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid,"
          " correlationId, nameId, returnValue) VALUES"
          " (900, 950, 0, " +
          tid + ", 1, 1, 0), (1150, 1250, 0, " + tid +
          ", 2, 1, 0),"
          " (1990, 2000, 1, " +
          tid + ", 3, 2, 0), (3000, 3010, 0, " + tid +
          ", 4, 8, 0);"
          "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, streamId,"
          " correlationId, globalPid, bytes, copyKind) VALUES"
          " (3100, 3300, 0, 1, 7, 4, " +
          pid + ", 2000000, 10);");
}

// Runs `report` with `options` on `path`.
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

using Row = std::vector<std::string>;

TEST_CASE("cuda_gpu_kern_sum names kernels by option and breaks ties by name", "[stats][cuda]") {
  const std::string path = MakeCudaReport("cuda_kern_names");
  CHECK(Run(path, "cuda_gpu_kern_sum") ==
        TextRows{{"50.0", "200", "1", "200.0", "200.0", "200", "200", "0.0", "void j()"},
                 {"50.0", "200", "2", "100.0", "100.0", "100", "100", "0.0", "void k<int>(int)"}});
  CHECK(Run(path, "cuda_gpu_kern_sum", {"base"}) ==
        TextRows{{"50.0", "200", "1", "200.0", "200.0", "200", "200", "0.0", "j"},
                 {"50.0", "200", "2", "100.0", "100.0", "100", "100", "0.0", "k"}});
  // A kernel without a mangled name keeps its demangled one.
  CHECK(Run(path, "cuda_gpu_kern_sum", {"mangled"}) ==
        TextRows{{"50.0", "200", "2", "100.0", "100.0", "100", "100", "0.0", "_Z1kIiEvi"},
                 {"50.0", "200", "1", "200.0", "200.0", "200", "200", "0.0", "void j()"}});
  CHECK(Run(path, "cuda_gpu_kern_sum", {"mangled", "base"}) ==
        Run(path, "cuda_gpu_kern_sum", {"base"}));
}

TEST_CASE("options of one run do not leak into the next on one connection", "[stats][cuda]") {
  const std::string path = MakeCudaReport("cuda_option_reset");
  storage::Database db;
  REQUIRE(OpenReportDatabase(path, &db).ok());
  ResultTable base;
  ResultTable plain;
  REQUIRE(RunReportQuery(&db, *FindReport("cuda_gpu_kern_sum"), {"base"}, &base).ok());
  REQUIRE(RunReportQuery(&db, *FindReport("cuda_gpu_kern_sum"), {}, &plain).ok());
  CHECK(Texts(base)[1][8] == "k");
  CHECK(Texts(plain)[1][8] == "void k<int>(int)");
}

TEST_CASE("cuda_api_sum drops four-digit version suffixes only", "[stats][cuda]") {
  CHECK(Run(MakeCudaReport("cuda_api_names"), "cuda_api_sum") ==
        TextRows{{"88.2", "150", "2", "75.0", "75.0", "50", "100", "35.4", "cudaLaunchKernel"},
                 {"5.9", "10", "1", "10.0", "10.0", "10", "10", "0.0", "cuLaunchKernel"},
                 {"5.9", "10", "1", "10.0", "10.0", "10", "10", "0.0", "cudaMemcpyPeerAsync"}});
}

TEST_CASE("memory summaries read copies when the memset table is missing", "[stats][cuda]") {
  const std::string path = MakeCudaReport("cuda_mem_ops");
  CHECK(Run(path, "cuda_gpu_mem_time_sum") ==
        TextRows{{"100.0", "200", "1", "200.0", "200.0", "200", "200", "0.0",
                  "[CUDA memcpy Peer-to-Peer]"}});
  CHECK(Run(path, "cuda_gpu_mem_size_sum") ==
        TextRows{{"2.0", "1", "2.0", "2.0", "2.0", "2.0", "0.0", "[CUDA memcpy Peer-to-Peer]"}});
}

TEST_CASE("cuda_gpu_sum and cuda_api_gpu_sum combine the categories", "[stats][cuda]") {
  const std::string path = MakeCudaReport("cuda_combined");
  CHECK(Run(path, "cuda_gpu_sum") ==
        TextRows{
            {"33.3", "200", "1", "200.0", "200.0", "200", "200", "0.0", "CUDA_KERNEL", "void j()"},
            {"33.3", "200", "2", "100.0", "100.0", "100", "100", "0.0", "CUDA_KERNEL",
             "void k<int>(int)"},
            {"33.3", "200", "1", "200.0", "200.0", "200", "200", "0.0", "MEMORY_OPER",
             "[CUDA memcpy Peer-to-Peer]"}});
  const TextRows all = Run(path, "cuda_api_gpu_sum", {"base"});
  REQUIRE(all.size() == 6);
  CHECK(all[0] ==
        Row{"26.0", "200", "1", "200.0", "200.0", "200", "200", "0.0", "CUDA_KERNEL", "j"});
  CHECK(all[3] == Row{"19.5", "150", "2", "75.0", "75.0", "50", "100", "35.4", "CUDA_API",
                      "cudaLaunchKernel"});
  CHECK(all[5] == Row{"1.3", "10", "1", "10.0", "10.0", "10", "10", "0.0", "CUDA_API",
                      "cudaMemcpyPeerAsync"});
}

TEST_CASE("cuda_kern_exec_sum splits launches into API - queue and kernel time", "[stats][cuda]") {
  CHECK(Run(MakeCudaReport("cuda_kern_exec"), "cuda_kern_exec_sum") ==
        TextRows{{"100",     "1",
                  "0",       "1",
                  "1",       "210.0",
                  "210.0",   "210",
                  "210",     "0.0",
                  "10.0",    "10.0",
                  "10",      "10",
                  "0.0",     "0.0",
                  "0.0",     "0",
                  "0",       "0.0",
                  "200.0",   "200.0",
                  "200",     "200",
                  "0.0",     "cuLaunchKernel",
                  "void j()"},
                 {"100",
                  "1",
                  "0",
                  "2",
                  "1",
                  "175.0",
                  "175.0",
                  "150",
                  "200",
                  "35.4",
                  "75.0",
                  "75.0",
                  "50",
                  "100",
                  "35.4",
                  "50.0",
                  "50.0",
                  "50",
                  "50",
                  "0.0",
                  "100.0",
                  "100.0",
                  "100",
                  "100",
                  "0.0",
                  "cudaLaunchKernel",
                  "void k<int>(int)"}});
}

TEST_CASE("cuda_kern_exec_trace leaves no queue for early kernels", "[stats][cuda]") {
  // Launch 2's kernel started before its call returned: no queue. Launch 3's queue is 0 ns.
  CHECK(Run(MakeCudaReport("cuda_kern_exec_trace"), "cuda_kern_exec_trace", {"mangled"}) ==
        TextRows{{"900", "50", "950", "50", "1000", "100", "200", "100", "1", "0",
                  "cudaLaunchKernel", "   1    1    1", " 128    1    1", "_Z1kIiEvi"},
                 {"1150", "100", "", "", "1200", "100", "150", "100", "1", "0", "cudaLaunchKernel",
                  "   1    1    1", " 128    1    1", "_Z1kIiEvi"},
                 {"1990", "10", "2000", "0", "2000", "200", "210", "100", "1", "0",
                  "cuLaunchKernel", "   1    1    1", " 128    1    1", "void j()"}});
}

TEST_CASE("CUDA reports need their tables", "[stats][cuda]") {
  const std::string path = MakeReport("cuda_api_only", {"CUPTI_ACTIVITY_KIND_RUNTIME"},
                                      "INSERT INTO StringIds VALUES (1, 'cuInit');"
                                      "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end,"
                                      " eventClass, globalTid, correlationId, nameId, returnValue)"
                                      " VALUES (0, 5, 1, " +
                                          Tid(7, 7) + ", 1, 1, 0);");
  storage::Database db;
  REQUIRE(OpenReportDatabase(path, &db).ok());
  std::vector<ReportRequest> defaults;
  REQUIRE(SelectReports({}, &db, &defaults).ok());
  REQUIRE(defaults.size() == 1);
  CHECK(defaults[0].report->name == "cuda_api_sum");
  for (const std::string name :
       {"cuda_gpu_kern_sum", "cuda_gpu_mem_time_sum", "cuda_gpu_sum", "cuda_kern_exec_sum",
        "cuda_kern_exec_trace", "cuda_api_gpu_sum", "nvtx_kern_sum"}) {
    INFO(name);
    bool present = true;
    REQUIRE(HasRequiredTables(&db, *FindReport(name), &present).ok());
    CHECK_FALSE(present);
  }
}

}  // namespace
}  // namespace prof::stats::test
