// A `prof` subcommand: each lives in cli/<name>_command.{h,cpp} and is listed in main.cpp.
//
// Console convention (set up by main.cpp): prof's own messages go to stderr through spdlog with the
// prefix "prof: "; spdlog::info for notes (silenced by -q), spdlog::warn for warnings and
// spdlog::error for the one-line error that precedes a non-zero exit. Reports and other requested
// output go to stdout or files, never through spdlog.
#pragma once

#include <CLI/CLI.hpp>

namespace prof::cli {

class Command {
 public:
  virtual ~Command() = default;
  // Adds the subcommand, its options and help text to `app`; returns the subcommand.
  virtual CLI::App* Register(CLI::App& app) = 0;
  // Runs after a successful parse when this subcommand was chosen; returns prof's exit code.
  virtual int Run() = 0;
  // The exit code of a command line this subcommand cannot parse (`prof diff` keeps 1 for "a
  // regression", so its errors exit 2).
  virtual int UsageErrorExitCode() const { return 1; }
  // Whether the words CLI11 did not recognise are this command's to read (`prof profile`: the
  // program and its arguments); for the others they are unknown options.
  virtual bool TakesRemainingArguments() const { return false; }
};

}  // namespace prof::cli
