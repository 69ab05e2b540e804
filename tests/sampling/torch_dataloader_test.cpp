// End to end with real PyTorch (issue 26): `prof profile -s process-tree` on a CPU training loop
// whose torch.utils.data.DataLoader runs two worker processes, with Debian's python3-torch
// (.ci/install-deps installs it). The workers' CPU time goes to the Dataset's slow_transform,
// pure Python: the report must name it, with its file, in each worker's samples.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/test_support.h"

using prof::test::CommandResult;
using prof::test::kDebianPython;
using prof::test::MakeTempDir;
using prof::test::PrintedValues;
using prof::test::ProfBinary;
using prof::test::QueryCount;
using prof::test::QueryRows;
using prof::test::RunCommand;

namespace {

using Rows = std::vector<std::vector<std::string>>;

std::string OfPid(const std::string& pid) { return "s.globalTid / 16777216 % 16777216 = " + pid; }

TEST_CASE("a PyTorch DataLoader's worker processes name the Dataset's slow transform",
          "[sampling][torch]") {
  const CommandResult torch = RunCommand({kDebianPython, "-c", "import torch"});
  if (torch.exit_code != 0) {
    FAIL("python3-torch is missing: " << kDebianPython << " -c \"import torch\" exited "
                                      << torch.exit_code << " (" << torch.err
                                      << "); CI installs Debian's python3-torch through "
                                         ".ci/install-deps (apt-get install "
                                         "--no-install-recommends python3-torch)");
  }

  const std::string report = MakeTempDir("sampling_torch_dataloader") + "/r.sqlite";
  const CommandResult run = RunCommand({ProfBinary(), "profile", "-t", "none", "-s", "process-tree",
                                        "-o", report, kDebianPython, PROF_TORCH_DATALOADER});
  INFO("prof stdout:\n" << run.out << "\nprof stderr:\n" << run.err);
  REQUIRE(run.exit_code == 0);
  const std::vector<std::string> mains = PrintedValues(run.out, "main");
  const std::vector<std::string> workers = PrintedValues(run.out, "worker");
  REQUIRE(mains.size() == 1);
  REQUIRE(workers.size() == 2);
  REQUIRE(workers[0] != workers[1]);

  // The processes sampled are the program and its two workers.
  const Rows pids = QueryRows(
      report, "SELECT DISTINCT globalTid / 16777216 % 16777216 FROM COMPOSITE_EVENTS s ORDER BY 1");
  CHECK(pids.size() == 3);
  const std::set<std::string> expected = {mains[0], workers[0], workers[1]};
  for (const auto& row : pids) CHECK(expected.count(row[0]) == 1);

  // The workers are named by their role; the program keeps its interpreter's name.
  CHECK(QueryCount(report, "SELECT count(*) FROM PROCESSES WHERE pid = " + mains[0] +
                               " AND name LIKE 'python3%'") == 1);
  for (const std::string& worker : workers) {
    CHECK(QueryCount(report, "SELECT count(*) FROM PROCESSES WHERE pid = " + worker +
                                 " AND name = 'pt_data_worker'") == 1);
  }

  std::vector<int64_t> transform_samples;
  for (const std::string& worker : workers) {
    INFO("worker " << worker);
    // The function a worker's samples spend themselves in most is the script's slow_transform, a
    // Python frame (unwindMethod 1001) with the script as its module.
    const Rows top = QueryRows(
        report,
        "SELECT n.value, m.value, f.unwindMethod, count(*) AS c FROM SAMPLING_CALLCHAINS f "
        "JOIN COMPOSITE_EVENTS s ON s.id = f.id JOIN StringIds n ON n.id = f.symbol "
        "JOIN StringIds m ON m.id = f.module WHERE f.stackDepth = 0 AND " +
            OfPid(worker) + " GROUP BY 1, 2, 3 ORDER BY c DESC LIMIT 1");
    REQUIRE(top.size() == 1);
    CHECK(top[0][0] == "slow_transform");
    CHECK(top[0][1] == PROF_TORCH_DATALOADER);
    CHECK(top[0][2] == "1001");
    // Each worker computes 16 batches of 8 items, about 10 ms of CPU time an item: at 1000
    // samples per CPU-second well over 300 samples (about 1,150 on the 2-core build VM), and
    // most of the worker's samples (94 %; the rest: collating, sharing tensors, its queue's
    // feeder thread).
    const int64_t own = std::atoll(top[0][3].c_str());
    const int64_t all =
        QueryCount(report, "SELECT count(*) FROM COMPOSITE_EVENTS s WHERE " + OfPid(worker));
    INFO("slow_transform " << own << " of " << all << " samples");
    CHECK(own >= 300);
    CHECK(own * 100 >= all * 80);
    transform_samples.push_back(own);
    // Its caller is the Dataset's __getitem__, called from torch's worker loop.
    CHECK(QueryCount(
              report,
              "SELECT count(*) FROM SAMPLING_CALLCHAINS f JOIN COMPOSITE_EVENTS s ON s.id = f.id "
              "JOIN StringIds n ON n.id = f.symbol JOIN SAMPLING_CALLCHAINS c ON c.id = f.id "
              "AND c.stackDepth = 1 JOIN StringIds cn ON cn.id = c.symbol WHERE f.stackDepth = 0 "
              "AND n.value = 'slow_transform' AND cn.value = 'SlowDataset.__getitem__' AND " +
                  OfPid(worker)) *
              100 >=
          own * 95);
    CHECK(QueryCount(
              report,
              "SELECT count(DISTINCT f.id) FROM SAMPLING_CALLCHAINS f JOIN COMPOSITE_EVENTS s "
              "ON s.id = f.id JOIN StringIds n ON n.id = f.symbol JOIN StringIds m "
              "ON m.id = f.module WHERE n.value = '_worker_loop' AND f.unwindMethod = 1001 AND "
              "m.value LIKE '%/torch/utils/data/_utils/worker.py' AND " +
                  OfPid(worker)) >= own);
  }
  // The DataLoader hands the workers batches in turn: the same work each.
  const double first_share = static_cast<double>(transform_samples[0]) /
                             static_cast<double>(transform_samples[0] + transform_samples[1]);
  INFO("first worker's share of slow_transform " << first_share);
  CHECK(first_share >= 0.35);
  CHECK(first_share <= 0.65);
  // slow_transform's lines are its own (lines 15-19 of the script); the main process never runs it.
  CHECK(QueryCount(report,
                   "SELECT count(*) FROM SAMPLING_CALLCHAINS f JOIN StringIds n ON n.id = f.symbol "
                   "WHERE n.value = 'slow_transform' AND f.originalIP NOT BETWEEN 15 AND 19") == 0);
  CHECK(QueryCount(
            report,
            "SELECT count(*) FROM SAMPLING_CALLCHAINS f JOIN COMPOSITE_EVENTS s ON s.id = f.id "
            "JOIN StringIds n ON n.id = f.symbol WHERE n.value = 'slow_transform' AND " +
                OfPid(mains[0])) == 0);

  // The main process (importing torch, training, unpickling the workers' batches) has samples,
  // a good part of them in torch's code, native (libtorch*) or Python (the torch package): 56 %
  // on the build VM, the rest mostly the dynamic loader and importlib loading torch.
  const int64_t main_samples =
      QueryCount(report, "SELECT count(*) FROM COMPOSITE_EVENTS s WHERE " + OfPid(mains[0]));
  CHECK(main_samples >= 100);
  const int64_t in_torch =
      QueryCount(report,
                 "SELECT count(DISTINCT f.id) FROM SAMPLING_CALLCHAINS f JOIN COMPOSITE_EVENTS s "
                 "ON s.id = f.id JOIN StringIds m ON m.id = f.module WHERE (m.value LIKE "
                 "'%/libtorch%' OR m.value LIKE '%/torch/%') AND " +
                     OfPid(mains[0]));
  INFO(in_torch << " of the main process's " << main_samples << " samples in torch's code");
  CHECK(in_torch * 4 >= main_samples);

  // prof stats' CPU sample summary lists slow_transform first in each worker (one row per
  // process and function, most self samples first).
  const CommandResult stats =
      RunCommand({ProfBinary(), "stats", "-q", "-r", "cpu_sample_sum", "--format", "csv", report});
  INFO("prof stats:\n" << stats.out << stats.err);
  REQUIRE(stats.exit_code == 0);
  REQUIRE(stats.out.find("Self (%),Self Samples,Total (%),Total Samples,PID,Process,Function,"
                         "Module\n") != std::string::npos);
  for (const std::string& worker : workers) {
    INFO("worker " << worker);
    std::vector<std::string> first;  // the worker's first row's fields
    std::istringstream lines(stats.out);
    for (std::string line; first.empty() && std::getline(lines, line);) {
      std::vector<std::string> fields;
      std::istringstream cells(line);
      for (std::string cell; std::getline(cells, cell, ',');) fields.push_back(cell);
      if (fields.size() == 8 && fields[4] == worker) first = fields;
    }
    REQUIRE(first.size() == 8);
    CHECK(first[6] == "slow_transform");
    CHECK(first[7] == PROF_TORCH_DATALOADER);
  }
}

}  // namespace
