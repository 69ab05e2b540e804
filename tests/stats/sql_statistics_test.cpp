// median() and stdev() as registered by sql_statistics.h.
#include "stats/sql_statistics.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "storage/sqlite_database.h"

namespace prof::stats {
namespace {

// The single value `sql` selects, as text ("NULL" for NULL).
std::string Scalar(const std::string& sql) {
  storage::Database db;
  REQUIRE(storage::Database::OpenReadWrite(":memory:", &db).ok());
  REQUIRE(RegisterStatisticsFunctions(&db).ok());
  REQUIRE(db.Exec("CREATE TABLE t (x); CREATE TABLE empty (x);").ok());
  storage::Statement statement;
  const Status status = db.Prepare(sql, &statement);
  INFO(status.message());
  REQUIRE(status.ok());
  bool has_row = false;
  REQUIRE(statement.Step(&has_row).ok());
  REQUIRE(has_row);
  if (statement.ColumnIsNull(0)) return "NULL";
  return std::string(statement.ColumnText(0));
}

std::string Over(const std::string& function, const std::string& values) {
  return Scalar("SELECT " + function + "(x) FROM (SELECT column1 AS x FROM (VALUES " + values +
                "))");
}

TEST_CASE("median takes the middle value, or the mean of the two middle ones", "[stats]") {
  CHECK(Over("median", "(7)") == "7.0");
  CHECK(Over("median", "(9), (1), (5)") == "5.0");
  CHECK(Over("median", "(10), (1), (4), (3)") == "3.5");
  CHECK(Over("median", "(775657), (775658)") == "775657.5");
  CHECK(Over("median", "(2), (NULL), (4), (NULL), (3)") == "3.0");
  CHECK(Over("median", "(-1.5), (2.5)") == "0.5");
}

TEST_CASE("stdev is the sample standard deviation", "[stats]") {
  CHECK(Over("stdev", "(42)") == "0.0");
  // Mean 5, squared deviations sum to 32, divided by n - 1 = 7.
  CHECK(std::stod(Over("stdev", "(2), (4), (4), (4), (5), (5), (7), (9)")) ==
        Approx(std::sqrt(32.0 / 7.0)).epsilon(1e-15));
  // NULLs are skipped: 1 and 3 -> sqrt(2 / 1).
  CHECK(std::stod(Over("stdev", "(1), (NULL), (3)")) == Approx(std::sqrt(2.0)).epsilon(1e-15));
  // Large values with a small spread: no cancellation.
  CHECK(std::stod(Over("stdev", "(1000000000001), (1000000000003)")) ==
        Approx(std::sqrt(2.0)).epsilon(1e-12));
}

TEST_CASE("median and stdev of no values are NULL", "[stats]") {
  CHECK(Scalar("SELECT median(x) FROM empty") == "NULL");
  CHECK(Scalar("SELECT stdev(x) FROM empty") == "NULL");
  CHECK(Over("median", "(NULL)") == "NULL");
  CHECK(Over("stdev", "(NULL)") == "NULL");
}

}  // namespace
}  // namespace prof::stats
