// prof merge on reports crafted to turn it against its reader: schema text that carries more
// statements (ATTACH of another file, DELETE from the input), triggers, views, a virtual table
// and a generated column. Nothing of an input's schema may run: the merge writes nothing but its
// output, every input keeps its bytes, and an input whose tables are not plain data is refused in
// one line.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "merge/merge_runner.h"
#include "storage/sqlite_database.h"
#include "tests/merge/merge_fixture.h"
#include "tests/support/test_support.h"

namespace prof::merge::test {
namespace {

using prof::test::FileBytes;
using prof::test::FileNamesIn;
using prof::test::QueryRows;
using Rows = std::vector<std::vector<std::string>>;

// Appends `tail` to the CREATE TABLE text of `table` in the report at `path` (the schema SQLite
// reads ignores text after the first statement; a reader that runs the text runs the tail).
void AppendToSchemaText(const std::string& path, const std::string& table,
                        const std::string& tail) {
  storage::Database db;
  REQUIRE(storage::Database::OpenReadWrite(path, &db).ok());
  storage::Statement update;
  REQUIRE(db.Exec("PRAGMA writable_schema = ON").ok());
  REQUIRE(db.Prepare("UPDATE sqlite_master SET sql = sql || ?1 WHERE name = ?2", &update).ok());
  update.BindText(1, std::string_view(tail));
  update.BindText(2, std::string_view(table));
  REQUIRE(update.Run().ok());
  REQUIRE(db.Exec("PRAGMA writable_schema = OFF").ok());
}

TEST_CASE("merge runs nothing of a crafted report's schema and writes only its output",
          "[merge][untrusted]") {
  const std::string directory = prof::test::MakeTempDir("merge_untrusted");
  const std::string victim = directory + "/victim.sqlite";  // must never be created
  const std::string existing = directory + "/existing.sqlite";
  {
    storage::Database db;
    REQUIRE(storage::Database::OpenReadWrite(existing, &db).ok());
    REQUIRE(db.Exec("CREATE TABLE kept (a); INSERT INTO kept VALUES (1)").ok());
  }
  const std::string rank0 = RankZeroReport("untrusted_rank0");
  // A table prof does not define (nsys's PROFILER_OVERHEAD, built from the input's columns), a
  // trigger and a view: none of them may act. Its times move by 500 ns onto rank 0's start.
  const std::string crafted = RankOneReportWith(
      "untrusted_rank1",
      "CREATE TABLE PROFILER_OVERHEAD (start INTEGER NOT NULL, end INTEGER NOT NULL, "
      "globalTid INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL);"
      "INSERT INTO PROFILER_OVERHEAD VALUES (1, 2, 0, 1, 0);"
      "CREATE TRIGGER wipe AFTER INSERT ON NVTX_EVENTS BEGIN DELETE FROM StringIds; END;"
      "CREATE VIEW everything AS SELECT * FROM NVTX_EVENTS;");
  const std::string attack = "; COMMIT; ATTACH '" + victim +
                             "' AS x; CREATE TABLE x.pwned (a); ATTACH '" + existing +
                             "' AS y; DROP TABLE y.kept; DELETE FROM merge_input.NVTX_EVENTS";
  AppendToSchemaText(crafted, "NVTX_EVENTS", attack);
  AppendToSchemaText(crafted, "PROFILER_OVERHEAD", attack);
  const std::string rank0_bytes = FileBytes(rank0);
  const std::string crafted_bytes = FileBytes(crafted);
  const std::string existing_bytes = FileBytes(existing);
  const std::vector<std::string> files_before = FileNamesIn(directory);

  const std::string output = directory + "/all.sqlite";
  MergeOutcome outcome;
  for (const std::vector<std::string>& inputs :
       {std::vector<std::string>{rank0, crafted}, std::vector<std::string>{crafted, rank0}}) {
    std::filesystem::remove(output);
    const Status status = RunMerge({inputs, output, false}, &outcome);
    INFO(status.message());
    REQUIRE(status.ok());
    // The rows of both inputs, the crafted one's untouched.
    CHECK(QueryRows(output, "SELECT count(*) FROM NVTX_EVENTS") == Rows{{"2"}});
    CHECK(QueryRows(output, "SELECT start, end, nameId, returnValue FROM PROFILER_OVERHEAD") ==
          Rows{{"501", "502",
                QueryRows(output, "SELECT id FROM StringIds WHERE value = 'ncclKernel_AllReduce'")
                    .at(0)
                    .at(0),
                "0"}});
    // The output's tables are prof's or built from columns, never the input's text.
    CHECK(QueryRows(output,
                    "SELECT count(*) FROM sqlite_master WHERE sql LIKE '%ATTACH%' OR type IN "
                    "('trigger', 'view')") == Rows{{"0"}});
    CHECK(QueryRows(output, "SELECT sql FROM sqlite_master WHERE name = 'PROFILER_OVERHEAD'") ==
          Rows{{"CREATE TABLE \"PROFILER_OVERHEAD\" (\"start\" INTEGER NOT NULL, \"end\" "
                "INTEGER NOT NULL, \"globalTid\" INTEGER, \"nameId\" INTEGER NOT NULL, "
                "\"returnValue\" INTEGER NOT NULL)"}});
  }
  // Nothing written outside -o: no new file but the output, the inputs and the other database
  // keep their bytes.
  std::vector<std::string> files_after = files_before;
  files_after.push_back("all.sqlite");
  std::sort(files_after.begin(), files_after.end());
  CHECK(FileNamesIn(directory) == files_after);
  CHECK(FileBytes(existing) == existing_bytes);
  CHECK(FileBytes(rank0) == rank0_bytes);
  CHECK(FileBytes(crafted) == crafted_bytes);
}

TEST_CASE("merge refuses a report whose tables are not plain data, in one line",
          "[merge][untrusted]") {
  const std::string rank0 = RankZeroReport("untrusted_plain_rank0");
  const std::string output = prof::test::MakeTempDir("merge_untrusted_plain") + "/all.sqlite";
  const std::string generated = RankOneReportWith(
      "untrusted_generated",
      "CREATE TABLE PROFILER_OVERHEAD (start INTEGER NOT NULL, end INTEGER NOT NULL, "
      "globalTid INTEGER, nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, "
      "padding BLOB AS (zeroblob(1000000000)));");
  const std::string virtual_table =
      RankOneReportWith("untrusted_virtual", "CREATE VIRTUAL TABLE lookup USING rtree(id, a, b);");
  for (const auto& [input, message] :
       {std::pair{generated,
                  " cannot be merged: its table PROFILER_OVERHEAD has a generated "
                  "column padding"},
        std::pair{virtual_table, " cannot be merged: its table lookup is not an ordinary table"}}) {
    const std::string before = FileBytes(input);
    MergeOutcome outcome;
    const Status status = RunMerge({{rank0, input}, output, false}, &outcome);
    REQUIRE_FALSE(status.ok());
    CHECK(status.message() == input + message);
    CHECK_FALSE(std::filesystem::exists(output));
    CHECK(FileBytes(input) == before);
  }
}

}  // namespace
}  // namespace prof::merge::test
