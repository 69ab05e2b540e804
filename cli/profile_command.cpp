#include "cli/profile_command.h"

#include <signal.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "cli/capture_flags.h"
#include "cli/report_namer.h"
#include "cli/trace_options.h"
#include "collector/executable_linkage.h"
#include "collector/launcher.h"
#include "collector/profile_session.h"
#include "injection/protocol/launch_settings.h"
#include "stats/stats_runner.h"

namespace prof::cli {
namespace {

constexpr const char* kExamples = R"(
Examples:
  prof profile python train.py
      Trace CUDA, NVTX and OS runtime calls; write report1.sqlite (or the next free name).
  prof profile -t nvtx,osrt -o step_%p --stats=true ./train --epochs 1
      Write step_<pid>.sqlite and print the default summary reports when the program ends.
  prof profile -f true -e OMP_NUM_THREADS=4 -o run python train.py
      Overwrite run.sqlite and set a variable in the program's environment.)";

// Where the injection libraries are: lib/ next to the bin/ that holds this executable.
Status FindLibraryDir(std::string* dir) {
  std::error_code error;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return Status::Error("cannot locate the prof executable: " + error.message());
  const auto lib = exe.parent_path().parent_path() / "lib";
  if (!std::filesystem::exists(lib / "libprof_core.so", error)) {
    return Status::Error("prof's injection libraries are missing from " + lib.string());
  }
  *dir = lib.string();
  return Status::Ok();
}

// CLI11 reads "-1" into a uint64 as its largest value and saturates overflowing numbers, so the
// text is checked first: decimal digits, at most INT64_MAX (the report stores a signed number).
std::string CheckNanoseconds(const std::string& text) {
  uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [parsed_end, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc() || parsed_end != end ||
      value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return "expected a number of ns from 0 to " +
           std::to_string(std::numeric_limits<int64_t>::max()) + ", got '" + text + "'";
  }
  return "";
}

// The program is found as the session will find it: through the PATH of its environment.
void WarnIfStaticallyLinked(const std::string& program,
                            const std::vector<std::string>& extra_environment) {
  const char* inherited_path = std::getenv("PATH");
  std::string path_variable = inherited_path != nullptr ? inherited_path : "";
  for (const std::string& entry : extra_environment) {
    if (entry.rfind("PATH=", 0) == 0) path_variable = entry.substr(5);
  }
  std::string resolved;
  // A program that cannot be found is the session's error to report.
  if (!collector::ResolveProgram(program, path_variable, &resolved).ok()) return;
  if (const auto executable = collector::StaticallyLinkedExecutable(resolved)) {
    spdlog::warn(
        "warning: {} is statically linked: its own calls are not traced (processes it "
        "starts are)",
        *executable);
  }
}

std::string ShellQuote(const std::string& word) {
  if (!word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                              "0123456789-_./=:,+@%") == std::string::npos) {
    return word;
  }
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

class ProfileCommand : public Command {
 public:
  CLI::App* Register(CLI::App& app) override {
    CLI::App* sub =
        app.add_subcommand("profile", "Run a program and write a report of its activity.");
    sub->footer(kExamples);
    sub->add_option("-t,--trace", trace_,
                    "APIs to trace: comma list of cuda, nvtx, osrt, cublas, cudnn, nccl (NCCL's "
                    "NVTX ranges), or none")
        ->default_str(kDefaultTrace);
    sub->add_option(
        "-o,--output", output_,
        "Report file name; %p = pid, %h = host name, %q{VAR} = environment variable, "
        "%% = %; .sqlite is appended when missing (default: report1.sqlite, report2...)");
    sub->add_option("-f,--force-overwrite", force_overwrite_,
                    "Overwrite an existing report (true|false)")
        ->default_str("false");
    sub->add_option("--stats", stats_, "Print the default summary reports at the end (true|false)")
        ->default_str("false");
    sub->add_option("--osrt-threshold", osrt_threshold_ns_,
                    "Record OS runtime calls lasting at least this many ns")
        ->check(CheckNanoseconds)
        ->default_str("1000");
    sub->add_option("-e,--env-var", environment_, "Set NAME=value in the program's environment")
        ->allow_extra_args(false)  // one value per -e: the program and its arguments follow
        ->check([](const std::string& entry) {
          return entry.find('=') == std::string::npos || entry.front() == '='
                     ? std::string("expected NAME=value, got '" + entry + "'")
                     : std::string();
        });
    sub->add_option(
           "--cuda-graph-trace", cuda_graph_trace_,
           "CUDA graphs: one row per graph launch (graph) or every node's operation (node)")
        ->check(CLI::IsMember({"graph", "node"}))
        ->default_str("graph");
    sub->add_option("--cuda-memory-usage", cuda_memory_usage_,
                    "Record GPU memory allocations and frees over time (true|false)")
        ->default_str("false");
    sub->add_option("--python-backtrace", python_backtrace_,
                    "Python stack of each CUDA call that launches work or blocks (cuda|none)")
        ->check(CLI::IsMember({"cuda", "none", "false"}))
        ->default_str("none");
    RegisterCaptureFlags(sub, &capture_flags_);
    sub->add_flag("-q,--quiet", quiet_, "Print only errors (the program's output is untouched)");
    sub->prefix_command();  // the first positional is the program; the rest are its arguments
    sub_ = sub;
    return sub;
  }

