// C++ functions registered for SQL: results, NULL handling, errors and per-group aggregate state.
#include "storage/sql_function.h"

#include <catch2/catch.hpp>
#include <vector>

namespace prof::storage {
namespace {

// Sums integer arguments and counts the rows it saw; NULLs are skipped.
class SumAndCount : public AggregateFunction {
 public:
  explicit SumAndCount(int* instances) : instances_(instances) { ++*instances_; }
  ~SumAndCount() override { --*instances_; }
  void Step(const FunctionArgs& args) override {
    ++rows_;
    if (!args.IsNull(0)) sum_ += args.Int64(0);
  }
  void Final(FunctionResult* result) override {
    result->SetText(std::to_string(sum_) + "/" + std::to_string(rows_));
  }

 private:
  int* instances_;
  int64_t sum_ = 0;
  int64_t rows_ = 0;
};

std::vector<std::string> Column(Database* db, const std::string& sql) {
  Statement statement;
  const Status prepare = db->Prepare(sql, &statement);
  INFO(prepare.message());
  REQUIRE(prepare.ok());
  std::vector<std::string> values;
  bool has_row = false;
  while (true) {
    const Status step = statement.Step(&has_row);
    INFO(step.message());
    REQUIRE(step.ok());
    if (!has_row) break;
    values.push_back(statement.ColumnIsNull(0) ? "NULL" : std::string(statement.ColumnText(0)));
  }
  return values;
}

TEST_CASE("a scalar function sees typed arguments and sets its result", "[storage][sql_function]") {
  Database db;
  REQUIRE(Database::OpenReadWrite(":memory:", &db).ok());
  const ScalarFunction describe = [](const FunctionArgs& args, FunctionResult* result) {
    switch (args.Type(0)) {
      case ValueType::kInteger:
        result->SetInt64(args.Int64(0) * 2);
        break;
      case ValueType::kFloat:
        result->SetDouble(args.Double(0) / 2);
        break;
      case ValueType::kText:
        result->SetText("<" + std::string(args.Text(0)) + ">");
        break;
      case ValueType::kNull:
        result->SetNull();
        break;
      case ValueType::kBlob:
        result->SetError("blobs are not accepted");
        break;
    }
  };
  REQUIRE(RegisterScalarFunction(&db, "describe", 1, describe).ok());
  CHECK(Column(&db, "SELECT describe(21)") == std::vector<std::string>{"42"});
  CHECK(Column(&db, "SELECT describe(5.0)") == std::vector<std::string>{"2.5"});
  CHECK(Column(&db, "SELECT describe('x')") == std::vector<std::string>{"<x>"});
  CHECK(Column(&db, "SELECT describe(NULL)") == std::vector<std::string>{"NULL"});

  Statement blob;
  REQUIRE(db.Prepare("SELECT describe(x'00')", &blob).ok());
  bool has_row = false;
  const Status status = blob.Step(&has_row);
  REQUIRE_FALSE(status.ok());
  CHECK_THAT(status.message(), Catch::Contains("blobs are not accepted"));
}

TEST_CASE("an aggregate gets fresh state per group and is always finalized",
          "[storage][sql_function]") {
  int instances = 0;
  {
    Database db;
    REQUIRE(Database::OpenReadWrite(":memory:", &db).ok());
    REQUIRE(RegisterAggregateFunction(&db, "sum_and_count", 1, [&instances] {
              return std::make_unique<SumAndCount>(&instances);
            }).ok());
    REQUIRE(db.Exec("CREATE TABLE t (g TEXT, v INTEGER);"
                    "INSERT INTO t VALUES ('a', 1), ('a', 2), ('b', 10), ('b', NULL), ('c', 5)")
                .ok());
    CHECK(Column(&db, "SELECT sum_and_count(v) FROM t GROUP BY g ORDER BY g") ==
          std::vector<std::string>{"3/2", "10/2", "5/1"});
    CHECK(Column(&db, "SELECT sum_and_count(v) FROM t WHERE 0") == std::vector<std::string>{"0/0"});
    CHECK(instances == 0);
  }
  CHECK(instances == 0);
}

TEST_CASE("registering on a closed database fails", "[storage][sql_function]") {
  Database db;
  const Status status =
      RegisterScalarFunction(&db, "f", 0, [](const FunctionArgs&, FunctionResult*) {});
  REQUIRE_FALSE(status.ok());
  CHECK(status.message() == "database is not open");
}

}  // namespace
}  // namespace prof::storage
