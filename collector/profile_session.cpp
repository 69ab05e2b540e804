#include "collector/profile_session.h"

#include <dlfcn.h>
#include <signal.h>
#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string_view>

#include "collector/capture_controller.h"
#include "collector/capture_metadata.h"
#include "collector/capture_page.h"
#include "collector/capture_router.h"
#include "collector/counter_clock.h"
#include "collector/counter_time_sink.h"
#include "collector/cpu_samples/cpu_sample_rows.h"
#include "collector/cpu_samples/cpu_sampler.h"
#include "collector/cpu_samples/drain_time_reads.h"
#include "collector/gpu_metrics/gpu_metric_rows.h"
#include "collector/gpu_metrics/gpu_metrics_sampler.h"
#include "collector/launcher.h"
#include "collector/perf_events/perf_session.h"
#include "collector/pytorch_environment.h"
#include "collector/session_console.h"
#include "collector/session_server.h"
#include "collector/stream_importer.h"
#include "injection/protocol/clock.h"
#include "injection/protocol/launch_settings.h"
#include "storage/report_writer.h"

extern char** environ;

namespace prof::collector {
namespace {

constexpr int kPollIntervalMs = 100;
constexpr uint64_t kCommitIntervalNs = 1'000'000'000;
// After the program exits, the launcher waits for every process it left behind (as nsys's default
// --wait=all does): until no stream is open for this long, so that a child forked just before the
// program exited still gets to connect.
constexpr uint64_t kQuietLingerNs = 50'000'000;
// Stream bytes waiting on disk at the exit worth a word: ~1 M NVTX ranges, about a second.
constexpr uint64_t kBytesWorthANote = uint64_t{100} << 20;

ChildProcess* g_child_for_signals = nullptr;
// SIGTERM/SIGHUP received so far; one arriving after the program exited ends the wait for the
// processes it left behind.
volatile sig_atomic_t g_stop_requests = 0;

// SIGINTs received so far: the second one ends the wait for the program's data.
volatile sig_atomic_t g_interrupts = 0;

// The signal last forwarded, and how many were. A handler sends it to the program at once; the
// poll loop then sends it to the program's descendants, whose pids a handler cannot look up.
volatile sig_atomic_t g_forwarded_signal = 0;
volatile sig_atomic_t g_forwards = 0;

void Forward(int signal) {
  g_forwarded_signal = signal;
  g_forwards = g_forwards + 1;
  if (g_child_for_signals != nullptr) g_child_for_signals->Signal(signal);
}

void ForwardSignal(int signal) {
  g_stop_requests = g_stop_requests + 1;
  Forward(signal);
}

// A terminal's Ctrl-C (si_code SI_KERNEL) already reaches the whole foreground process group, the
// program included; a SIGINT that a process sent to prof alone (kill: si_code <= 0) goes on to it.
void OnInterrupt(int signal, siginfo_t* info, void* /*context*/) {
  g_interrupts = g_interrupts + 1;
  if (info != nullptr && info->si_code <= 0) Forward(signal);
}

// SIGTERM/SIGHUP sent to prof go on to the program (and, from the poll loop, its descendants),
// which decides when to exit; prof keeps collecting until it does. SIGINT likewise (OnInterrupt),
// and a second one makes prof finish with the data that arrived. SIGQUIT from a terminal already
// reaches the program, so prof ignores it. Installed from the program's start until its reports
// are finished, so that a signal after the program's exit (a Ctrl-C during a long finish) cannot
// kill prof between the two and lose both; restores prof's previous dispositions when destroyed.
class SignalForwarding {
 public:
  explicit SignalForwarding(ChildProcess* child) {
    g_child_for_signals = child;
    struct sigaction forward {};
    forward.sa_handler = ForwardSignal;
    sigemptyset(&forward.sa_mask);
    forward.sa_flags = SA_RESTART;
    struct sigaction interrupt {};
    interrupt.sa_sigaction = OnInterrupt;
    sigemptyset(&interrupt.sa_mask);
    interrupt.sa_flags = SA_RESTART | SA_SIGINFO;
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    for (size_t i = 0; i < kSignals.size(); ++i) {
      const int signal = kSignals[i];
      const struct sigaction* action = &ignore;
      if (signal == SIGTERM || signal == SIGHUP) action = &forward;
      if (signal == SIGINT) action = &interrupt;
      sigaction(signal, action, &previous_[i]);
    }
  }
  ~SignalForwarding() {
    for (size_t i = 0; i < kSignals.size(); ++i) sigaction(kSignals[i], &previous_[i], nullptr);
    g_child_for_signals = nullptr;
  }
  SignalForwarding(const SignalForwarding&) = delete;
  SignalForwarding& operator=(const SignalForwarding&) = delete;

