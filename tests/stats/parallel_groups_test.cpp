// duration_groups_parallel() (stats/parallel_groups.h) against one duration_groups() scan of the
// same rows: the same groups in the same order with the same digits, for any number of slices,
// when the scanned view reads TEMP tables and views that only the calling connection has.
#include "stats/parallel_groups.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "stats/report_database.h"
#include "storage/sqlite_database.h"
#include "tests/support/test_support.h"

namespace prof::stats {
namespace {

constexpr int kRows = 20000;

// A report-like file: StringIds (so OpenReportDatabase accepts it) and `events`, with rowid gaps,
// NULL values, REAL values in one group and integers elsewhere.
std::string MakeReport(const std::string& test_name) {
  const std::string path = test::MakeTempDir(test_name) + "/report.sqlite";
  storage::Database db;
  REQUIRE(storage::Database::OpenReadWrite(path, &db).ok());
  REQUIRE(db.Exec("CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT);"
                  "CREATE TABLE events (v, name TEXT, kind INTEGER);"
                  "CREATE TABLE empty (v, name TEXT);"
                  "BEGIN")
              .ok());
  storage::Statement insert;
  REQUIRE(db.Prepare("INSERT INTO events VALUES (?, ?, ?)", &insert).ok());
  uint64_t state = 12345;
  for (int i = 0; i < kRows; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const auto draw = static_cast<int64_t>(state >> 33);
    // Names first seen late in the table test that groups keep first-seen order across slices.
    std::string name = "range" + std::to_string(draw % 7);
    if (i > 12000 && draw % 5 == 0) name = "late";
    if (i > 17000 && draw % 5 == 1) name = "later";
    if (draw % 11 == 0) {
      insert.BindNull(1);
    } else if (name == "range3") {
      insert.BindDouble(1, static_cast<double>(draw % 5000) / 7.0);  // sums depend on the order
    } else {
      insert.BindInt64(1, draw % 100000);
    }
    insert.BindText(2, std::string_view(name));
    insert.BindInt64(3, draw % 3);
    REQUIRE(insert.Run().ok());
  }
  REQUIRE(db.Exec("COMMIT; DELETE FROM events WHERE rowid % 13 = 0 OR rowid BETWEEN 5000 AND 5400")
              .ok());
  return path;
}

// Rows of `sql`, columns joined by '|'.
std::vector<std::string> Rows(storage::Database* db, const std::string& sql) {
  storage::Statement statement;
  const Status prepared = db->Prepare(sql, &statement);
  INFO(prepared.message());
  REQUIRE(prepared.ok());
  std::vector<std::string> rows;
  bool has_row = false;
  Status status = Status::Ok();
  while ((status = statement.Step(&has_row)).ok() && has_row) {
    std::string row;
    for (int i = 0; i < statement.ColumnCount(); ++i) {
      if (i > 0) row += '|';
      row += std::string(statement.ColumnText(i));
    }
    rows.push_back(row);
  }
  INFO(status.message());
  REQUIRE(status.ok());
  return rows;
}

Status Run(storage::Database* db, const std::string& sql) {
  storage::Statement statement;
  if (Status status = db->Prepare(sql, &statement); !status.ok()) return status;
  bool has_row = false;
  return statement.Step(&has_row);
}

// Every statistic, with all its digits and its SQLite type, in first-seen group order.
std::string Summary(const std::string& groups) {
  return "SELECT quote(key1), quote(instances), quote(total), printf('%.17g', mean), "
         "printf('%.17g', middle), quote(shortest), quote(longest), printf('%.17g', deviation) "
         "FROM duration_summary(" +
         groups + ")";
}

// A scan that only works where the calling connection's TEMP objects exist.
constexpr const char* kTempSchema =
    "CREATE TEMP TABLE picked (kind INTEGER, label TEXT);"
    "INSERT INTO picked VALUES (0, 'zero'), (2, NULL);"
    "CREATE TEMP VIEW picked_events AS SELECT rowid AS eventRow, v, name FROM events "
    "WHERE kind IN (SELECT kind FROM picked)";
constexpr const char* kSliceSql =
    "'SELECT duration_groups(v, name) FROM picked_events WHERE eventRow BETWEEN ?1 AND ?2'";

TEST_CASE("duration_groups_parallel equals one scan for every slice count", "[stats]") {
  const std::string path = MakeReport("parallel_groups_equal");
  storage::Database db;
  REQUIRE(OpenReportDatabase(path, &db).ok());
  REQUIRE(db.Exec(kTempSchema).ok());
  const std::vector<std::string> one_scan =
      Rows(&db, Summary("(SELECT duration_groups(v, name) FROM picked_events)"));
  REQUIRE(one_scan.size() == 9);
  // range3 holds REAL values, the others integers: each keeps its type through the merge.
  CHECK(Rows(&db,
             "SELECT key1, typeof(total), typeof(shortest) FROM duration_summary("
             "duration_groups_parallel('events', " +
                 std::string(kSliceSql) +
                 ", 4)) "
                 "WHERE key1 IN ('range2', 'range3') ORDER BY key1") ==
        std::vector<std::string>{"range2|integer|integer", "range3|real|real"});
  for (int slices : {1, 2, 3, 4, 7, 16}) {
    INFO("slices " << slices);
    CHECK(Rows(&db, Summary("duration_groups_parallel('events', " + std::string(kSliceSql) + ", " +
                            std::to_string(slices) + ")")) == one_scan);
  }
  // Without a count: this table is small, so the calling connection scans it alone.
  CHECK(Rows(&db, Summary("duration_groups_parallel('events', " + std::string(kSliceSql) + ")")) ==
        one_scan);
}

TEST_CASE("duration_groups_parallel of an empty table has no groups", "[stats]") {
  const std::string path = MakeReport("parallel_groups_empty");
  storage::Database db;
  REQUIRE(OpenReportDatabase(path, &db).ok());
  CHECK(Rows(&db, Summary("duration_groups_parallel('empty', 'SELECT duration_groups(v, name) "
                          "FROM empty WHERE rowid BETWEEN ?1 AND ?2', 4)"))
            .empty());
}

TEST_CASE("duration_groups_parallel reports a failing slice query in one line", "[stats]") {
  const std::string path = MakeReport("parallel_groups_errors");
  storage::Database db;
  REQUIRE(OpenReportDatabase(path, &db).ok());
  for (int slices : {1, 3}) {
    INFO("slices " << slices);
    const std::string count = std::to_string(slices);
    Status status =
        Run(&db, Summary("duration_groups_parallel('events', 'SELECT duration_groups(v, name) "
                         "FROM nowhere WHERE rowid BETWEEN ?1 AND ?2', " +
                         count + ")"));
    REQUIRE_FALSE(status.ok());
    CHECK_THAT(status.message(), Catch::Contains("no such table: nowhere"));
    status =
        Run(&db, Summary("duration_groups_parallel('events', 'SELECT ?1 + ?2', " + count + ")"));
    REQUIRE_FALSE(status.ok());
    CHECK_THAT(status.message(), Catch::Contains("did not return a duration_groups() value"));
  }
  const Status status = Run(&db, Summary("duration_groups_parallel('missing', 'SELECT 1')"));
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.message(), Catch::Contains("no such table: missing"));
}

}  // namespace
}  // namespace prof::stats
