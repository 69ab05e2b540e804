// prof: an nsys-style profiler for CUDA and PyTorch programs. Lists the subcommands and sets up the
// console convention described in cli/command.h.
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <memory>
#include <vector>

#include "cli/analyze_command.h"
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
  app.require_subcommand(1);

  std::vector<std::unique_ptr<prof::cli::Command>> commands;
  commands.push_back(prof::cli::MakeProfileCommand());
  commands.push_back(prof::cli::MakeStatsCommand());
  commands.push_back(prof::cli::MakeDiffCommand());
  commands.push_back(prof::cli::MakeAnalyzeCommand());
  commands.push_back(prof::cli::MakeExportCommand());
  commands.push_back(prof::cli::MakeMergeCommand());
  std::vector<CLI::App*> subcommands;
  for (auto& command : commands) subcommands.push_back(command->Register(app));

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    spdlog::error("error: {}", e.what());
    for (size_t i = 0; i < commands.size(); ++i) {
      if (subcommands[i]->parsed()) return commands[i]->UsageErrorExitCode();
    }
    return 1;
  }
  for (size_t i = 0; i < commands.size(); ++i) {
    if (subcommands[i]->parsed()) return commands[i]->Run();
  }
  return 1;
}
