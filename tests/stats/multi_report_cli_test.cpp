// `prof stats` over several reports at once (the ranks of a multi-GPU job): one table per report
// with File and Rank columns and its summary across ranks, SKIPPED notes per file, one output file
// per table with -o.
#include <catch2/catch.hpp>

#include "storage/global_id.h"
#include "tests/stats/stats_test_util.h"
#include "tests/support/test_support.h"

namespace prof::stats::test {
namespace {

using prof::test::CommandResult;
using prof::test::ProfBinary;
using prof::test::RunCommand;

CommandResult Stats(std::vector<std::string> args) {
  args.insert(args.begin(), {ProfBinary(), "stats"});
  return RunCommand(args);
}

std::string Kernel(uint32_t pid, int64_t start, int64_t end) {
  return "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId,"
         " correlationId, globalPid, demangledName, shortName, registersPerThread, gridX, gridY,"
         " gridZ, blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory,"
         " localMemoryPerThread, localMemoryTotal, gridId) VALUES (" +
         std::to_string(start) + ", " + std::to_string(end) + ", 0, 1, 7, 1, " +
         std::to_string(storage::GlobalPid(pid)) +
         ", 1, 1, 32, 1, 1, 1, 128, 1, 1, 0, 0, 0, 0, 1);";
}

// A report of one rank's process: kernels `gemm` of the given durations; MPI_RANKS when rank >= 0.
std::string RankReport(const std::string& name, uint32_t pid, int rank,
                       const std::vector<int64_t>& durations) {
  std::string rows = "INSERT INTO StringIds VALUES (1, 'gemm');";
  int64_t start = 100;
  for (int64_t duration : durations) {
    rows += Kernel(pid, start, start + duration);
    start += 1000;
  }
  if (rank >= 0) {
    rows +=
        "CREATE TABLE MPI_RANKS (globalTid INTEGER NOT NULL, rank INTEGER NOT NULL);"
        "INSERT INTO MPI_RANKS VALUES (" +
        std::to_string(storage::GlobalTid(pid, pid)) + ", " + std::to_string(rank) + ");";
  }
  return MakeReport(name, {"CUPTI_ACTIVITY_KIND_KERNEL"}, rows);
}

const char* const kKernelHeader =
    "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n";
// The summary across the files that follows the rows (stats/rank_summary.h).
const char* const kAcrossRanksHeader =
    "\nName,Ranks,Min Total Time (ns),Med Total Time (ns),Max Total Time (ns),Max Rank,"
    "Outlier Ranks\n";

TEST_CASE("prof stats on several reports leads each row with its file and rank",
          "[stats][cli][multi]") {
  const std::string rank0 = RankReport("rank0", 100, 0, {10, 30});
  const std::string rank1 = RankReport("rank1", 200, 1, {40});
  const CommandResult result = Stats({"-r", "cuda_gpu_kern_sum", "-f", "csv", rank0, rank1});
  CHECK(result.exit_code == 0);
  CHECK(result.err.empty());
  CHECK(result.out == std::string("File,Rank,") + kKernelHeader +
                          "rank0.sqlite,0,100.0,40,2,20.0,20.0,10,30,14.1,gemm\n"
                          "rank1.sqlite,1,100.0,40,1,40.0,40.0,40,40,0.0,gemm\n" +
                          kAcrossRanksHeader + "gemm,2,40,40.0,40,0,\n");
}

TEST_CASE("prof stats on reports without ranks has no Rank column", "[stats][cli][multi]") {
  const std::string first = RankReport("norank_a", 100, -1, {10});
  const std::string second = RankReport("norank_b", 200, -1, {20});
  const CommandResult result = Stats({"-r", "cuda_gpu_kern_sum", "-f", "csv", first, second});
  CHECK(result.exit_code == 0);
  CHECK(result.out == std::string("File,") + kKernelHeader +
                          "norank_a.sqlite,100.0,10,1,10.0,10.0,10,10,0.0,gemm\n"
                          "norank_b.sqlite,100.0,20,1,20.0,20.0,20,20,0.0,gemm\n" +
                          kAcrossRanksHeader + "gemm,2,10,15.0,20,norank_b.sqlite,\n");
}

TEST_CASE("prof stats notes each report file without the data", "[stats][cli][multi]") {
  const std::string rank0 = RankReport("skip_rank0", 100, 0, {10});
  const std::string empty = RankReport("skip_empty", 200, -1, {});
  const CommandResult result = Stats({"-r", "cuda_gpu_kern_sum", "-f", "csv", empty, rank0});
  CHECK(result.exit_code == 0);
  CHECK(result.err == "prof: SKIPPED: " + empty + " does not contain CUDA kernel data.\n");
  CHECK(result.out == std::string("File,Rank,") + kKernelHeader +
                          "skip_rank0.sqlite,0,100.0,10,1,10.0,10.0,10,10,0.0,gemm\n" +
                          kAcrossRanksHeader + "gemm,1,10,10.0,10,0,\n");
}

TEST_CASE("prof stats -o writes one combined file per report", "[stats][cli][multi]") {
  const std::string rank0 = RankReport("files_rank0", 100, 0, {10});
  const std::string rank1 = RankReport("files_rank1", 200, 1, {20});
  const std::string prefix = prof::test::MakeTempDir("stats_multi_files") + "/out";
  const CommandResult result =
      Stats({"-r", "cuda_gpu_kern_sum:base", "-o", prefix, "-q", rank0, rank1});
  CHECK(result.exit_code == 0);
  CHECK(result.err.empty());
  CHECK(ReadFile(prefix + "_cuda_gpu_kern_sum_base.csv") ==
        std::string("File,Rank,") + kKernelHeader +
            "files_rank0.sqlite,0,100.0,10,1,10.0,10.0,10,10,0.0,gemm\n"
            "files_rank1.sqlite,1,100.0,20,1,20.0,20.0,20,20,0.0,gemm\n");
  CHECK(ReadFile(prefix + "_cuda_gpu_kern_sum_base_ranks.csv") ==
        std::string(kAcrossRanksHeader).substr(1) + "gemm,2,10,15.0,20,1,\n");
}

TEST_CASE("prof stats fails on any bad file before printing", "[stats][cli][multi]") {
  const std::string rank0 = RankReport("bad_rank0", 100, 0, {10});
  const CommandResult result = Stats({"-r", "cuda_gpu_kern_sum", rank0, "/nonexistent.sqlite"});
  CHECK(result.exit_code == 1);
  CHECK(result.out.empty());
  CHECK(result.err == "prof: error: report file not found: /nonexistent.sqlite\n");
}

}  // namespace
}  // namespace prof::stats::test
