// End to end with real PyTorch (issue 27): `prof profile --pytorch=...` on a CPU training loop
// (torch_training.py: conv + linear, SGD, a DataLoader with two worker processes, 4 steps) with
// Debian's python3-torch. The expected counts are torch's own: torch.autograd.profiler.profile()
// around the same loop records 106 operator events from one step's zero_grad to its step, every
// step, and the names counted below as many times.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/pytorch/torch_training_run.h"
#include "tests/support/test_support.h"

using prof::test::CommandResult;
using prof::test::HasOperatorRanges;
using prof::test::HasTorch;
using prof::test::kDebianPython;
using prof::test::MakeTempDir;
using prof::test::ProfBinary;
using prof::test::ProfileTraining;
using prof::test::QueryCount;
using prof::test::QueryRows;
using prof::test::RunCommand;

namespace {

using Rows = std::vector<std::vector<std::string>>;
using Run = prof::test::TrainingRun;
constexpr int kSteps = prof::test::kTrainingSteps;
constexpr int kOperatorsPerStep = 106;

// The push/pop ranges of one process as (start, end, tid, domain name or '', name): the name is
// the text up to its first comma (operators' texts go on with ", seq = ...").
std::string Ranges(const std::string& pid) {
  return "(SELECT e.start, e.end, e.globalTid AS tid, coalesce(d.text, '') AS domain, "
         "CASE WHEN instr(e.text, ',') > 0 THEN substr(e.text, 1, instr(e.text, ',') - 1) "
         "ELSE e.text END AS name, e.text AS text FROM NVTX_EVENTS e "
         "LEFT JOIN NVTX_EVENTS d ON d.eventType = 75 AND d.domainId = e.domainId AND "
         "d.globalTid / 16777216 = e.globalTid / 16777216 "
         "WHERE e.eventType = 59 AND e.globalTid / 16777216 % 16777216 = " +
         pid + ")";
}

int64_t Named(const Run& run, const std::string& pid, const std::string& domain,
              const std::string& name) {
  return QueryCount(run.report, "SELECT count(*) FROM " + Ranges(pid) + " WHERE domain = '" +
                                    domain + "' AND name = '" + name + "'");
}

// Ranges of `inner_where` on the main process not inside a range of `outer_where` of their thread.
int64_t Uncontained(const Run& run, const std::string& inner_where,
                    const std::string& outer_where) {
  const std::string ranges = Ranges(run.main_pid);
  return QueryCount(run.report,
                    "SELECT count(*) FROM " + ranges + " i WHERE " + inner_where +
                        " AND NOT EXISTS (SELECT 1 FROM " + ranges + " o WHERE " + outer_where +
                        " AND o.tid = i.tid AND o.start <= i.start AND o.end >= i.end)");
}

// Each of the kSteps steps (from its zero_grad's start to its step's end) has kOperatorsPerStep
// operator ranges on the main thread.
void CheckOperatorsPerStep(const Run& run) {
  const std::string ops = Ranges(run.main_pid) + " r WHERE domain = ''";
  const Rows steps = QueryRows(
      run.report,
      "WITH ops AS (SELECT * FROM " + ops +
          "), z AS (SELECT start, row_number() OVER (ORDER BY start) AS n FROM ops WHERE name = "
          "'Optimizer.zero_grad#SGD.zero_grad'), s AS (SELECT end, row_number() OVER (ORDER BY "
          "start) AS n FROM ops WHERE name = 'Optimizer.step#SGD.step') SELECT (SELECT count(*) "
          "FROM ops WHERE ops.start >= z.start AND ops.end <= s.end) FROM z JOIN s USING (n) "
          "ORDER BY n");
  REQUIRE(steps.size() == kSteps);
  for (const auto& step : steps) CHECK(step[0] == std::to_string(kOperatorsPerStep));
}

}  // namespace

