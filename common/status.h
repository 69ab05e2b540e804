// Status values for the launcher side (cli, collector, storage, stats): these layers return errors
// instead of throwing, and the CLI turns a failed Status into one `prof: error: ...` line.
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace prof {

class [[nodiscard]] Status {
 public:
  static Status Ok() { return Status(); }
  static Status Error(std::string message) { return Status(std::move(message)); }

  bool ok() const { return !failed_; }
  const std::string& message() const { return message_; }

 private:
  Status() = default;
  explicit Status(std::string message) : failed_(true), message_(std::move(message)) {}

  bool failed_ = false;
  std::string message_;
};

// A value, or the error that kept it from being made.
template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(T value) : value_(std::move(value)) {}  // NOLINT: implicit, as `return value;` reads
  // `status` is an error; an OK one would leave no value, so it becomes one.
  StatusOr(Status status)  // NOLINT: implicit, as `return Status::Error(...);` reads
      : status_(status.ok() ? Status::Error("internal error: a StatusOr without a value")
                            : std::move(status)) {}

  bool ok() const { return value_.has_value(); }
  const Status& status() const { return status_; }
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  T& operator*() & { return *value_; }
  const T& operator*() const& { return *value_; }

 private:
  Status status_ = Status::Ok();
  std::optional<T> value_;
};

namespace status_internal {
inline const Status& StatusOf(const Status& status) { return status; }
template <typename T>
const Status& StatusOf(const StatusOr<T>& value) {
  return value.status();
}
}  // namespace status_internal

}  // namespace prof

#define PROF_STATUS_CONCAT_INNER(a, b) a##b
#define PROF_STATUS_CONCAT(a, b) PROF_STATUS_CONCAT_INNER(a, b)

// Returns from the calling function (which returns Status or a StatusOr) with the error of `expr`
// (a Status or a StatusOr) when it failed.
#define PROF_RETURN_IF_ERROR(expr)                                     \
  do {                                                                 \
    if (const auto& prof_status_or_ = (expr); !prof_status_or_.ok()) { \
      return ::prof::status_internal::StatusOf(prof_status_or_);       \
    }                                                                  \
  } while (false)

// `lhs` = the value of `expr` (a StatusOr), or returns its error from the calling function.
#define PROF_ASSIGN_OR_RETURN(lhs, expr) \
  PROF_ASSIGN_OR_RETURN_IMPL(PROF_STATUS_CONCAT(prof_status_or_, __LINE__), lhs, expr)
#define PROF_ASSIGN_OR_RETURN_IMPL(temporary, lhs, expr) \
  auto temporary = (expr);                               \
  if (!temporary.ok()) return temporary.status();        \
  lhs = std::move(temporary).value()
