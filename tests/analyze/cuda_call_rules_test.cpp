// cuda_memcpy_async, cuda_memcpy_sync, cuda_memset_sync and cuda_api_sync on one hand-made report,
// with rows=, start=, end= and nvtx= (answers worked out by hand below).
#include <catch2/catch.hpp>

#include "tests/analyze/analyze_test_util.h"

namespace prof::analyze::test {
namespace {

using Row = std::vector<std::string>;

// All times in ns; T1 = pid 100 tid 1, T2 = pid 100 tid 2, P2 = pid 200 tid 1.
// NVTX: T1 push/pop :step [0,10000] and [20000,30000]; T1 start/end :phase [15000,40000];
//   T2 push/pop Lib:load [0,5000] (domain 5 of pid 100 is named "Lib").
// Calls (correlation id: thread [start,end] name -> GPU operation [start,end]):
//   1: T1 [100,150] cudaMemcpyAsync -> copy Pageable->Device 4 MB [1000,1300]
//   2: T1 [200,250] cudaMemcpyAsync -> copy Pinned->Device 4 MB [1400,1500]
//   3: T1 [20100,20150] cudaMemcpyAsync -> copy Device->Pageable 2 MB [21000,21500]
//   4: T1 [22000,22600] cudaMemcpy -> copy HtoD Pageable->Device 1 MB [22100,22500]
//   5: T1 [23000,23100] cudaMemcpy -> copy HtoD Pageable->Device 65536 B [23010,23050]
//   6: T2 [3000,3100] cudaMemcpy -> copy DtoH Device->Pageable 8 B [3010,3030]
//   7: T1 [24000,24200] cudaMemset -> set Pinned 1000 B [24010,24110]
//   8: T1 [25000,25100] cudaMemset -> set Device [25010,25030]
//   9: T1 [26000,26100] cudaMemsetAsync -> set Managed [26010,26060]
//  10: T1 [27000,27300] cudaMemset -> set Managed 2000 B [27010,27210]
//  11: T1 [5000,5800] cudaStreamSynchronize; 12: T2 [5000,5900] cudaStreamSynchronize;
//  13: T1 [28000,28700] cudaDeviceSynchronize
//   1: P2 [100,150] cudaLaunchKernel -> (pid 200) copy Pageable->Device [2000,2100]: correlation
//      ids are per process, so this copy has no async copy call.
const char* const kRows =
    "INSERT INTO StringIds (id, value) VALUES (1, 'cudaMemcpyAsync_v3020'),"
    " (2, 'cudaMemcpy_v3020'), (3, 'cudaMemset_v3020'), (4, 'cudaMemsetAsync_v3020'),"
    " (5, 'cudaStreamSynchronize_v3020'), (6, 'cudaDeviceSynchronize_v3020'),"
    " (7, 'cudaLaunchKernel_v7000');"
    "INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId) VALUES"
    " (0, 10000, 59, 'step', $T1, 0), (20000, 30000, 59, 'step', $T1, 0),"
    " (15000, 40000, 60, 'phase', $T1, 0), (0, 0, 75, 'Lib', $T2, 5),"
    " (0, 5000, 59, 'load', $T2, 5);"
    "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME"
    " (start, end, eventClass, globalTid, correlationId, nameId, returnValue) VALUES"
    " (100, 150, 1, $T1, 1, 1, 0), (200, 250, 1, $T1, 2, 1, 0), (20100, 20150, 1, $T1, 3, 1, 0),"
    " (22000, 22600, 1, $T1, 4, 2, 0), (23000, 23100, 1, $T1, 5, 2, 0),"
    " (3000, 3100, 1, $T2, 6, 2, 0), (24000, 24200, 1, $T1, 7, 3, 0),"
    " (25000, 25100, 1, $T1, 8, 3, 0), (26000, 26100, 1, $T1, 9, 4, 0),"
    " (27000, 27300, 1, $T1, 10, 3, 0), (5000, 5800, 1, $T1, 11, 5, 0),"
    " (5000, 5900, 1, $T2, 12, 5, 0), (28000, 28700, 1, $T1, 13, 6, 0),"
    " (100, 150, 1, $P2, 1, 7, 0);"
    "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, greenContextId,"
    " streamId, correlationId, globalPid, bytes, copyKind, srcKind, dstKind) VALUES"
    " (1000, 1300, 0, 1, 0, 7, 1, $G1, 4000000, 1, 0, 2),"
    " (1400, 1500, 0, 1, 0, 7, 2, $G1, 4000000, 1, 1, 2),"
    " (21000, 21500, 0, 1, 0, 7, 3, $G1, 2000000, 2, 2, 0),"
    " (22100, 22500, 0, 1, 0, 7, 4, $G1, 1000000, 1, 0, 2),"
    " (23010, 23050, 0, 1, 0, 7, 5, $G1, 65536, 1, 0, 2),"
    " (3010, 3030, 0, 1, 3, 8, 6, $G1, 8, 2, 2, 0),"
    " (2000, 2100, 1, 2, 0, 9, 1, $G2, 4000000, 1, 0, 2);"
    "INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET (start, end, deviceId, contextId, greenContextId,"
    " streamId, correlationId, globalPid, value, bytes, memKind) VALUES"
    " (24010, 24110, 0, 1, 0, 7, 7, $G1, 0, 1000, 1), (25010, 25030, 0, 1, 0, 7, 8, $G1, 0, 10, 2),"
    " (26010, 26060, 0, 1, 0, 7, 9, $G1, 0, 10, 4),"
    " (27010, 27210, 0, 1, 0, 7, 10, $G1, 0, 2000, 4);";

std::string CallReport(const std::string& name) {
  return stats::test::MakeReport(
      name,
      {"NVTX_EVENTS", "CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_MEMCPY",
       "CUPTI_ACTIVITY_KIND_MEMSET", "ENUM_CUDA_MEM_KIND"},
      WithIds(kRows) + MemoryKindRows());
}

const Row kCopy3 = {"500",
                    "21000",
                    "Device",
                    "Pageable",
                    "2.000",
                    "100",
                    "0",
                    "1",
                    "",
                    "7",
                    "cudaMemcpyAsync_v3020"};
const Row kCopy1 = {"300",
                    "1000",
                    "Pageable",
                    "Device",
                    "4.000",
                    "100",
                    "0",
                    "1",
                    "",
                    "7",
                    "cudaMemcpyAsync_v3020"};

TEST_CASE("cuda_memcpy_async lists async copies of pageable memory longest first",
          "[analyze][rules]") {
  const std::string report = CallReport("memcpy_async");
  const RuleOutput all = RunRuleOn(report, "cuda_memcpy_async");
  CHECK(all.columns == Row{"Duration (ns)", "Start (ns)", "Src Kind", "Dst Kind", "Bytes (MB)",
                           "PID", "Device ID", "Context ID", "Green Context ID", "Stream ID",
                           "API Name"});
  CHECK(all.rows == TextRows{kCopy3, kCopy1});
  CHECK(RunRuleOn(report, "cuda_memcpy_async:rows=1").rows == TextRows{kCopy3});
  CHECK(RunRuleOn(report, "cuda_memcpy_async:rows=-1").rows == TextRows{kCopy3, kCopy1});
}

TEST_CASE("start= and end= keep the rows that overlap the window", "[analyze][rules]") {
  const std::string report = CallReport("memcpy_async_window");
  CHECK(RunRuleOn(report, "cuda_memcpy_async:start=900:end=1600").rows == TextRows{kCopy1});
  CHECK(RunRuleOn(report, "cuda_memcpy_async:start=1299:end=1300").rows == TextRows{kCopy1});
  CHECK(RunRuleOn(report, "cuda_memcpy_async:start=21400").rows == TextRows{kCopy3});
  CHECK(RunRuleOn(report, "cuda_memcpy_async:end=999").rows.empty());
}

TEST_CASE("nvtx= takes the window of the first range of that name", "[analyze][rules]") {
  const std::string report = CallReport("memcpy_async_nvtx");
  CHECK(RunRuleOn(report, "cuda_memcpy_async:nvtx=step").rows == TextRows{kCopy1});
  // An explicit end= overrides the range's end.
  CHECK(RunRuleOn(report, "cuda_memcpy_async:nvtx=step:end=30000").rows ==
        TextRows{kCopy3, kCopy1});
  // A range of a named domain is spelled <range>@<domain>.
  CHECK(RunRuleOn(report, "cuda_memcpy_async:nvtx=load@Lib").rows == TextRows{kCopy1});
  const RuleOutput missing = RunRuleOn(report, "cuda_memcpy_async:nvtx=load");
  CHECK(missing.rows.empty());
  CHECK(missing.skip_note == "NVTX range 'load' could not be found.");
}

TEST_CASE("cuda_memcpy_sync skips host-to-device copies of 64 KiB or less", "[analyze][rules]") {
  const std::string report = CallReport("memcpy_sync");
  CHECK(RunRuleOn(report, "cuda_memcpy_sync").rows ==
        TextRows{{"400", "22100", "Pageable", "Device", "1.000", "100", "0", "1", "", "7",
                  "cudaMemcpy_v3020"},
                 {"20", "3010", "Device", "Pageable", "0.000", "100", "0", "1", "3", "8",
                  "cudaMemcpy_v3020"}});
}

TEST_CASE("cuda_memset_sync lists synchronous sets of pinned or managed memory",
          "[analyze][rules]") {
  const std::string report = CallReport("memset_sync");
  const RuleOutput output = RunRuleOn(report, "cuda_memset_sync");
  CHECK(output.columns == Row{"Duration (ns)", "Start (ns)", "Memory Kind", "Bytes (MB)", "PID",
                              "Device ID", "Context ID", "Green Context ID", "Stream ID",
                              "API Name"});
  CHECK(
      output.rows ==
      TextRows{{"200", "27010", "Managed", "0.002", "100", "0", "1", "", "7", "cudaMemset_v3020"},
               {"100", "24010", "Pinned", "0.001", "100", "0", "1", "", "7", "cudaMemset_v3020"}});
}

TEST_CASE("cuda_api_sync lists synchronizing calls and nvtx= keeps the range's thread",
          "[analyze][rules]") {
  const std::string report = CallReport("api_sync");
  const Row t2_stream = {"900", "5000", "100", "2", "cudaStreamSynchronize_v3020"};
  const Row t1_stream = {"800", "5000", "100", "1", "cudaStreamSynchronize_v3020"};
  const Row t1_device = {"700", "28000", "100", "1", "cudaDeviceSynchronize_v3020"};
  CHECK(RunRuleOn(report, "cuda_api_sync").rows == TextRows{t2_stream, t1_stream, t1_device});
  // :step is a push/pop range of T1: T2's call at the same time is left out.
  CHECK(RunRuleOn(report, "cuda_api_sync:nvtx=step").rows == TextRows{t1_stream});
  // :phase is a start/end range: every thread of its process counts.
  CHECK(RunRuleOn(report, "cuda_api_sync:nvtx=phase").rows == TextRows{t1_device});
  CHECK(RunRuleOn(report, "cuda_api_sync:start=5000:end=5001").rows ==
        TextRows{t2_stream, t1_stream});
}

TEST_CASE("a rule whose table the report lacks is skipped with nsys's note", "[analyze][rules]") {
  const std::string report = stats::test::MakeReport(
      "no_memset",
      {"CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_MEMCPY", "ENUM_CUDA_MEM_KIND"},
      MemoryKindRows());
  const RuleOutput output = RunRuleOn(report, "cuda_memset_sync");
  CHECK(output.rows.empty());
  CHECK(output.skip_note == report +
                                " could not be analyzed because it does not contain CUDA memsets."
                                " Does the application set memory?");
  CHECK(RunRuleOn(report, "cuda_memcpy_async").skip_note == std::nullopt);
}

}  // namespace
}  // namespace prof::analyze::test