 private:
  static constexpr std::array<int, 4> kSignals = {SIGTERM, SIGHUP, SIGINT, SIGQUIT};
  std::array<struct sigaction, kSignals.size()> previous_{};
};

std::string JoinLibraryPaths(const std::string& dir, uint32_t trace_flags) {
  std::string preload = dir + "/libprof_core.so";
  if (trace_flags & protocol::kTraceOsrt) preload += ":" + dir + "/libprof_osrt.so";
  return preload;
}

// --pytorch: prof's Python directory goes in front of the PYTHONPATH the program would have had
// (an -e value in `ours`, else the inherited one), and PROF_PYTORCH names the modes.
void AddPytorchVariables(const ProfileOptions& options, std::vector<std::string>* ours) {
  std::string pythonpath;
  const char* inherited = options.inherit_environment ? std::getenv("PYTHONPATH") : nullptr;
  if (inherited != nullptr) pythonpath = inherited;
  for (auto it = ours->begin(); it != ours->end(); ++it) {
    if (it->rfind("PYTHONPATH=", 0) == 0) {
      pythonpath = it->substr(std::string("PYTHONPATH=").size());
      ours->erase(it);
      break;
    }
  }
  for (std::string& variable :
       PytorchVariables(options.pytorch_modes, options.library_dir, pythonpath.c_str())) {
    ours->push_back(std::move(variable));
  }
}

// Which processes take CPU samples of themselves (libprof_core's timer signal), in InjectionSettings'
// terms.
struct OwnSampling {
  uint32_t every_process_hz = 0;  // perf_event_open refused, and -s asked for samples
  // A process that runs CPython samples itself, with its Python frames read at each sample's
  // instant: the kernel cannot read them then, and a read from outside comes later.
  uint32_t python_hz = 0;
  // -b auto or dwarf: those samples copy the top of the stack too, for DWARF unwinding in prof.
  uint32_t stack_bytes = 0;