TEST_CASE("autograd-nvtx records one range per operator in forward and backward",
          "[pytorch][torch]") {
  if (!HasTorch() || !HasOperatorRanges()) return;
  const Run run = ProfileTraining("autograd-nvtx");

  CheckOperatorsPerStep(run);
  // Forward, backward (autograd nodes and what they run) and the optimizer, once a step each.
  for (const char* name : {"aten::conv2d", "aten::addmm", "aten::relu", "aten::cross_entropy_loss",
                           "AddmmBackward0", "ConvolutionBackward0", "NllLossBackward0",
                           "autograd::engine::evaluate_function: AddmmBackward0",
                           "Optimizer.step#SGD.step", "Optimizer.zero_grad#SGD.zero_grad"}) {
    INFO(name);
    CHECK(Named(run, run.main_pid, "", name) == kSteps);
  }
  CHECK(Named(run, run.main_pid, "", "torch::autograd::AccumulateGrad") == 4 * kSteps);
  // Nested as they call each other: each addmm inside a linear, each mm of backward in its node.
  CHECK(Uncontained(run, "i.name = 'aten::addmm'", "o.name = 'aten::linear'") == 0);
  CHECK(Uncontained(run, "i.name = 'aten::convolution_backward'",
                    "o.name = 'ConvolutionBackward0'") == 0);
  // Operator text as emit_nvtx writes it: sequence number and op id.
  CHECK(QueryCount(run.report, "SELECT count(*) FROM " + Ranges(run.main_pid) +
                                   " WHERE name = 'aten::conv2d' AND text GLOB "
                                   "'aten::conv2d, seq = [0-9]*, op_id = [0-9]*'") == kSteps);
  // Each worker indexes its 2 batches of 8 samples (an image and a label each: 32 selects).
  for (const std::string& worker : run.workers) {
    INFO("worker " << worker);
    CHECK(Named(run, worker, "", "aten::select") == 32);
  }
  // A forked child that _exits right after a burst of 50 additions keeps them all.
  CHECK(Named(run, run.burst_pid, "", "aten::add") == 50);
}

TEST_CASE("autograd-shapes-nvtx adds the input shapes and their producers", "[pytorch][torch]") {
  if (!HasTorch() || !HasOperatorRanges()) return;
  const Run run = ProfileTraining("autograd-shapes-nvtx");
  CheckOperatorsPerStep(run);
  // conv2d(input, weight, bias, stride, padding, dilation, groups): shapes of the tensors, [] else.
  CHECK(QueryCount(
            run.report,
            "SELECT count(*) FROM " + Ranges(run.main_pid) +
                " WHERE name = 'aten::conv2d' AND text GLOB 'aten::conv2d, seq = [0-9]*, op_id "
                "= [0-9]*, sizes = [[][[]8, 1, 8, 8], [[]4, 1, 3, 3], [[]4], [[]], [[]], [[]], "
                "[[]]], input_op_ids = [[](*)]'") == kSteps);
  CHECK(QueryCount(run.report,
                   "SELECT count(*) FROM " + Ranges(run.main_pid) +
                       " WHERE name = 'aten::addmm' AND text GLOB '*, sizes = [[][[]2], "
                       "[[]8, 256], [[]256, 2], [[]], [[]]], input_op_ids = [[](*)]'") == kSteps);
}

TEST_CASE("functions-trace names modules by their path and traces the training calls",
          "[pytorch][torch]") {
  if (!HasTorch()) return;
  const Run run = ProfileTraining("functions-trace");
  const std::string& main = run.main_pid;
  for (const char* name :
       {"Net (Net)", "Net.conv (Conv2d)", "Net.fc (Linear)", "CrossEntropyLoss (CrossEntropyLoss)",
        "autograd.backward", "SGD.step", "Optimizer.zero_grad"}) {
    INFO(name);
    CHECK(Named(run, main, "PyTorch", name) == kSteps);
  }
  CHECK(Named(run, main, "PyTorch", "DataLoader.__iter__") == 1);
  CHECK(Named(run, main, "PyTorch", "DataLoader.__next__") == kSteps + 1);  // + StopIteration
  // Nothing else in the domain on the main process.
  CHECK(QueryCount(run.report, "SELECT count(*) FROM " + Ranges(main) +
                                   " WHERE domain = 'PyTorch'") == 7 * kSteps + 1 + kSteps + 1);
  CHECK(Uncontained(run, "i.name = 'Net.conv (Conv2d)'", "o.name = 'Net (Net)'") == 0);
  // Each worker fetches its two batches, under its own pid.
  for (const std::string& worker : run.workers) {
    INFO("worker " << worker);
    CHECK(Named(run, worker, "PyTorch", "DataLoader.fetch") == 2);
  }
}

