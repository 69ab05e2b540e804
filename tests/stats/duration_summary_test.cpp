// duration_groups() and duration_summary() (stats/duration_summary.h) against the GROUP BY query
// they replace: same groups, same values, same SQLite types.
#include "stats/duration_summary.h"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "stats/sql_statistics.h"
#include "storage/sqlite_database.h"

namespace prof::stats {
namespace {

class SummaryDatabase {
 public:
  SummaryDatabase() {
    REQUIRE(storage::Database::OpenReadWrite(":memory:", &db_).ok());
    REQUIRE(RegisterStatisticsFunctions(&db_).ok());
    REQUIRE(RegisterDurationSummary(&db_).ok());
    REQUIRE(db_.Exec("CREATE TABLE t (v, a, b, c)").ok());
  }

  void Insert(const std::string& rows) {
    const Status status = db_.Exec("INSERT INTO t VALUES " + rows);
    INFO(status.message());
    REQUIRE(status.ok());
  }

  // Every row of `sql`, its columns joined by '|'; the query should select quote()d values so
  // that a REAL 3.0 and an INTEGER 3 differ.
  std::vector<std::string> Rows(const std::string& sql) {
    std::vector<std::string> rows;
    storage::Statement statement;
    const Status status = db_.Prepare(sql, &statement);
    INFO(status.message());
    REQUIRE(status.ok());
    bool has_row = false;
    while (statement.Step(&has_row).ok() && has_row) {
      std::string row;
      for (int i = 0; i < statement.ColumnCount(); ++i) {
        if (i > 0) row += '|';
        row += std::string(statement.ColumnText(i));
      }
      rows.push_back(row);
    }
    return rows;
  }

  Status Run(const std::string& sql) {
    storage::Statement statement;
    if (Status status = db_.Prepare(sql, &statement); !status.ok()) return status;
    bool has_row = false;
    return statement.Step(&has_row);
  }

