#include "storage/sql_function.h"

#include <sqlite3.h>

#include <utility>

namespace prof::storage {
namespace {

void CallScalar(sqlite3_context* context, int argc, sqlite3_value** argv) {
  const auto* function = static_cast<const ScalarFunction*>(sqlite3_user_data(context));
  FunctionResult result(context);
  (*function)(FunctionArgs(argc, argv), &result);
}

// Each group's aggregate context holds one pointer: the AggregateFunction the factory made for it.
AggregateFunction** GroupState(sqlite3_context* context, int bytes) {
  return static_cast<AggregateFunction**>(sqlite3_aggregate_context(context, bytes));
}

void StepAggregate(sqlite3_context* context, int argc, sqlite3_value** argv) {
  AggregateFunction** state = GroupState(context, sizeof(AggregateFunction*));
  if (state == nullptr) {
    sqlite3_result_error_nomem(context);
    return;
  }
  if (*state == nullptr) {
    const auto* factory = static_cast<const AggregateFactory*>(sqlite3_user_data(context));
    *state = (*factory)().release();
  }
  (*state)->Step(FunctionArgs(argc, argv));
}

void FinalAggregate(sqlite3_context* context) {
  // Asking for 0 bytes returns the existing state or NULL when no row reached Step.
  AggregateFunction** state = GroupState(context, 0);
  std::unique_ptr<AggregateFunction> function;
  if (state != nullptr && *state != nullptr) {
    function.reset(*state);
  } else {
    const auto* factory = static_cast<const AggregateFactory*>(sqlite3_user_data(context));
    function = (*factory)();
  }
  FunctionResult result(context);
  function->Final(&result);
}

template <typename T>
void DeleteUserData(void* data) {
  delete static_cast<T*>(data);
}

Status CheckRegistered(Database* db, int rc, const std::string& name) {
  if (rc == SQLITE_OK) return Status::Ok();
  return Status::Error("cannot register SQL function " + name + ": " + db->ErrorText());
}

}  // namespace

ValueType FunctionArgs::Type(int index) const {
  return ValueTypeFromSqlite(sqlite3_value_type(values_[index]));
}

int64_t FunctionArgs::Int64(int index) const { return sqlite3_value_int64(values_[index]); }

double FunctionArgs::Double(int index) const { return sqlite3_value_double(values_[index]); }

std::string_view FunctionArgs::Text(int index) const {
  const auto* text = reinterpret_cast<const char*>(sqlite3_value_text(values_[index]));
  if (text == nullptr) return {};
  return std::string_view(text, static_cast<size_t>(sqlite3_value_bytes(values_[index])));
}

void FunctionResult::SetInt64(int64_t value) { sqlite3_result_int64(context_, value); }

void FunctionResult::SetDouble(double value) { sqlite3_result_double(context_, value); }

void FunctionResult::SetText(std::string_view value) {
  sqlite3_result_text64(context_, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
}

void FunctionResult::SetNull() { sqlite3_result_null(context_); }

void FunctionResult::SetError(std::string_view message) {
  sqlite3_result_error(context_, message.data(), static_cast<int>(message.size()));
}

Status RegisterScalarFunction(Database* db, const std::string& name, int arg_count,
                              ScalarFunction function, bool deterministic) {
  if (!db->is_open()) return Status::Error("database is not open");
  const int flags = SQLITE_UTF8 | (deterministic ? SQLITE_DETERMINISTIC : 0);
  // SQLite owns the copy from here and frees it with DeleteUserData, also when registration fails.
  auto* user_data = new ScalarFunction(std::move(function));
  const int rc =
      sqlite3_create_function_v2(db->handle(), name.c_str(), arg_count, flags, user_data,
                                 CallScalar, nullptr, nullptr, DeleteUserData<ScalarFunction>);
  return CheckRegistered(db, rc, name);
}

Status RegisterAggregateFunction(Database* db, const std::string& name, int arg_count,
                                 AggregateFactory factory) {
  if (!db->is_open()) return Status::Error("database is not open");
  auto* user_data = new AggregateFactory(std::move(factory));
  const int rc = sqlite3_create_function_v2(db->handle(), name.c_str(), arg_count, SQLITE_UTF8,
                                            user_data, nullptr, StepAggregate, FinalAggregate,
                                            DeleteUserData<AggregateFactory>);
  return CheckRegistered(db, rc, name);
}

}  // namespace prof::storage
