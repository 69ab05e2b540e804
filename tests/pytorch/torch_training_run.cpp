#include "tests/pytorch/torch_training_run.h"

#include <unistd.h>

#include <catch2/catch.hpp>

#include "tests/support/test_support.h"

namespace prof::test {

bool HasTorch() {
  const CommandResult torch = RunCommand({kDebianPython, "-c", "import torch"});
  if (torch.exit_code != 0) {
    FAIL("python3-torch is missing (" << torch.err << "); CI installs it through .ci/install-deps");
  }
  return true;
}

bool HasOperatorRanges() {
  const std::string prof = ProfBinary();
  const std::string library = prof.substr(0, prof.rfind('/')) + "/../lib/libprof_torch.so";
  if (access(library.c_str(), R_OK) == 0) return true;
  WARN("skipped: " << library << " was not built (no libtorch-dev when prof was configured)");
  return false;
}

TrainingRun ProfileTraining(const std::string& modes) {
  TrainingRun run;
  run.report = MakeTempDir("pytorch_" + modes) + "/r.sqlite";
  const CommandResult result =
      RunCommand({ProfBinary(), "profile", "-t", "nvtx", "--pytorch=" + modes, "-o", run.report,
                  kDebianPython, PROF_TORCH_TRAINING});
  INFO("prof stdout:\n" << result.out << "\nprof stderr:\n" << result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(result.err.find("prof: --pytorch") == std::string::npos);
  const std::vector<std::string> mains = PrintedValues(result.out, "main");
  const std::vector<std::string> bursts = PrintedValues(result.out, "burst");
  REQUIRE(mains.size() == 1);
  REQUIRE(bursts.size() == 1);
  run.main_pid = mains[0];
  run.burst_pid = bursts[0];
  run.workers = PrintedValues(result.out, "worker");
  REQUIRE(run.workers.size() == 2);
  return run;
}

}  // namespace prof::test
