#include "cli/profile_command.h"

#include <signal.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <memory>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "cli/capture_flags.h"
#include "cli/command_line_errors.h"
#include "cli/gpu_metrics_flags.h"
#include "cli/nsys_profile_options.h"
#include "cli/pytorch_flags.h"
#include "cli/report_namer.h"
#include "cli/sampling_flags.h"
#include "cli/trace_options.h"
#include "collector/executable_linkage.h"
#ifdef PROF_HAVE_CUPTI
#include "collector/gpu_metrics/cupti_pm_sampling.h"
#endif
#include "collector/launcher.h"
#include "collector/profile_session.h"
#include "common/number_text.h"
#include "injection/protocol/launch_settings.h"
#include "injection/protocol/record_format.h"
#include "stats/stats_runner.h"

namespace prof::cli {
namespace {

constexpr const char* kExamples = R"(
Examples:
  prof profile python train.py
      Trace CUDA, NVTX and OS runtime calls; write report1.sqlite (or the next free name).
  prof profile -t nvtx,osrt -o step_%p --stats=true ./train --epochs 1
      Write step_<pid>.sqlite and print the default summary reports when the program ends.
  prof profile -f true -e OMP_NUM_THREADS=4,CUDA_LAUNCH_BLOCKING=0 -o run python train.py
      Overwrite run.sqlite and set two variables in the program's environment.
  prof profile -w true -t cuda,nvtx,osrt,cudnn,cublas -s none -o out -f true -x true python train.py
      nsys command lines run unchanged: nsys's options are implemented, accepted where they ask
      for nothing prof lacks (-s none), or refused in one line (docs/nsys-compatibility.md).
  prof profile -- sh -c 'python train.py > log'
      -- ends prof's options.)";

// The CUDA driver and CUPTI behind GPU metrics, where prof was built with CUPTI's headers.
collector::PmSamplingApiFactory GpuMetricsLibraries() {
#ifdef PROF_HAVE_CUPTI
  return collector::MakeCuptiPmSamplingApi;
#else
  return nullptr;
#endif
}

// "Usage: prof profile [options] <program> [args...]": the program and its arguments follow
// prof's options, which CLI11's generated usage line does not show.
class ProfileFormatter : public CLI::Formatter {
 public:
  std::string make_usage(const CLI::App* /*app*/, std::string /*name*/) const override {
    return "Usage: prof profile [options] <program> [args...]\n";
  }
  // nsys's options prof accepts only for nsys's command lines would bury prof's own.
  std::string make_group(std::string group, bool is_positional,
                         std::vector<const CLI::Option*> options) const override {
    if (group == NsysProfileOptions::kGroup) return "";
    return CLI::Formatter::make_group(std::move(group), is_positional, std::move(options));
  }
};

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

// "report written to r.sqlite (1.2 MB): 12,345 events: 10,000 NVTX events, 2,345 OS runtime
// calls".
std::string ReportSummary(const std::string& path, const std::vector<storage::EventCount>& events) {
  std::error_code error;
  const uintmax_t size = std::filesystem::file_size(path, error);
  std::string summary = "report written to " + path;
  if (!error) summary += " (" + ByteSizeText(size) + ")";
  uint64_t total = 0;
  std::string kinds;
  for (const storage::EventCount& kind : events) {
    total += kind.rows;
    kinds += (kinds.empty() ? "" : ", ") + CountText(kind.rows) + " " + kind.noun;
  }
  if (total == 0) return summary + ": no events";
  return summary + ": " + CountText(total) + " events" +
         (events.size() > 1 ? ": " + kinds : " (" + kinds + ")");
}

class ProfileCommand : public Command {
 public:
  CLI::App* Register(CLI::App& app) override {
    CLI::App* sub =
        app.add_subcommand("profile", "Run a program and write a report of its activity.");
    sub->footer(kExamples);
    sub->formatter(std::make_shared<ProfileFormatter>());
    sub->add_option("-t,--trace", trace_,
                    "APIs to trace: comma list of cuda, nvtx, osrt, cublas, cudnn, nccl (NCCL's "
                    "NVTX ranges), or none")
        ->default_str(kDefaultTrace);
    sub->add_option(
        "-o,--output", output_,
        "Report file name; %p = pid, %h = host name, %q{VAR} = environment variable, "
        "%% = %; .sqlite is appended when missing (default: report1.sqlite, report2...)");
    sub->add_option("-f,--force-overwrite", force_overwrite_text_,
                    "Overwrite an existing report (true|false)")
        ->default_str("false");
    sub->add_option("--stats", stats_text_,
                    "Print the default summary reports at the end (true|false)")
        ->default_str("false");
    sub->add_option("-w,--show-output", show_output_,
                    "Show the program's stdout and stderr (true); false sends them to /dev/null")
        ->default_str("true");
    sub->add_option("-x,--stop-on-exit", stop_on_exit_,
                    "Stop when the program exits (true); false collects until --duration expires")
        ->default_str("true");
    sub->add_option("--wait", wait_,
                    "After the program exits, wait for the processes it left behind (all) or not "
                    "(primary)")
        ->check(CLI::IsMember({"all", "primary"}))
        ->default_str("all");
    sub->add_option("-n,--inherit-environment", inherit_environment_,
                    "Give the program prof's environment (true), or only prof's and -e's "
                    "variables (false)")
        ->default_str("true");
    sub->add_option("--trace-fork-before-exec", trace_fork_before_exec_,
                    "Accepted for nsys (true|false): prof always traces forked children")
        ->default_str("false");
    sub->add_option("--osrt-threshold", osrt_threshold_ns_,
                    "Record OS runtime calls lasting at least this many ns")
        ->check(CheckNanoseconds)
        ->default_str("1000");
    sub->add_option("--osrt-backtrace-threshold", osrt_backtrace_threshold_ns_,
                    "With -s or --cpuctxsw: OS runtime calls lasting at least this many ns carry "
                    "the stack they were made from (OSRT_CALLCHAINS); 0: none")
        ->check(CheckNanoseconds)
        ->default_str("80000");
    sub->add_option("--osrt-backtrace-depth", osrt_backtrace_depth_,
                    "Native frames of such a stack, at most (Python frames as many)")
        ->check(CLI::Range(1, static_cast<int>(protocol::kMaxOsrtBacktraceDepth)))
        ->default_str("24");
    sub->add_option("-e,--env-var", environment_,
                    "Set NAME=value in the program's environment; A=B,C=D sets two")
        ->allow_extra_args(false)  // one value per -e: the program and its arguments follow
        ->delimiter(',')
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
    RegisterSamplingFlags(sub, &sampling_flags_);
    RegisterPytorchFlag(sub, &pytorch_);
    RegisterGpuMetricsFlags(sub, &gpu_metrics_flags_);
    nsys_options_.Register(sub);
    sub->add_flag("-q,--quiet", quiet_, "Print only errors (the program's output is untouched)");
    sub->prefix_command();  // the first positional is the program; the rest are its arguments
    // After `--`, CLI11 hands a subcommand's words to its parent unless the subcommand still
    // expects a positional. This one expects one but takes no word (its check refuses them all),
    // so `--` and everything after it stay in remaining(), in order, for Run().
    sub->add_option("program", unused_positional_)
        ->check([](const std::string&) { return std::string("the program stays in remaining()"); })
        ->group("");
    sub->validate_positionals();
    sub_ = sub;
    return sub;
  }