 private:
  storage::Database db_;
};

constexpr const char* kStatistics =
    "quote(instances), quote(total), quote(mean), quote(middle), quote(shortest), "
    "quote(longest), printf('%.9f', deviation)";

// The same statistics by SQLite's GROUP BY over `keys`, rows ordered by the keys.
std::string Reference(const std::string& keys) {
  return "SELECT " + keys +
         ", quote(count(v)), quote(sum(v)), quote(avg(v)), quote(median(v)), quote(min(v)), "
         "quote(max(v)), printf('%.9f', stdev(v)) FROM t WHERE v IS NOT NULL GROUP BY " +
         keys + " ORDER BY " + keys;  // the keys are quote()d on both sides, so both orders agree
}

TEST_CASE("duration_summary equals GROUP BY with sum count avg median min max stdev", "[stats]") {
  SummaryDatabase db;
  db.Insert(
      "(10, 'read', 1, NULL), (30, 'read', 1, NULL), (20, 'read', 2, NULL), (5, 'write', 1, NULL), "
      "(7, 'write', 1, NULL), (9, 'write', 1, NULL), (4, 'write', 1, NULL), (NULL, 'read', 1, "
      "NULL), "
      "(1000000000001, NULL, 1, NULL), (1000000000003, NULL, 1, NULL), (2.5, 'poll', 3, NULL), "
      "(3, 'poll', 3, NULL), (2, 'mixed', 1, NULL), (0.5, 'mixed', 1, NULL)");
  SECTION("one key") {
    const auto rows = db.Rows(
        std::string("SELECT quote(key1), ") + kStatistics +
        " FROM duration_summary((SELECT duration_groups(v, a) FROM t)) ORDER BY quote(key1)");
    CHECK(rows == db.Rows(Reference("quote(a)")));
    // read: 10, 30, 20 (the NULL value is skipped): median 20, integer total and extremes.
    CHECK(rows.at(2) == "'read'|3|60|20.0|20.0|10|30|10.000000000");
    // write: 5, 7, 9, 4: even count, median the mean of 5 and 7.
    CHECK(rows.at(3) == "'write'|4|25|6.25|6.0|4|9|2.217355783");
    // A REAL value makes the group's total REAL, before or after its integers; min and max
    // keep each value's own type, as SQLite's do.
    CHECK(rows.at(1) == "'poll'|2|5.5|2.75|2.75|2.5|3|0.353553391");
    CHECK(rows.at(0) == "'mixed'|2|2.5|1.25|1.25|0.5|2|1.060660172");
    // NULL keys form one group, as in GROUP BY; large values keep their exact integer sum.
    CHECK(rows.at(4) ==
          "NULL|2|2000000000004|1000000000002.0|1000000000002.0|1000000000001|"
          "1000000000003|1.414213562");
  }
  SECTION("two and three keys") {
    CHECK(db.Rows(std::string("SELECT quote(key1), quote(key2), ") + kStatistics +
                  " FROM duration_summary((SELECT duration_groups(v, a, b) FROM t)) "
                  "ORDER BY quote(key1), quote(key2)") == db.Rows(Reference("quote(a), quote(b)")));
    CHECK(db.Rows(std::string("SELECT quote(key1), quote(key2), quote(key3), ") + kStatistics +
                  " FROM duration_summary((SELECT duration_groups(v, a, b, c) FROM t)) "
                  "ORDER BY quote(key1), quote(key2), quote(key3)") ==
          db.Rows(Reference("quote(a), quote(b), quote(c)")));
    // Keys not given read NULL.
    CHECK(db.Rows("SELECT DISTINCT quote(key3) FROM duration_summary("
                  "(SELECT duration_groups(v, a, b) FROM t))") == std::vector<std::string>{"NULL"});
  }
  SECTION("groups come out in first-seen order") {
    CHECK(db.Rows("SELECT key1 FROM duration_summary((SELECT duration_groups(v, a) FROM t))") ==
          std::vector<std::string>{"read", "write", "", "poll", "mixed"});
  }
}

TEST_CASE("duration_groups_merge regroups the values of duration_summary rows", "[stats]") {
  SummaryDatabase db;
  db.Insert(
      "(10, 'read', 1, NULL), (30, 'read', 2, NULL), (20, 'read', 1, NULL), (5, 'write', 1, NULL), "
      "(7, 'write', 2, NULL), (2.5, 'write', 3, NULL), (9, NULL, 1, NULL), (4, NULL, 2, NULL)");
  // Groups by (a, b), merged back by a: the same statistics as grouping by a at once.
  CHECK(db.Rows(std::string("SELECT quote(key1), ") + kStatistics +
                " FROM duration_summary((SELECT duration_groups_merge(group_values, key1) "
                "FROM duration_summary((SELECT duration_groups(v, a, b) FROM t)))) "
                "ORDER BY quote(key1)") == db.Rows(Reference("quote(a)")));
  // Merged under a new key: everything in one group.
  CHECK(db.Rows("SELECT key1, instances, total FROM duration_summary((SELECT "
                "duration_groups_merge(group_values, 'all') FROM duration_summary("
                "(SELECT duration_groups(v, a, b) FROM t))))") ==
        std::vector<std::string>{"all|8|87.5"});
  const Status status = db.Run("SELECT duration_groups_merge(42, 'a')");
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.message(), Catch::Contains("not from duration_groups()"));
}

TEST_CASE("duration_summary turns an overflowing integer total REAL, its extremes stay INTEGER",
          "[stats]") {
  SummaryDatabase db;
  db.Insert("(9223372036854775000, 'big', 1, NULL), (1000, 'big', 1, NULL)");
  CHECK(db.Rows("SELECT typeof(total), quote(shortest), quote(longest) FROM duration_summary("
                "(SELECT duration_groups(v, a) FROM t))") ==
        std::vector<std::string>{"real|1000|9223372036854775000"});
}

TEST_CASE("duration_summary of no rows is empty", "[stats]") {
  SummaryDatabase db;
  CHECK(db.Rows("SELECT * FROM duration_summary((SELECT duration_groups(v, a) FROM t))").empty());
  db.Insert("(NULL, 'read', 1, 1)");
  CHECK(db.Rows("SELECT * FROM duration_summary((SELECT duration_groups(v, a) FROM t))").empty());
  CHECK(db.Rows("SELECT * FROM duration_summary(NULL)").empty());
}

TEST_CASE("duration_summary refuses an argument duration_groups did not make", "[stats]") {
  SummaryDatabase db;
  for (const char* argument : {"x'00'", "'PDG2'", "x'50445331'", "x'50444732ff'", "42"}) {
    INFO(argument);
    const Status status = db.Run(std::string("SELECT * FROM duration_summary(") + argument + ")");
    REQUIRE_FALSE(status.ok());
    CHECK_THAT(status.message(), Catch::Contains("not from duration_groups()"));
  }
  // A truncated blob: the groups of a real one, cut short.
  const Status status =
      db.Run("SELECT * FROM duration_summary((SELECT substr(duration_groups(1, 'a'), 1, 9)))");
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.message(), Catch::Contains("not from duration_groups()"));
  // Without its argument there is nothing to read.
  CHECK_FALSE(db.Run("SELECT * FROM duration_summary").ok());
}

}  // namespace
}  // namespace prof::stats
