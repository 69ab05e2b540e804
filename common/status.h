// Status values for the launcher side (cli, collector, storage, stats): these layers return errors
// instead of throwing, and the CLI turns a failed Status into one `prof: error: ...` line.
#pragma once

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

}  // namespace prof
