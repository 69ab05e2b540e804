// median() and stdev() as registered by sql_statistics.h.
#include "stats/sql_statistics.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <optional>
#include <string>

#include "storage/sqlite_database.h"

namespace prof::stats {
namespace {

// The single REAL value `sql` selects; nullopt for NULL.
std::optional<double> Scalar(const std::string& sql) {
  storage::Database db;
  REQUIRE(storage::Database::OpenReadWrite(":memory:", &db).ok());
  REQUIRE(RegisterStatisticsFunctions(&db).ok());
  REQUIRE(db.Exec("CREATE TABLE empty (x)").ok());
  storage::Statement statement;
  const Status status = db.Prepare(sql, &statement);
  INFO(status.message());
  REQUIRE(status.ok());
  bool has_row = false;
  REQUIRE(statement.Step(&has_row).ok());
  REQUIRE(has_row);
  if (statement.ColumnIsNull(0)) return std::nullopt;
  REQUIRE(statement.ColumnType(0) == storage::ValueType::kFloat);
  return statement.ColumnDouble(0);
}

std::optional<double> Over(const std::string& function, const std::string& values) {
  return Scalar("SELECT " + function + "(column1) FROM (VALUES " + values + ")");
}

TEST_CASE("median takes the middle value - or the mean of the two middle ones", "[stats]") {
  CHECK(Over("median", "(7)") == 7.0);
  CHECK(Over("median", "(9), (1), (5)") == 5.0);
  CHECK(Over("median", "(10), (1), (4), (3)") == 3.5);
  CHECK(Over("median", "(775658), (775657)") == 775657.5);
  CHECK(Over("median", "(2), (NULL), (4), (NULL), (3)") == 3.0);
  CHECK(Over("median", "(-1.5), (2.5)") == 0.5);
}

TEST_CASE("stdev is the sample standard deviation", "[stats]") {
  CHECK(Over("stdev", "(42)") == 0.0);
  // Mean 5, squared deviations sum to 32, divided by n - 1 = 7.
  CHECK(Over("stdev", "(2), (4), (4), (4), (5), (5), (7), (9)").value() ==
        Approx(std::sqrt(32.0 / 7.0)).epsilon(1e-15));
  // NULLs are skipped: 1 and 3 -> sqrt(2 / 1).
  CHECK(Over("stdev", "(1), (NULL), (3)").value() == Approx(std::sqrt(2.0)).epsilon(1e-15));
  // Large values with a small spread: no cancellation.
  CHECK(Over("stdev", "(1000000000001), (1000000000003)").value() ==
        Approx(std::sqrt(2.0)).epsilon(1e-12));
}

TEST_CASE("median and stdev of no values are NULL", "[stats]") {
  CHECK_FALSE(Scalar("SELECT median(x) FROM empty").has_value());
  CHECK_FALSE(Scalar("SELECT stdev(x) FROM empty").has_value());
  CHECK_FALSE(Over("median", "(NULL)").has_value());
  CHECK_FALSE(Over("stdev", "(NULL)").has_value());
}

}  // namespace
}  // namespace prof::stats
