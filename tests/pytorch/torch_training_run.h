// Profiling torch_training.py (conv + linear, SGD, a DataLoader with two worker processes,
// kTrainingSteps steps, a forked child's burst of additions) under `prof profile --pytorch`, for
// the tests of tests/pytorch. Fails the current test when prof or the program fails.
#pragma once

#include <string>
#include <vector>

namespace prof::test {

constexpr int kTrainingSteps = 4;

// Whether Debian's python3-torch imports; fails the test when it does not (CI installs it).
bool HasTorch();
// Whether libprof_torch.so was built (libtorch-dev present); warns and returns false otherwise.
bool HasOperatorRanges();

struct TrainingRun {
  std::string report;
  std::string main_pid;
  std::vector<std::string> workers;
  std::string burst_pid;
};

// `prof profile -t nvtx --pytorch=<modes>` of torch_training.py into a fresh report.
TrainingRun ProfileTraining(const std::string& modes);

}  // namespace prof::test