  bool TakesRemainingArguments() const override { return true; }

  int Run() override {
    if (quiet_) spdlog::set_level(spdlog::level::err);
    // A closed stdout or stderr (`prof profile ... | head`) must not kill prof before the report is
    // written and the program's exit code returned. The program gets the default back (launcher).
    signal(SIGPIPE, SIG_IGN);
    collector::ProfileOptions options;
    options.gpu_metrics_api = GpuMetricsLibraries();
    if (AsksForGpuMetricsHelp(gpu_metrics_flags_)) {
      std::fputs(GpuMetricsHelp(gpu_metrics_flags_, options.gpu_metrics_api).c_str(), stdout);
      return 0;
    }
    options.command = sub_->remaining();
    // `--` ends prof's options: what follows is the program, even when it starts with '-'.
    const bool after_separator = !options.command.empty() && options.command.front() == "--";
    if (after_separator) options.command.erase(options.command.begin());
    if (options.command.empty())
      return Fail(
          Status::Error("no program given; usage: prof profile [options] <program> "
                        "[args...]"));
    if (!after_separator && options.command.front().rfind('-', 0) == 0) {
      return Fail(Status::Error(UnknownOptionError(*sub_, options.command)));
    }
    Status status = ParseSettings(&options);
    if (!status.ok()) return Fail(status);
    if (!(status = FindLibraryDir(&options.library_dir)).ok()) return Fail(status);
    if (options.trace_flags != 0) WarnIfStaticallyLinked(options.command.front(), environment_);
    if (nsys_options_.Value("--export") == "sqlite") {
      spdlog::info("--export=sqlite: the report is an SQLite file already; no second file");
    }

    options.trace_text = trace_;
    options.osrt_threshold_ns = osrt_threshold_ns_;
    options.osrt_backtrace_threshold_ns = osrt_backtrace_threshold_ns_;
    options.osrt_backtrace_depth = osrt_backtrace_depth_;
    options.cuda_graph_trace = cuda_graph_trace_ == "node" ? protocol::CudaGraphTrace::kNode
                                                           : protocol::CudaGraphTrace::kGraph;
    options.python_backtrace = python_backtrace_ == "cuda";
    options.extra_environment = environment_;
    options.wait_for_all = wait_ == "all";
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
    for (size_t i = 0; i < result.report_paths.size(); ++i) {
      spdlog::info("{}", ReportSummary(result.report_paths[i], result.report_events[i]));
    }
    spdlog::info("finished {:.1f} s after the program exited", result.finish_ns / 1e9);
    if (stats_) PrintStats(result.report_path);
    return result.exit_code;
  }

