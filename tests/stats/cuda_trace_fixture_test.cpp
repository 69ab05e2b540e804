// cuda_api_trace and cuda_gpu_trace on the hand-made report of cuda_trace_fixture.h, answers
// worked out by hand.
#include "tests/stats/cuda_trace_fixture.h"

#include <catch2/catch.hpp>

#include "stats/report_database.h"
#include "stats/report_query.h"
#include "tests/stats/stats_test_util.h"

namespace prof::stats::test {
namespace {

using Row = std::vector<std::string>;

TextRows RunWithOptions(const std::string& path, const std::string& report,
                        const std::vector<std::string>& options) {
  storage::Database db;
  REQUIRE(OpenReportDatabase(path, &db).ok());
  const ReportSpec* spec = FindReport(report);
  REQUIRE(spec != nullptr);
  ResultTable table;
  const Status status = RunReportQuery(&db, *spec, options, &table);
  INFO(status.message());
  REQUIRE(status.ok());
  return Texts(table);
}

TEST_CASE("cuda_api_trace lists every call in start order", "[stats][cuda]") {
  const ResultTable table = RunReport(MakeCudaTraceReport("api_trace"), "cuda_api_trace");
  CHECK(table.columns == Row{"Start (ns)", "Duration (ns)", "Name", "Result", "CorrID", "Pid",
                             "Tid", "T-Pri", "Thread Name"});
  // A six-character version suffix is cut, a longer one kept (as nsys); T2 and P2 have no name.
  CHECK(Texts(table) ==
        TextRows{
            {"100", "10", "cudaLaunchKernel", "0", "5", "100", "2", "", ""},
            {"110", "10", "cudaLaunchKernel", "0", "1", "100", "1", "20", "main"},
            {"120", "10", "cudaLaunchKernel", "0", "1", "200", "1", "", ""},
            {"160", "10", "cudaLaunchKernel", "0", "2", "100", "1", "20", "main"},
            {"300", "150", "cudaMemcpyAsync", "0", "3", "100", "1", "20", "main"},
            {"700", "10", "cudaMemsetAsync", "0", "4", "100", "1", "20", "main"},
            {"800", "10", "cudaStreamSynchronize", "0", "6", "100", "1", "20", "main"},
            {"2010", "10", "cudaGetDeviceProperties_v12000", "1", "7", "100", "1", "20", "main"},
        });
}

TEST_CASE("cuda_gpu_trace lists kernels memcpys and memsets in start order", "[stats][cuda]") {
  const ResultTable table = RunReport(MakeCudaTraceReport("gpu_trace"), "cuda_gpu_trace");
  CHECK(table.columns == Row{"Start (ns)",   "Duration (ns)",
                             "CorrId",       "GrdX",
                             "GrdY",         "GrdZ",
                             "BlkX",         "BlkY",
                             "BlkZ",         "Reg/Trd",
                             "StcSMem (MB)", "DymSMem (MB)",
                             "Bytes (MB)",   "Throughput (MB/s)",
                             "SrcMemKd",     "DstMemKd",
                             "Device",       "Ctx",
                             "GreenCtx",     "Strm",
                             "Name"});
  const std::string gpu = "Test GPU (0)";
  // Throughput is bytes * (10^9 / duration, whole) in MB/s, empty for the zero-length copy.
  CHECK(Texts(table) ==
        TextRows{
            {"1000",  "100", "1", "4", "2", "1", "128", "1", "1", "32",         "0.001",
             "2.500", "",    "",  "",  "",  gpu, "1",   "3", "7", "kern_a(int)"},
            {"1200", "50", "2",  "1",     "1",     "1", "64",
             "1",    "1",  "16", "0.000", "0.000", "",  "",
             "",     "",   gpu,  "1",     "",      "7", "kern_b<float>(float *)"},
            {"1300",   "100",    "3", "",  "", "",      "",
             "",       "",       "",  "",  "", "4.000", "40000000.000",
             "Pinned", "Device", gpu, "1", "", "7",     "[CUDA memcpy Host-to-Device]"},
            {"1500",   "10", "4", "",  "", "",      "",
             "",       "",   "",  "",  "", "0.001", "100000.000",
             "Device", "",   gpu, "1", "", "7",     "[CUDA memset]"},
            {"2000", "100", "5",  "1",     "1",     "1", "64",
             "1",    "1",   "16", "0.000", "0.000", "",  "",
             "",     "",    gpu,  "1",     "",      "8", "kern_b<float>(float *)"},
            {"2500",   "0",        "7", "",  "", "",      "",
             "",       "",         "",  "",  "", "0.000", "",
             "Device", "Pageable", gpu, "1", "", "7",     "[CUDA memcpy Device-to-Host]"},
            {"3000",  "10", "1", "1", "1", "1", "32", "1", "1", "32",         "0.000",
             "0.000", "",   "",  "",  "",  gpu, "1",  "",  "9", "kern_a(int)"},
        });
}

TEST_CASE("cuda_gpu_trace kernel names follow the base and mangled options", "[stats][cuda]") {
  const std::string path = MakeCudaTraceReport("gpu_trace_names");
  const auto names = [&](const std::vector<std::string>& options) {
    Row column;
    for (const Row& row : RunWithOptions(path, "cuda_gpu_trace", options)) {
      column.push_back(row[20]);
    }
    return column;
  };
  const std::string h2d = "[CUDA memcpy Host-to-Device]";
  const std::string d2h = "[CUDA memcpy Device-to-Host]";
  CHECK(names({"base"}) == Row{"kern_a", "kern_b", h2d, "[CUDA memset]", "kern_b", d2h, "kern_a"});
  // Without a mangled name (K2, K3) the demangled one stands in.
  CHECK(names({"mangled"}) == Row{"_Z6kern_ai", "kern_b<float>(float *)", h2d, "[CUDA memset]",
                                  "kern_b<float>(float *)", d2h, "_Z6kern_ai"});
}

TEST_CASE("the cuda trace reports need the CUDA API table", "[stats][cuda]") {
  const std::string path = MakeReport("no_cuda", {"NVTX_EVENTS"}, "SELECT 1;");
  storage::Database db;
  REQUIRE(OpenReportDatabase(path, &db).ok());
  for (const char* name :
       {"cuda_api_trace", "cuda_gpu_trace", "nvtx_gpu_proj_sum", "nvtx_gpu_proj_trace"}) {
    INFO(name);
    bool present = true;
    REQUIRE(HasRequiredTables(&db, *FindReport(name), &present).ok());
    CHECK_FALSE(present);
  }
}

}  // namespace
}  // namespace prof::stats::test