TEST_CASE("with both modes every operator of a step lies inside a function range",
          "[pytorch][torch]") {
  if (!HasTorch() || !HasOperatorRanges()) return;
  const Run run = ProfileTraining("autograd-nvtx,functions-trace");
  CheckOperatorsPerStep(run);
  // prof's SGD.step encloses the record_function scope PyTorch opens around optimizer.step.
  const std::string in_steps = "i.domain = '' AND i.start >= (SELECT min(start) FROM " +
                               Ranges(run.main_pid) + " WHERE name = 'Optimizer.zero_grad')";
  CHECK(Uncontained(run, in_steps, "o.domain = 'PyTorch'") == 0);
  CHECK(Uncontained(run, "i.name = 'aten::conv2d'", "o.name = 'Net.conv (Conv2d)'") == 0);
  CHECK(Uncontained(run, "i.name = 'aten::linear'", "o.name = 'Net.fc (Linear)'") == 0);
  CHECK(Uncontained(run, "i.name = 'aten::cross_entropy_loss'",
                    "o.name = 'CrossEntropyLoss (CrossEntropyLoss)'") == 0);
  // Backward: the 7 autograd nodes of a step (and what they run) inside autograd.backward.
  const std::string backward = "(i.name GLOB '*Backward0' OR i.name GLOB 'autograd::engine*')";
  CHECK(Uncontained(run, backward, "o.name = 'autograd.backward'") == 0);
  CHECK(QueryCount(run.report, "SELECT count(*) FROM " + Ranges(run.main_pid) + " i WHERE " +
                                   backward) == (7 + 7 + 4) * kSteps);
}

TEST_CASE("a Python program that never imports torch pays nothing", "[pytorch]") {
  const std::string report = MakeTempDir("pytorch_no_torch") + "/r.sqlite";
  const std::string probe =
      "import sys; print('torch' in sys.modules, 'prof_pytorch' in sys.modules)";
  CommandResult run =
      RunCommand({ProfBinary(), "profile", "-t", "nvtx", "--pytorch=autograd-nvtx,functions-trace",
                  "-o", report, kDebianPython, "-c", probe});
  REQUIRE(run.exit_code == 0);
  CHECK(run.out == "False True\n");  // prof's hook is armed, torch never imported
  run = RunCommand({ProfBinary(), "profile", "-t", "nvtx", "--pytorch=none", "-f", "true", "-o",
                    report, kDebianPython, "-c", probe});
  REQUIRE(run.exit_code == 0);
  CHECK(run.out == "False False\n");
}

TEST_CASE("the program's own sitecustomize still runs under --pytorch", "[pytorch]") {
  const std::string dir = MakeTempDir("pytorch_sitecustomize");
  std::ofstream(dir + "/sitecustomize.py") << "print('user sitecustomize ran')\n";
  const CommandResult run = RunCommand(
      {ProfBinary(), "profile", "-t", "nvtx", "--pytorch=functions-trace", "-o", dir + "/r.sqlite",
       kDebianPython, "-c", "import sys; print('prof_pytorch' in sys.modules)"},
      "", {"PYTHONPATH=" + dir});
  REQUIRE(run.exit_code == 0);
  CHECK(run.out == "user sitecustomize ran\nTrue\n");
}
