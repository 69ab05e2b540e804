// End-to-end: a process started with a rank in its environment (torchrun's RANK, mpirun's
// OMPI_COMM_WORLD_RANK, srun's SLURM_PROCID, ...) gets one MPI_RANKS row, keyed by its main thread.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "storage/global_id.h"
#include "tests/support/test_support.h"

namespace prof::test {
namespace {

using Rows = std::vector<std::vector<std::string>>;

// Profiles the NVTX test program with `environment` (-e NAME=value each) and returns the report's
// MPI_RANKS rows, or no rows when the table is absent; *pid is the program's pid.
Rows RanksOf(const std::string& test_name, const std::vector<std::string>& environment,
             uint32_t* pid) {
  const std::string report = MakeTempDir(test_name) + "/r.sqlite";
  std::vector<std::string> argv = {ProfBinary(), "profile", "--trace=nvtx", "-o", report};
  for (const std::string& variable : environment) {
    argv.push_back("-e");
    argv.push_back(variable);
  }
  argv.push_back(TestProgram("nvtx_library_program"));
  const CommandResult result = RunCommand(argv);
  INFO("prof stderr: " << result.err);
  REQUIRE(result.exit_code == 0);
  const size_t at = result.out.find("tid main ");
  REQUIRE(at != std::string::npos);
  *pid = static_cast<uint32_t>(std::stoul(result.out.substr(at + 9)));
  if (QueryRows(report, "SELECT count(*) FROM sqlite_master WHERE name = 'MPI_RANKS'")[0][0] ==
      "0") {
    return {};
  }
  return QueryRows(report, "SELECT globalTid, rank FROM MPI_RANKS");
}

TEST_CASE("torchrun's RANK becomes the process's MPI_RANKS row", "[cli][rank]") {
  uint32_t pid = 0;
  const Rows rows = RanksOf("rank_torchrun", {"RANK=3", "SLURM_PROCID=7"}, &pid);
  CHECK(rows == Rows{{std::to_string(storage::GlobalTid(pid, pid)), "3"}});
}

TEST_CASE("without RANK the launchers' own variables count, malformed ones do not", "[cli][rank]") {
  uint32_t pid = 0;
  const Rows rows =
      RanksOf("rank_slurm", {"RANK=", "OMPI_COMM_WORLD_RANK=x1", "SLURM_PROCID=5"}, &pid);
  CHECK(rows == Rows{{std::to_string(storage::GlobalTid(pid, pid)), "5"}});
}

TEST_CASE("a process without a rank has no MPI_RANKS table", "[cli][rank]") {
  uint32_t pid = 0;
  CHECK(RanksOf("rank_none", {}, &pid).empty());
}

}  // namespace
}  // namespace prof::test
