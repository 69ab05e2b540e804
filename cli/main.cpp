// prof: an nsys-style profiler for CUDA and PyTorch programs. Lists the subcommands and sets up the
// console convention described in cli/command.h.
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <memory>
#include <string>
#include <vector>

#include "cli/analyze_command.h"
#include "cli/command_line_errors.h"
#include "cli/diff_command.h"
#include "cli/export_command.h"
#include "cli/merge_command.h"
#include "cli/profile_command.h"
#include "cli/stats_command.h"

namespace {

void SetUpConsole() {
  auto logger = spdlog::stderr_logger_st("prof");
  logger->set_pattern("prof: %v");
  spdlog::set_default_logger(logger);
}

}  // namespace

int main(int argc, char** argv) {
  SetUpConsole();
  CLI::App app("prof: profile CUDA and PyTorch programs (nsys-compatible reports)", "prof");
  app.set_version_flag("-v,--version", "prof " PROF_VERSION);
  app.require_subcommand(0, 1);

  std::vector<std::unique_ptr<prof::cli::Command>> commands;
  commands.push_back(prof::cli::MakeProfileCommand());
  commands.push_back(prof::cli::MakeStatsCommand());
  commands.push_back(prof::cli::MakeDiffCommand());
  commands.push_back(prof::cli::MakeAnalyzeCommand());
  commands.push_back(prof::cli::MakeExportCommand());
  commands.push_back(prof::cli::MakeMergeCommand());
  std::vector<CLI::App*> subcommands;
  std::vector<std::string> names;
  for (auto& command : commands) {
    subcommands.push_back(command->Register(app));
    // Unknown words are reported by prof (with a "did you mean"), not by CLI11.
    subcommands.back()->allow_extras();
    names.push_back(subcommands.back()->get_name());
  }
  if (argc > 1) {
    if (auto error = prof::cli::UnknownCommandError(argv[1], names)) {
      spdlog::error("error: {}", *error);
      return 1;
    }
  }

  const CLI::App* parsing = nullptr;  // the subcommand chosen, once known
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    for (size_t i = 0; i < commands.size() && parsing == nullptr; ++i) {
      if (subcommands[i]->parsed()) parsing = subcommands[i];
    }
    spdlog::error("error: {}", prof::cli::ParseErrorMessage(e, parsing));
    for (size_t i = 0; i < commands.size(); ++i) {
      if (subcommands[i] == parsing) return commands[i]->UsageErrorExitCode();
    }
    return 1;
  }
  for (size_t i = 0; i < commands.size(); ++i) {
    if (!subcommands[i]->parsed()) continue;
    if (!commands[i]->TakesRemainingArguments() && !subcommands[i]->remaining().empty()) {
      spdlog::error("error: {}",
                    prof::cli::UnknownOptionError(*subcommands[i], subcommands[i]->remaining()));
      return commands[i]->UsageErrorExitCode();
    }
    return commands[i]->Run();
  }
  spdlog::error("error: {}",
                prof::cli::ParseErrorMessage(CLI::RequiredError::Subcommand(1), nullptr));
  return 1;
}
