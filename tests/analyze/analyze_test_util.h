// Helpers for the analyze tests: run one rule on a hand-made report and read its cells.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tests/stats/stats_test_util.h"

namespace prof::analyze::test {

using stats::test::TextRows;

// One rule's outcome as text: the column names, every cell as csv writes it, or the skip note.
struct RuleOutput {
  std::vector<std::string> columns;
  TextRows rows;
  std::optional<std::string> skip_note;
  std::string window_note;
};

// Applies `rule` ("<name>[:<option>=<value>...]") to the report at `path`; fails the test when
// the request is invalid or the rule fails.
RuleOutput RunRuleOn(const std::string& path, const std::string& rule);

// `sql` with $T1 (pid 100 tid 1), $T2 (pid 100 tid 2), $P2 (pid 200 tid 1) replaced by the
// threads' GlobalIds and $G1 (pid 100), $G2 (pid 200) by the processes'.
std::string WithIds(const std::string& sql);

// One kernel of pid 100 (context 1) for KernelRows.
struct TestKernel {
  int64_t start = 0;
  int64_t end = 0;
  int device = 0;
  int stream = 7;
  int correlation = 0;
};

// An INSERT of `kernels` into CUPTI_ACTIVITY_KIND_KERNEL (name string id 1; other columns 0 or 1).
std::string KernelRows(const std::vector<TestKernel>& kernels);

// The ENUM_CUDA_MEM_KIND rows the copy and set rules label memory kinds with, as SQL.
std::string MemoryKindRows();

}  // namespace prof::analyze::test
