// C++ scalar and aggregate functions callable from SQL on one Database (e.g. median() for stats).
//
// Contract:
// - A function lives as long as the connection; registering a name/arity again replaces it.
// - Callbacks run on the thread that steps the statement and must not throw (SQLite is C): report
//   bad input through FunctionResult::SetError.
// - An aggregate gets a fresh AggregateFunction from its factory for every group, Final() is called
//   exactly once per group (also for an empty input), and the object is destroyed right after.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"
#include "storage/sqlite_database.h"

struct sqlite3_context;
struct sqlite3_value;

namespace prof::storage {

// Read-only view of the arguments of one call.
class FunctionArgs {
 public:
  FunctionArgs(int count, sqlite3_value** values) : count_(count), values_(values) {}
  int size() const { return count_; }
  ValueType Type(int index) const;
  bool IsNull(int index) const { return Type(index) == ValueType::kNull; }
  int64_t Int64(int index) const;
  double Double(int index) const;
  std::string_view Text(int index) const;  // valid for the duration of the call

 private:
  int count_;
  sqlite3_value** values_;
};

// Where a function writes its single result; NULL unless a Set* is called.
class FunctionResult {
 public:
  explicit FunctionResult(sqlite3_context* context) : context_(context) {}
  void SetInt64(int64_t value);
  void SetDouble(double value);
  void SetText(std::string_view value);  // copied
  void SetNull();
  void SetError(std::string_view message);

 private:
  sqlite3_context* context_;
};

using ScalarFunction = std::function<void(const FunctionArgs& args, FunctionResult* result)>;

class AggregateFunction {
 public:
  virtual ~AggregateFunction() = default;
  virtual void Step(const FunctionArgs& args) = 0;
  virtual void Final(FunctionResult* result) = 0;
};

using AggregateFactory = std::function<std::unique_ptr<AggregateFunction>()>;

// `arg_count` -1 accepts any number of arguments. Deterministic functions let SQLite factor calls
// with constant arguments out of loops.
Status RegisterScalarFunction(Database* db, const std::string& name, int arg_count,
                              ScalarFunction function, bool deterministic = true);
Status RegisterAggregateFunction(Database* db, const std::string& name, int arg_count,
                                 AggregateFactory factory);

}  // namespace prof::storage