  int Run() override {
    if (quiet_) spdlog::set_level(spdlog::level::err);
    // A closed stdout or stderr (`prof profile ... | head`) must not kill prof before the report is
    // written and the program's exit code returned. The program gets the default back (launcher).
    signal(SIGPIPE, SIG_IGN);
    collector::ProfileOptions options;
    options.command = sub_->remaining();
    if (options.command.empty())
      return Fail(Status::Error("no program given; see prof profile --help"));
    if (options.command.front().rfind('-', 0) == 0) {
      return Fail(
          Status::Error("unknown option " + options.command.front() + "; see prof profile --help"));
    }
    Status status = ParseTraceList(trace_, &options.trace_flags);
    if (!status.ok()) return Fail(status);
    if (!(status = ParseCaptureFlags(capture_flags_, &options.capture)).ok()) return Fail(status);
    if (!(status = FindLibraryDir(&options.library_dir)).ok()) return Fail(status);
    if (options.trace_flags != 0) WarnIfStaticallyLinked(options.command.front(), environment_);

    options.trace_text = trace_;
    options.osrt_threshold_ns = osrt_threshold_ns_;
    options.cuda_graph_trace = cuda_graph_trace_ == "node" ? protocol::CudaGraphTrace::kNode
                                                           : protocol::CudaGraphTrace::kGraph;
    options.cuda_memory_usage = cuda_memory_usage_;
    options.python_backtrace = python_backtrace_ == "cuda";
    options.extra_environment = environment_;
    for (const auto& word : options.command) {
      options.command_line += (options.command_line.empty() ? "" : " ") + ShellQuote(word);
    }
    auto namer = std::make_shared<ReportNamer>(output_, force_overwrite_);
    options.claim_report_name = [namer](pid_t pid, uint32_t number, std::string* path,
                                        std::unique_ptr<storage::ReportNameClaim>* claim) {
      return namer->Claim(pid, number, path, claim);
    };

    collector::ProfileResult result;
    status = collector::RunProfileSession(options, &result);
    if (!status.ok()) {
      // Repeated captures may have written some reports before one failed.
      for (const std::string& path : result.report_paths)
        spdlog::info("report written to {}", path);
      spdlog::error("error: {}", status.message());
      // The program's failure matters more to scripts than prof's own, but both are failures.
      return result.exit_code != 0 ? result.exit_code : 1;
    }
    if ((options.trace_flags & protocol::kTraceCuda) &&
        !collector::HasCudaInjection(options.library_dir)) {
      spdlog::warn("warning: CUDA tracing is not available in this build; tracing the rest");
    }
    for (const std::string& warning : result.python_warnings) spdlog::warn("warning: {}", warning);
    for (const std::string& warning : result.cuda_warnings) {
      spdlog::warn("warning: CUDA is not traced: {}; tracing the rest", warning);
    }
    if (result.descriptors_exhausted) {
      spdlog::warn(
          "warning: prof ran out of file descriptors (ulimit -n), so traced processes "
          "waited to be read; raise the limit if events were dropped");
    }
    if (result.dropped_records > 0) {
      spdlog::warn("warning: {} events were dropped because prof could not keep up",
                   result.dropped_records);
    }
    if (result.torn_records > 0) {
      spdlog::warn("warning: {} events were cut by the death of the process writing them",
                   result.torn_records);
    }
    for (const std::string& path : result.report_paths) spdlog::info("report written to {}", path);
    if (stats_) PrintStats(result.report_path);
    return result.exit_code;
  }

 private:
  int Fail(const Status& status) {
    spdlog::error("error: {}", status.message());
    return 1;
  }

  void PrintStats(const std::string& report_path) {
    stats::StatsOptions options;
    options.quiet = quiet_;
    Status status = stats::RunStats(report_path, options);
    if (!status.ok()) spdlog::error("error: {}", status.message());
  }

  CLI::App* sub_ = nullptr;
  std::string trace_ = kDefaultTrace;
  std::string output_;
  bool force_overwrite_ = false;
  bool stats_ = false;
  uint64_t osrt_threshold_ns_ = 1000;
  std::string cuda_graph_trace_ = "graph";
  bool cuda_memory_usage_ = false;
  std::string python_backtrace_ = "none";
  std::vector<std::string> environment_;
  bool quiet_ = false;
  CaptureFlags capture_flags_;
};

}  // namespace

std::unique_ptr<Command> MakeProfileCommand() { return std::make_unique<ProfileCommand>(); }

}  // namespace prof::cli