  bool any() const { return every_process_hz != 0 || python_hz != 0; }
};

OwnSampling ChooseOwnSampling(const ProfileOptions& options, bool perf_refused) {
  const SamplingOptions& sampling = options.sampling;
  OwnSampling own;
  if (!sampling.samples) return own;
  if (perf_refused) {
    // Only an explicit -s makes every process take a timer signal (the default goes off instead).
    if (sampling.by_default) return own;
    own.every_process_hz = sampling.frequency_hz;
  }
  if (sampling.python_frames) own.python_hz = sampling.frequency_hz;
  if (sampling.backtrace == perf::PerfBacktrace::kDwarf) {
    own.stack_bytes = perf::PerfSamplingOptions{}.stack_bytes;  // as much as the kernel copies
  }
  return own;
}

// The stacks threads blocked in belong with what sampling and scheduling show: OS-runtime calls
// carry backtraces when both are asked for.
bool TakesOsrtBacktraces(const ProfileOptions& options) {
  return (options.trace_flags & protocol::kTraceOsrt) != 0 && options.sampling.any() &&
         options.osrt_backtrace_threshold_ns != 0;
}

// The child's environment: prof's own variables (listed in *set_by_prof for the report) on top of
// the inherited one, with -e values last so that the user wins.
std::vector<std::string> BuildEnvironment(const ProfileOptions& options, const std::string& socket,
                                          bool nvtx_counter_time, const OwnSampling& own,
                                          std::string* set_by_prof) {
  protocol::InjectionSettings settings;
  settings.nvtx_counter_time = nvtx_counter_time;
  settings.timer_sampling_hz = own.every_process_hz;
  settings.python_sampling_hz = own.python_hz;
  settings.sample_stack_bytes = own.stack_bytes;
  settings.trace_flags = options.trace_flags;
  settings.osrt_threshold_ns = options.osrt_threshold_ns;
  if (TakesOsrtBacktraces(options)) {
    settings.osrt_backtrace_threshold_ns = options.osrt_backtrace_threshold_ns;
    settings.osrt_backtrace_depth = options.osrt_backtrace_depth;
  }
  settings.cuda_graph_trace = options.cuda_graph_trace;
  settings.cuda_memory_usage = options.cuda_memory_usage;
  settings.python_backtrace = options.python_backtrace;
  std::strncpy(settings.socket_path, socket.c_str(), sizeof(settings.socket_path) - 1);

  const char* inherited_preload = std::getenv("LD_PRELOAD");
  std::string preload = JoinLibraryPaths(options.library_dir, options.trace_flags);
  if (inherited_preload != nullptr && *inherited_preload != '\0') {
    preload += std::string(":") + inherited_preload;
  }
  std::vector<std::string> ours = {
      "LD_PRELOAD=" + preload,
      std::string(protocol::kSettingsEnvVar) + "=" + protocol::EncodeSettings(settings)};
  // cuBLAS, cuBLASLt and cuDNN report their API calls as NVTX ranges once their level variable is
  // set (injection/nvtx/library_domains.h); a level the user set already is kept.
  constexpr uint32_t kNvtxUsers =
      protocol::kTraceNvtx | protocol::kTraceCublas | protocol::kTraceCudnn;
  if (options.trace_flags & kNvtxUsers) {
    ours.push_back("NVTX_INJECTION64_PATH=" + options.library_dir + "/libprof_nvtx.so");
  }
  auto set_level = [&ours](const char* name) {
    if (std::getenv(name) == nullptr) ours.push_back(std::string(name) + "=1");
  };
  if (options.trace_flags & protocol::kTraceCublas) {
    set_level("CUBLAS_NVTX_LEVEL");
    set_level("CUBLASLT_NVTX_LEVEL");
  }
  if (options.trace_flags & protocol::kTraceCudnn) set_level("CUDNN_NVTX_LEVEL");
  if ((options.trace_flags & protocol::kTraceCuda) && HasCudaInjection(options.library_dir)) {
    ours.push_back("CUDA_INJECTION64_PATH=" + options.library_dir + "/libprof_cuda.so");
  }
  auto name_of = [](const std::string& entry) { return entry.substr(0, entry.find('=')); };
  for (const auto& entry : options.extra_environment) {
    // The last -e of a name wins, over earlier ones and over prof's own.
    ours.erase(
        std::remove_if(ours.begin(), ours.end(),
                       [&](const std::string& mine) { return name_of(mine) == name_of(entry); }),
        ours.end());
    ours.push_back(entry);
  }
  if (!options.pytorch_modes.empty()) AddPytorchVariables(options, &ours);

  std::vector<std::string> environment;
  for (char** entry = options.inherit_environment ? environ : nullptr;
       entry != nullptr && *entry != nullptr; ++entry) {
    const std::string name = name_of(*entry);
    bool overridden = false;
    for (const auto& mine : ours) overridden |= name_of(mine) == name;
    if (!overridden) environment.emplace_back(*entry);
  }
  set_by_prof->clear();
  for (const auto& mine : ours) {
    environment.push_back(mine);
    *set_by_prof += (set_by_prof->empty() ? "" : "\n") + mine;
  }
  return environment;
}

const std::string* FindVariable(const std::vector<std::string>& environment, const char* name) {
  const std::string prefix = std::string(name) + "=";
  for (const auto& entry : environment) {
    if (entry.compare(0, prefix.size(), prefix) == 0) return &entry;
  }
  return nullptr;
}

int64_t UtcNowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// `signal` to every traced process of the program's tree but the program itself: what a signal to
// its process group reaches, also where a descendant made a group of its own.
void SignalDescendants(SessionServer* server, const ChildProcess& child, int signal) {
  for (uint32_t pid : server->StreamingPids()) {
    if (static_cast<pid_t>(pid) != child.pid()) kill(static_cast<pid_t>(pid), signal);
  }
}

// What prof samples from outside the program, on threads of its own, and the rows they become on
// the collector thread; absent samplers are null.
struct LauncherSamplers {
  CpuSampler* cpu = nullptr;
  CpuSampleRows* cpu_rows = nullptr;
  GpuMetricsSampler* gpu = nullptr;
  GpuMetricRows* gpu_rows = nullptr;