 private:
  // Turns the options' text into `options`; the first bad value is the error.
  Status ParseSettings(collector::ProfileOptions* options) {
    PROF_RETURN_IF_ERROR(nsys_options_.Check());
    PROF_RETURN_IF_ERROR(ParseTraceList(trace_, &options->trace_flags));
    PROF_RETURN_IF_ERROR(ParseCaptureFlags(capture_flags_, &options->capture));
    PROF_RETURN_IF_ERROR(ParseSamplingFlags(sampling_flags_, &options->sampling));
    PROF_RETURN_IF_ERROR(ParsePytorchModes(pytorch_, &options->pytorch_modes));
    // The PyTorch ranges are NVTX ranges: without NVTX tracing they would go nowhere.
    if (!options->pytorch_modes.empty()) options->trace_flags |= protocol::kTraceNvtx;
    PROF_RETURN_IF_ERROR(ParseGpuMetricsFlags(gpu_metrics_flags_, &options->gpu_metrics));
    bool trace_fork_before_exec = false;  // prof traces forked children either way
    const struct {
      const char* option;
      const std::string& text;
      bool* value;
    } booleans[] = {{"--force-overwrite", force_overwrite_text_, &force_overwrite_},
                    {"--stats", stats_text_, &stats_},
                    {"--cuda-memory-usage", cuda_memory_usage_, &options->cuda_memory_usage},
                    {"--show-output", show_output_, &options->show_output},
                    {"--stop-on-exit", stop_on_exit_, &options->stop_on_exit},
                    {"--inherit-environment", inherit_environment_, &options->inherit_environment},
                    {"--trace-fork-before-exec", trace_fork_before_exec_, &trace_fork_before_exec}};
    for (const auto& boolean : booleans) {
      std::string error;
      if (!ParseBoolean(boolean.option, boolean.text, boolean.value, &error)) {
        return Status::Error(error);
      }
    }
    if (!options->stop_on_exit && options->capture.duration_ns == 0) {
      return Status::Error(
          "--stop-on-exit=false needs --duration: prof has no `nsys stop` to end the session");
    }
    return Status::Ok();
  }

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
  std::string force_overwrite_text_ = "false";
  bool force_overwrite_ = false;
  std::string stats_text_ = "false";
  bool stats_ = false;
  std::string show_output_ = "true";
  std::string stop_on_exit_ = "true";
  std::string wait_ = "all";
  std::string inherit_environment_ = "true";
  std::string trace_fork_before_exec_ = "false";
  uint64_t osrt_threshold_ns_ = 1000;
  uint64_t osrt_backtrace_threshold_ns_ = 80000;
  uint32_t osrt_backtrace_depth_ = 24;
  std::string cuda_graph_trace_ = "graph";
  std::string cuda_memory_usage_ = "false";
  std::string python_backtrace_ = "none";
  std::vector<std::string> environment_;
  bool quiet_ = false;
  CaptureFlags capture_flags_;
  SamplingFlags sampling_flags_;
  std::string pytorch_ = "none";
  GpuMetricsFlags gpu_metrics_flags_;
  NsysProfileOptions nsys_options_;
  std::string unused_positional_;
};

}  // namespace

std::unique_ptr<Command> MakeProfileCommand() { return std::make_unique<ProfileCommand>(); }

}  // namespace prof::cli
