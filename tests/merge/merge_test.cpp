// prof merge's library call on the two hand-made rank reports of merge_fixture.h: what the merged
// report holds, row by row, and every input it refuses.
#include <catch2/catch.hpp>
#include <filesystem>

#include "merge/merge_runner.h"
#include "storage/global_id.h"
#include "storage/sqlite_database.h"
#include "tests/merge/merge_fixture.h"
#include "tests/stats/cpu_sample_fixture.h"
#include "tests/support/test_support.h"

namespace prof::merge::test {
namespace {

using prof::test::QueryRows;
using Rows = std::vector<std::vector<std::string>>;

std::string Pid(uint32_t pid) { return std::to_string(storage::GlobalPid(pid)); }
std::string Tid(uint32_t pid) { return std::to_string(storage::GlobalTid(pid, 1)); }

struct Merged {
  std::string rank0;
  std::string rank1;
  std::string output;
  MergeOutcome outcome;
};

Merged MergeRanks(const std::string& name) {
  Merged merged;
  merged.rank0 = RankZeroReport(name + "_rank0");
  merged.rank1 = RankOneReport(name + "_rank1");
  merged.output = prof::test::MakeTempDir("merge_" + name) + "/all";
  const Status status =
      RunMerge({{merged.rank0, merged.rank1}, merged.output, false}, &merged.outcome);
  INFO(status.message());
  REQUIRE(status.ok());
  return merged;
}

// The run's error message; the test fails when the merge succeeds or leaves a file behind.
std::string MergeError(const std::vector<std::string>& inputs, const std::string& output,
                       bool force = false) {
  const std::filesystem::path directory = std::filesystem::path(output).parent_path();
  const auto count_files = [&] {
    return std::distance(std::filesystem::directory_iterator(directory),
                         std::filesystem::directory_iterator());
  };
  const auto files_before = count_files();
  MergeOutcome outcome;
  const Status status = RunMerge({inputs, output, force}, &outcome);
  REQUIRE_FALSE(status.ok());
  CHECK(count_files() == files_before);  // no output and no partial file
  return status.message();
}

TEST_CASE("merge renumbers StringIds and remaps every name column", "[merge]") {
  const Merged merged = MergeRanks("strings");
  CHECK(merged.outcome.output_path == merged.output + ".sqlite");
  const std::string out = merged.outcome.output_path;
  // Rank 0's ids stay; rank 1 adds only its one new string.
  CHECK(QueryRows(out, "SELECT id, value FROM StringIds ORDER BY id") ==
        Rows{{"0", "step"}, {"1", "gemm"}, {"2", "main"}, {"3", "ncclKernel_AllReduce"}});
  CHECK(QueryRows(out,
                  "SELECT start, end, globalPid, shortName, demangledName FROM "
                  "CUPTI_ACTIVITY_KIND_KERNEL ORDER BY start") ==
        Rows{{"10", "20", Pid(100), "1", "1"},
             {"510", "520", Pid(200), "1", "1"},
             {"530", "540", Pid(200), "3", "3"}});
  CHECK(QueryRows(out, "SELECT start, end, globalTid, textId FROM NVTX_EVENTS ORDER BY start") ==
        Rows{{"5", "30", Tid(100), "0"}, {"505", "530", Tid(200), "0"}});
  CHECK(QueryRows(out, "SELECT nameId, globalTid FROM ThreadNames ORDER BY globalTid") ==
        Rows{{"2", Tid(100)}, {"2", Tid(200)}});
}

TEST_CASE("merge puts every report on the earliest session start", "[merge]") {
  const Merged merged = MergeRanks("time_base");
  CHECK(merged.outcome.offsets_ns == std::vector<int64_t>{0, 500});
  const std::string out = merged.outcome.output_path;
  CHECK(QueryRows(out, "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME") ==
        Rows{{"1000000000"}});
  CHECK(QueryRows(out, "SELECT name, value FROM PROF_SESSION") ==
        Rows{{"command_line", "python train.py"},
             {"duration_ns", "550"},
             {"dropped_records", "5"},
             {"utc_epoch_ns_at_start", "1000000000"},
             {"merged_from", merged.rank0},
             {"merged_from", merged.rank1}});
  // Each data-problem counter once, summed; each report's problems at their merged times.
  CHECK(QueryRows(out, "SELECT name, severity, value FROM PROF_STATS") ==
        Rows{{"dropped_records", "data_loss", "5"}, {"unknown_records", "error", "2"}});
  CHECK(QueryRows(out,
                  "SELECT timestamp, text, globalPid FROM DIAGNOSTIC_EVENT ORDER BY timestamp") ==
        Rows{{"40", "prof lost records", std::to_string(storage::GlobalPid(100))},
             {"540", "prof lost records", std::to_string(storage::GlobalPid(200))}});
}

TEST_CASE("merge keeps processes and ranks and describes shared rows once", "[merge]") {
  const std::string out = MergeRanks("descriptions").outcome.output_path;
  CHECK(QueryRows(out, "SELECT globalPid, pid, name FROM PROCESSES ORDER BY pid") ==
        Rows{{Pid(100), "100", "python"}, {Pid(200), "200", "python"}});
  CHECK(QueryRows(out, "SELECT globalTid, rank FROM MPI_RANKS ORDER BY rank") ==
        Rows{{Tid(100), "0"}, {Tid(200), "1"}});
  CHECK(QueryRows(out, "SELECT id, name FROM TARGET_INFO_GPU") == Rows{{"0", "H200"}});
  CHECK(QueryRows(out,
                  "SELECT value FROM META_DATA_EXPORT WHERE name IN ('EXPORT_PRODUCT_NAME', "
                  "'EXPORT_SCHEMA_VERSION') ORDER BY name") == Rows{{"prof"}, {"3.20.3"}});
}

TEST_CASE("reports whose processes share pids merge and their processes stay apart", "[merge]") {
  // Two hosts' rank-0 reports (identical containers: pid 100, tid 1 on both) and rank 1 (pid 200).
  const std::string host_a = RankZeroReport("same_pid_a");
  const std::string host_b = RankZeroReport("same_pid_b");
  const std::string rank1 = RankOneReport("same_pid_rank1");
  const std::string output = prof::test::MakeTempDir("merge_same_pid") + "/all";
  MergeOutcome outcome;
  const Status status = RunMerge({{host_a, rank1, host_b}, output, false}, &outcome);
  INFO(status.message());
  REQUIRE(status.ok());
  const std::string out = outcome.output_path;
  // The third input's pid 100 collides with the first's: its ids get bits 63..48 = 3 (its
  // position + 1); the first and rank 1 (new pid 200) keep theirs.
  const int64_t third = int64_t{3} << 48;
  const int64_t pid100 = storage::GlobalPid(100);
  const auto moved = [&](int64_t global_id) {
    return std::to_string((global_id & 0xFFFFFFFFFFFF) | third);
  };
  CHECK(QueryRows(out, "SELECT globalPid, pid, name FROM PROCESSES ORDER BY globalPid") ==
        Rows{{std::to_string(pid100), "100", "python"},
             {Pid(200), "200", "python"},
             {moved(pid100), "100", "python"}});
  CHECK(QueryRows(out, "SELECT DISTINCT globalPid FROM CUPTI_ACTIVITY_KIND_KERNEL ORDER BY 1") ==
        Rows{{std::to_string(pid100)}, {Pid(200)}, {moved(pid100)}});
  CHECK(QueryRows(out, "SELECT globalTid, count(*) FROM NVTX_EVENTS GROUP BY 1 ORDER BY 1") ==
        Rows{{std::to_string(storage::GlobalTid(100, 1)), "1"},
             {Tid(200), "1"},
             {moved(storage::GlobalTid(100, 1)), "1"}});
  CHECK(QueryRows(out, "SELECT globalTid FROM ThreadNames ORDER BY 1") ==
        Rows{{std::to_string(storage::GlobalTid(100, 1))},
             {Tid(200)},
             {moved(storage::GlobalTid(100, 1))}});
  // nsys's reports read the pid from bits 47..24: the same 100 for both hosts' processes.
  CHECK(QueryRows(out,
                  "SELECT (globalPid >> 24) & 16777215, count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL "
                  "GROUP BY globalPid ORDER BY globalPid") ==
        Rows{{"100", "1"}, {"200", "2"}, {"100", "1"}});
}

TEST_CASE("merge refuses bad inputs with one line and writes nothing", "[merge]") {
  const std::string rank0 = RankZeroReport("bad_rank0");
  const std::string rank1 = RankOneReport("bad_rank1");
  const std::string directory = prof::test::MakeTempDir("merge_bad");
  const std::string output = directory + "/all.sqlite";

  CHECK(MergeError({rank0}, output) == "merge needs at least two reports (got 1)");
  CHECK(MergeError({rank0, directory + "/missing.sqlite"}, output) ==
        "report file not found: " + directory + "/missing.sqlite");
  CHECK(MergeError({rank0, rank0}, output) == rank0 + " is given twice (also as " + rank0 + ")");
  const std::string newer = RankZeroReportWith(
      "bad_version",
      "UPDATE META_DATA_EXPORT SET value = '3.21.0' WHERE name = 'EXPORT_SCHEMA_VERSION';"
      "UPDATE NVTX_EVENTS SET globalTid = globalTid + (300 << 24);"
      "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET globalPid = globalPid + (300 << 24);");
  CHECK(MergeError({rank1, newer}, output) ==
        "cannot merge reports of different export schema versions: " + rank1 + " has 3.20.3, " +
            newer + " has 3.21.0");
  const std::string no_start =
      RankZeroReportWith("bad_start", "DELETE FROM TARGET_INFO_SESSION_START_TIME;");
  CHECK(MergeError({no_start, rank1}, output) ==
        no_start + " has no session start time (TARGET_INFO_SESSION_START_TIME.utcEpochNs)");
  const std::string before_1970 = RankZeroReportWith(
      "bad_start_negative",
      "UPDATE TARGET_INFO_SESSION_START_TIME SET utcEpochNs = -9223372036854775807;");
  CHECK(MergeError({rank1, before_1970}, output) ==
        before_1970 + " has an invalid session start time (utcEpochNs -9223372036854775807)");
  CHECK(MergeError({rank0, rank1}, rank1, true) ==
        "the output " + rank1 + " is one of the reports read (choose another with -o)");
}

TEST_CASE("merge replaces an existing output only with force_overwrite", "[merge]") {
  const std::string rank0 = RankZeroReport("force_rank0");
  const std::string rank1 = RankOneReport("force_rank1");
  const std::string output = prof::test::MakeTempDir("merge_force") + "/all.sqlite";
  MergeOutcome outcome;
  REQUIRE(RunMerge({{rank0, rank1}, output, false}, &outcome).ok());
  CHECK(MergeError({rank0, rank1}, output) ==
        output + " already exists (use --force-overwrite to replace it)");
  REQUIRE(RunMerge({{rank0, rank1}, output, true}, &outcome).ok());
  CHECK(QueryRows(output, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL") == Rows{{"3"}});
}

TEST_CASE("merge fails on a table whose columns differ, leaving no partial file", "[merge]") {
  const std::string rank0 = RankZeroReport("columns_rank0");
  const std::string widened = prof::test::MakeTempDir("merge_columns_input") + "/rank1.sqlite";
  std::filesystem::copy_file(RankOneReport("columns_rank1"), widened);
  storage::Database db;
  REQUIRE(storage::Database::OpenReadWrite(widened, &db).ok());
  REQUIRE(db.Exec("ALTER TABLE PROCESSES ADD COLUMN host TEXT").ok());
  db.Close();
  const std::string output = prof::test::MakeTempDir("merge_columns") + "/all.sqlite";
  CHECK(MergeError({rank0, widened}, output) ==
        widened + " has a column host in PROCESSES that the reports before it lack");
}

}  // namespace
}  // namespace prof::merge::test

namespace prof::merge::test {
namespace {

TEST_CASE("merge keeps CPU sample ids unique - samples keep their own stacks", "[merge][samples]") {
  // Two reports with samples 1-19 each and the same pids: the second's ids move past the first's,
  // in COMPOSITE_EVENTS and SAMPLING_CALLCHAINS alike, and its processes get bits 63..48 of their
  // own (2).
  const std::string first = stats::test::MakeCpuSampleReport("merge_samples_a");
  const std::string second = stats::test::MakeCpuSampleReport("merge_samples_b");
  const std::string output = prof::test::MakeTempDir("merge_samples") + "/all";
  MergeOutcome outcome;
  const Status status = RunMerge({{first, second}, output, false}, &outcome);
  INFO(status.message());
  REQUIRE(status.ok());
  const std::string merged = output + ".sqlite";
  CHECK(outcome.left_out_tables.empty());
  CHECK(QueryRows(merged,
                  "SELECT count(*), count(DISTINCT id), min(id), max(id) FROM "
                  "COMPOSITE_EVENTS") == Rows{{"38", "38", "1", "38"}});
  CHECK(QueryRows(merged,
                  "SELECT count(*) FROM SAMPLING_CALLCHAINS AS f LEFT JOIN "
                  "COMPOSITE_EVENTS AS c ON c.id = f.id WHERE c.id IS NULL") == Rows{{"0"}});
  // Each input's samples, by its bits 63..48, thread and stack (leaf first): as written.
  const std::string stacks =
      "SELECT c.globalTid >> 48, c.globalTid & 16777215, t.stack, count(*) FROM COMPOSITE_EVENTS"
      " AS c JOIN (SELECT f.id AS id, f.stackDepth AS depth, group_concat(s.value, '<') OVER ("
      "PARTITION BY f.id ORDER BY f.stackDepth ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED"
      " FOLLOWING) AS stack FROM SAMPLING_CALLCHAINS AS f JOIN StringIds AS s ON s.id = f.symbol)"
      " AS t ON t.id = c.id AND t.depth = 0 GROUP BY 1, 2, 3 ORDER BY 1, 2, 3";
  const Rows expected_one = {{"1234", "0x7f0000001234<load_batch<Trainer.train<main", "3"},
                             {"1234", "matmul<Trainer.step<Trainer.train<main", "7"},
                             {"1240", "fib<fib<fib<start_thread", "2"},
                             {"1240", "fib<start_thread", "2"},
                             {"2000", "compute<main", "3"},
                             {"2000", "main", "2"}};
  Rows expected;
  for (const char* bits : {"1", "2"}) {
    for (const auto& row : expected_one) expected.push_back({bits, row[0], row[1], row[2]});
  }
  CHECK(QueryRows(merged, stacks) == expected);
  // Strings and times carried over: the merged report's summary is each input's, twice.
  CHECK(QueryRows(merged, "SELECT count(*) FROM COMPOSITE_EVENTS WHERE start = 100") ==
        Rows{{"2"}});
}

}  // namespace
}  // namespace prof::merge::test