  // Writes what the samplers took since the last call.
  void Import() {
    if (cpu != nullptr) cpu_rows->Import(cpu);
    if (gpu != nullptr) gpu_rows->Import(gpu);
  }
  // Once the process tree is gone (or no longer waited for): the last samples, then the losses.
  void Finish(StreamImporter* importer) {
    if (cpu != nullptr) cpu->Stop();
    if (gpu != nullptr) gpu->Stop();
    Import();
    if (cpu != nullptr) importer->CountLostCpuSamples(cpu->lost_samples(), cpu->lost_records());
    if (gpu != nullptr) importer->CountLostGpuMetricSamples(gpu->lost_samples());
  }
};

// Reads streams until the program exits and then, with --wait=all, until every stream of its
// process tree has ended (or SIGTERM/SIGHUP reaches prof after the exit); with -x false, until
// --duration expires. Runs the capture timers in between and says what happens (SessionConsole);
// a second SIGINT ends it at once, the program running or not.
// Returns when the program exited (CLOCK_MONOTONIC ns).
uint64_t ImportUntilExit(const ProfileOptions& options, SessionServer* server, ChildProcess* child,
                         CaptureRouter* router, StreamSink* sink, LauncherSamplers* samplers,
                         CaptureController* capture, const protocol::CaptureControl& control,
                         uint64_t collection_start, int* exit_code) {
  SessionConsole console(static_cast<uint32_t>(child->pid()));
  StreamImporter& first_importer = *router->reports().front().importer;
  uint64_t last_commit = protocol::MonotonicNowNs();
  bool exited = false;
  uint64_t exit_time = 0;
  uint64_t quiet_since = 0;  // when the last connection closed after the exit
  // -x false: the session lasts --delay + --duration, whenever the program exits.
  const uint64_t collection_end =
      options.stop_on_exit
          ? 0
          : collection_start + options.capture.delay_ns + options.capture.duration_ns;
  sig_atomic_t stop_requests_at_exit = 0;
  sig_atomic_t forwards_done = 0;
  bool commit_failed = false;
  while (true) {
    const int timeout_ms =
        exited ? 10 : capture->PollTimeoutMs(protocol::MonotonicNowNs(), kPollIntervalMs);
    server->PollOnce(timeout_ms, exited ? -1 : child->exit_fd(), sink);
    samplers->Import();
    const uint64_t now = protocol::MonotonicNowNs();
    if (const int kill_signal = capture->Tick(now)) {
      child->Signal(kill_signal);
      SignalDescendants(server, *child, kill_signal);
    }
    if (g_forwards != forwards_done) {
      forwards_done = g_forwards;
      SignalDescendants(server, *child, g_forwarded_signal);
    }
    router->Refresh();
    console.NewWarnings(first_importer);
    if (!exited && child->Reap(false, exit_code)) {
      exited = true;
      exit_time = now;
      stop_requests_at_exit = g_stop_requests;
      capture->ProgramExited();
      SessionConsole::ProgramExited(options.capture, control);
      if (child->death()) console.ProgramDied(*child->death());
      // A burst that outran decoding makes the finish take seconds: say why prof is still busy.
      if (const uint64_t waiting = server->bytes_waiting_on_disk(); waiting >= kBytesWorthANote) {
        spdlog::info("reading {} MB of records that waited on disk while the program ran",
                     waiting >> 20);
      }
    }
    if (g_interrupts >= 2) {
      if (!exited) {
        spdlog::warn(
            "warning: interrupted twice: finishing the report with the data that arrived; "
            "the program (pid {}) was left running",
            child->pid());
        *exit_code = 128 + SIGINT;
        exit_time = now;
      }
      break;
    }
    if (now - last_commit >= kCommitIntervalNs) {
      Status committed = router->Commit();
      // Once: a full disk fails every later commit too, and the final error repeats the reason.
      if (!committed.ok() && !commit_failed) spdlog::warn("warning: {}", committed.message());
      commit_failed = commit_failed || !committed.ok();
      last_commit = now;
    }
    if (!exited) continue;
    if (g_stop_requests != stop_requests_at_exit) break;
    if (collection_end != 0) {
      if (now >= collection_end) break;
      continue;
    }
    const std::vector<uint32_t> streaming = server->StreamingPids();
    const bool primary_streaming =
        std::find(streaming.begin(), streaming.end(), static_cast<uint32_t>(child->pid())) !=
        streaming.end();
    if (options.wait_for_all ? !streaming.empty() : primary_streaming) {
      quiet_since = 0;
      if (options.wait_for_all) console.StillWaiting(now - exit_time, streaming);
    } else if (quiet_since == 0) {
      quiet_since = now;
    }
    if (quiet_since != 0 && now - quiet_since >= kQuietLingerNs) {
      if (!options.wait_for_all) SessionConsole::NotWaiting(streaming);
      break;
    }
  }
  server->CloseAll(sink);
  samplers->Finish(&first_importer);
  console.NewWarnings(first_importer);
  return exit_time;
}

// META_DATA_CAPTURE rows in nsys's spelling, for scripts that read the capture settings from there.
void RecordCaptureSettings(const ProfileOptions& options, int64_t run_duration_ns,
                           storage::ReportWriter* writer) {
  const std::pair<uint32_t, const char*> event_types[] = {{protocol::kTraceOsrt, "OSRuntime"},
                                                          {protocol::kTraceNvtx, "NvtxEvents"},
                                                          {protocol::kTraceCuda, "Cuda"}};
  for (const auto& [flag, name] : event_types) {
    if (options.trace_flags & flag)
      writer->Add<storage::kMetaDataCaptureTable>({"CAPTURE_EVENT_TYPE", name});
  }
  writer->Add<storage::kMetaDataCaptureTable>(
      {"OS_RUNTIME_OPTIONS:DURATION_THRESHOLD_NS", std::to_string(options.osrt_threshold_ns)});
  writer->Add<storage::kMetaDataCaptureTable>({"PROCESS_0:HOW_TO_ATTACH", "LaunchAnother"});
  writer->Add<storage::kMetaDataCaptureTable>({"PROCESS_0:COMMAND", options.command.at(0)});
  for (size_t i = 1; i < options.command.size(); ++i) {
    writer->Add<storage::kMetaDataCaptureTable>(
        {"PROCESS_0:ARGUMENT_" + std::to_string(i - 1), options.command[i]});
  }
  char working_dir[4096] = {};
  if (getcwd(working_dir, sizeof(working_dir)) != nullptr) {
    writer->Add<storage::kMetaDataCaptureTable>({"PROCESS_0:WORKING_DIR", working_dir});
  }
  auto flag_text = [&](uint32_t flag) { return options.trace_flags & flag ? "true" : "false"; };
  writer->Add<storage::kMetaDataCaptureTable>(
      {"PROCESS_0:COLLECT_NVTX_TRACE", flag_text(protocol::kTraceNvtx)});
  writer->Add<storage::kMetaDataCaptureTable>(
      {"PROCESS_0:COLLECT_CUDA_TRACE", flag_text(protocol::kTraceCuda)});
  writer->Add<storage::kMetaDataCaptureTable>(
      {"RUN_DURATION_MS", std::to_string(run_duration_ns / 1000000)});
  writer->Add<storage::kMetaDataCaptureTable>({"INCLUDE_CHILDREN", "true"});
}

constexpr const char* kNoCudaDriver =
    "this machine has no CUDA driver (libcuda.so.1 cannot be loaded)";

// prof's collection gives way to the program when the two compete for cores: this (the collector)
// thread and the report's writer threads, started after this call and so inheriting it, run at
// this much higher nice. The prof-reader thread, started before, keeps its priority: it empties
// the program's rings, and a reader that falls behind makes the program drop records, while the
// rest only lets rows wait in memory or the spill file. Linux's nice is per thread; the program,
// forked before this call, keeps prof's.
constexpr int kCollectionNice = 10;

void YieldCoresToTheProgram() {
  const id_t thread = static_cast<id_t>(gettid());
  errno = 0;
  const int nice = getpriority(PRIO_PROCESS, thread);
  if (errno == 0) setpriority(PRIO_PROCESS, thread, nice + kCollectionNice);
}

// Whether a CUDA program could run here at all: without the driver library the injection is never
// loaded, so the report's missing CUDA rows need a word from prof.
bool CudaDriverLoadable() {
  void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (driver == nullptr) return false;
  dlclose(driver);
  return true;
}

// About a second of inserting on the H200 host.
constexpr uint64_t kRowsWorthANote = 1000000;

// Finishes every report of the session (one per window with repeat) with the same session facts
// and its own importer's counts; returns the first failure, the reports that failed left out.
Status FinishReports(const ProfileOptions& options, storage::SessionInfo session,
                     uint64_t session_start, CaptureRouter* router, ProfileResult* result) {
  Status status = Status::Ok();
  for (size_t i = 0; i < router->reports().size(); ++i) {
    CaptureRouter::Report& report = router->reports()[i];
    StreamImporter& importer = *report.importer;
    importer.WriteDataProblems(session.duration_ns);
    const DataProblemCounts problems = importer.DataProblems();
    session.data_problems = SessionCounters(problems);
    result->dropped_records += problems[DataProblem::kDroppedRecords];
    result->torn_records += problems[DataProblem::kTornRecords];
    if (i == 0 && options.python_backtrace && importer.cuda_tracing_started() &&
        importer.python_stacks() == 0 && importer.python_warnings().empty()) {
      spdlog::warn(
          "warning: --python-backtrace=cuda: no CUDA call had a Python stack (no Python code "
          "made CUDA calls)");
    }
    RecordCaptureSettings(options, session.duration_ns, report.writer.get());
    RecordCaptureControl(options.capture, ReportWindows(*router, i, options.capture.repeats()),
                         session_start, report.writer.get());
    // A burst that outran SQLite makes the finish take seconds: say why prof is still busy.
    if (const uint64_t waiting = report.writer->RowsWaitingOnDisk(); waiting >= kRowsWorthANote) {
      spdlog::info("writing {} rows that waited on disk while the program ran", waiting);
    }
    Status finished = report.writer->Finish(session);
    if (finished.ok()) {
      result->report_paths.push_back(report.path);
      result->report_events.push_back(report.writer->EventCounts());
    } else if (status.ok()) {
      status = finished;
    }
  }
  return status;
}

// Whether NVTX push/pop ranges carry CPU counter ticks (collector/counter_clock.h): where the
// kernel keeps time with the counter, and not with --capture-range=nvtx, whose window times the
// injection takes from the ranges themselves. PROF_NVTX_CLOCK=monotonic keeps CLOCK_MONOTONIC
// (to compare the two).
bool StampsNvtxRangesWithCounter(const ProfileOptions& options) {
  const char* forced = std::getenv("PROF_NVTX_CLOCK");
  if (forced != nullptr && std::string_view(forced) == "monotonic") return false;
  constexpr uint32_t kNvtxUsers =
      protocol::kTraceNvtx | protocol::kTraceCublas | protocol::kTraceCudnn;
  if ((options.trace_flags & kNvtxUsers) == 0) return false;
  if (options.capture.range == protocol::CaptureRange::kNvtx) return false;
  std::string why_not;
  return CounterClock::KernelKeepsTimeWithCounter(&why_not);
}

}  // namespace

bool HasCudaInjection(const std::string& library_dir) {
  return access((library_dir + "/libprof_cuda.so").c_str(), R_OK) == 0;
}

Status RunProfileSession(const ProfileOptions& options, ProfileResult* result) {
  const uint64_t session_start = protocol::MonotonicNowNs();
  const int64_t utc_start = UtcNowNs();
  // Who takes the CPU samples: the kernel, from outside the program, where perf_event_open is
  // allowed; else, when -s asked for them, each process of the program, with a CPU-time timer
  // signal (libprof_core); else (the default) nobody.
  std::string perf_refusal;
  if (options.sampling.any()) {
    const Status probe = perf::PerfSession::Probe();
    if (!probe.ok()) perf_refusal = probe.message();
  }
  const OwnSampling own_sampling = ChooseOwnSampling(options, !perf_refusal.empty());
  // What names the program's own samples and its calls' backtraces is read as the reader thread
  // drains them.
  std::unique_ptr<DrainTimeReads> drain_time_reads;
  if (own_sampling.any() || TakesOsrtBacktraces(options))
    drain_time_reads = std::make_unique<DrainTimeReads>();
  SelfSampledProcesses self_sampled;
  PROF_ASSIGN_OR_RETURN(
      std::unique_ptr<SessionServer> server,
      SessionServer::Listen(session_start, drain_time_reads.get(), &self_sampled));

  storage::SessionInfo session;
  LaunchSpec spec;
  spec.descriptor_limit = RaiseDescriptorLimit();
  const bool nvtx_counter_time = StampsNvtxRangesWithCounter(options);
  spec.environment = BuildEnvironment(options, server->socket_path(), nvtx_counter_time,
                                      own_sampling, &session.environment_set);
  spec.discard_output = !options.show_output;
  const std::string* path_variable = FindVariable(spec.environment, "PATH");
  std::string program;
  PROF_RETURN_IF_ERROR(ResolveProgram(options.command.at(0),
                                      path_variable ? path_variable->substr(5) : "", &program));
  spec.argv = options.command;
  spec.argv[0] = program;

  std::unique_ptr<CapturePage> capture_page;
  PROF_RETURN_IF_ERROR(CapturePage::Create(server->socket_path(), options.capture, &capture_page));

  ChildProcess child;
  PROF_RETURN_IF_ERROR(child.Spawn(spec));
  // Before prof's threads give way to the program: prof-sampler keeps prof's priority.
  std::unique_ptr<CpuSampler> sampler;
  std::string sampling_problem;
  if (options.sampling.any() && perf_refusal.empty()) {
    StatusOr<std::unique_ptr<CpuSampler>> opened =
        CpuSampler::Open(child.pid(), options.sampling, &self_sampled);
    if (opened.ok()) {
      sampler = std::move(opened).value();
    } else {
      sampling_problem = opened.status().message();
    }
  }
  // Also before: prof-gpumetrics keeps prof's priority, as a decoder that falls behind lets the
  // GPU's sampling buffer overflow. Loading the driver takes a moment; the program is still held.
  std::vector<std::string> gpu_metrics_notes;
  std::unique_ptr<GpuMetricsSampler> gpu_sampler;
  if (options.gpu_metrics.any()) {
    gpu_sampler = StartGpuMetrics(options.gpu_metrics, options.gpu_metrics_api, &gpu_metrics_notes);
  }
  YieldCoresToTheProgram();
  const bool repeats = options.capture.repeats();
  CaptureRouter router(
      capture_page->control(), repeats,
      [&](uint32_t index, std::string* path, std::unique_ptr<storage::ReportWriter>* writer) {
        std::unique_ptr<storage::ReportNameClaim> claim;
        PROF_RETURN_IF_ERROR(
            options.claim_report_name(child.pid(), repeats ? index + 1 : 0, path, &claim));
        PROF_ASSIGN_OR_RETURN(*writer, storage::ReportWriter::Create(std::move(claim), *path));
        return Status::Ok();
      });
  CpuSampleRows sample_rows(&router, session_start, &self_sampled);
  std::optional<GpuMetricRows> gpu_rows;
  if (gpu_sampler != nullptr) gpu_rows.emplace(&router, &gpu_sampler->gpus(), session_start);
  LauncherSamplers samplers{sampler.get(), &sample_rows, gpu_sampler.get(),
                            gpu_rows ? &*gpu_rows : nullptr};
  std::optional<TimerSampleRows> timer_sample_rows;
  if (own_sampling.any()) {
    timer_sample_rows.emplace(&sample_rows, drain_time_reads.get());
    router.SetCpuSampleSink(&*timer_sample_rows);
  }
  router.SetDrainTimeReads(drain_time_reads.get());
  Status status = router.OpenFirstReport();
  if (!status.ok()) {
    child.Cancel();
    return status;
  }
  server->SpillTo(storage::ReportDirectory(router.reports().front().path));
  SessionConsole::Started(options.trace_text, options.command_line, child.pid(),
                          router.reports().front().path);
  if ((options.trace_flags & protocol::kTraceCuda) && !HasCudaInjection(options.library_dir)) {
    spdlog::warn("warning: CUDA tracing is not available in this build; tracing the rest");
  } else if ((options.trace_flags & protocol::kTraceCuda) && !CudaDriverLoadable()) {
    spdlog::warn("warning: CUDA is not traced: {}; tracing the rest", kNoCudaDriver);
  }
  if (!perf_refusal.empty()) {
    spdlog::warn("warning: {}: {}", perf_refusal,
                 own_sampling.every_process_hz != 0
                     ? "the program samples itself (a CPU-time timer signal); no --cpuctxsw"
                 : options.sampling.by_default
                     ? "CPU sampling and --cpuctxsw are off (-s process-tree samples with a timer "
                       "signal instead)"
                     : "--cpuctxsw is off");
  } else if (!sampling_problem.empty()) {
    spdlog::warn("warning: CPU sampling is off: {}; tracing the rest", sampling_problem);
  } else if (sampler != nullptr) {
    for (const std::string& note : sampler->notes()) spdlog::warn("warning: {}", note);
  }
  for (const std::string& note : gpu_metrics_notes) spdlog::warn("warning: {}", note);
  CaptureController capture(options.capture, capture_page->control());
  std::optional<CounterTimeSink> counter_time;
  StreamSink* sink = &router;
  if (nvtx_counter_time) sink = &counter_time.emplace(&router);
  uint64_t exit_time = 0;
  {
    SignalForwarding forwarding(&child);
    const uint64_t collection_start = protocol::MonotonicNowNs();
    capture.Start(collection_start);
    if (!(status = child.Release()).ok()) {
      router.AbandonAll();
      return status;
    }
    exit_time = ImportUntilExit(options, server.get(), &child, &router, sink, &samplers, &capture,
                                *capture_page->control(), collection_start, &result->exit_code);
    // The program's death is in the report whether or not the reader read it before prof reaped
    // the program (ProcessTracker keeps the first telling).
    if (child.death()) {
      router.reports().back().importer->processes().NoteKilled(
          static_cast<uint32_t>(child.pid()), *child.death(),
          static_cast<int64_t>(exit_time - session_start));
    }
    router.Refresh();
    if (gpu_rows) gpu_rows->DescribeGpus();

    session.prof_version = PROF_VERSION;
    session.command_line = options.command_line;
    session.trace_options = options.trace_text;
    session.osrt_threshold_ns = static_cast<int64_t>(options.osrt_threshold_ns);
    session.exit_status = result->exit_code;
    session.duration_ns = static_cast<int64_t>(exit_time - session_start);
    session.utc_epoch_ns_at_start = utc_start;
    status = FinishReports(options, session, session_start, &router, result);
  }
  result->finish_ns = protocol::MonotonicNowNs() - exit_time;
  if (!result->report_paths.empty()) result->report_path = result->report_paths.front();
  result->descriptors_exhausted = server->descriptors_exhausted();
  return status.ok() ? router.report_error() : status;
}

}  // namespace prof::collector
