// One `prof profile` run: start the program with prof's libraries injected, import its record
// streams into the report while it runs, finish the report when it exits.
//
// Guarantees: the program's stdin/stdout/stderr are untouched; its exit code (or 128+signal) is
// returned whatever happens to the report; the report appears under its final name only when
// complete; nothing is written before the program's launch is known to succeed up to exec.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "collector/capture_options.h"
#include "collector/cpu_samples/sampling_options.h"
#include "collector/gpu_metrics/gpu_metrics_options.h"
#include "collector/gpu_metrics/gpu_metrics_sampler.h"
#include "common/status.h"
#include "injection/protocol/launch_settings.h"
#include "storage/report_name_claim.h"
#include "storage/report_writer.h"

namespace prof::collector {

struct ProfileOptions {
  std::vector<std::string> command;  // the program and its arguments
  uint32_t trace_flags = 0;          // protocol::TraceFlag bits
  std::string trace_text;            // the --trace value as the report records it
  uint64_t osrt_threshold_ns = 1000;
  // --osrt-backtrace-threshold/-depth: taken when OS-runtime calls are traced and -s or
  // --cpuctxsw is on (profile_session.cpp); a threshold of 0 takes none.
  uint64_t osrt_backtrace_threshold_ns = 80000;
  uint32_t osrt_backtrace_depth = 24;
  protocol::CudaGraphTrace cuda_graph_trace = protocol::CudaGraphTrace::kGraph;
  bool cuda_memory_usage = false;              // --cuda-memory-usage
  bool python_backtrace = false;               // --python-backtrace=cuda
  std::string pytorch_modes;                   // --pytorch, canonical list; empty: none
  std::vector<std::string> extra_environment;  // -e NAME=value
  std::string library_dir;                     // where libprof_core.so and friends live
  std::string command_line;                    // for the report: the profiled command, quoted
  CaptureOptions capture;                      // --delay, --duration, --kill, -c, -p, ...
  SamplingOptions sampling;                    // -s, --sampling-frequency, -b, --cpuctxsw
  GpuMetricsOptions gpu_metrics;               // --gpu-metrics-devices, -frequency, -set
  PmSamplingApiFactory gpu_metrics_api;        // the CUDA/CUPTI libraries GPU metrics use
  bool show_output = true;          // -w false: the program's stdout and stderr go to /dev/null
  bool inherit_environment = true;  // -n false: the program gets prof's and -e's variables only
  bool wait_for_all = true;         // --wait=primary: the report ends when the program exits
  bool stop_on_exit = true;         // -x false: collection goes on until --duration expires
  // Names and claims a report once the child's pid is known (for %p); errors abort before the
  // program runs. `number` is 0 for the session's one report, N for the report of the Nth repeated
  // capture. The claim (null: none) goes to the report's writer, which ends it.
  std::function<Status(pid_t child_pid, uint32_t number, std::string* report_path,
                       std::unique_ptr<storage::ReportNameClaim>* claim)>
      claim_report_name;
};

struct ProfileResult {
  int exit_code = 0;        // the program's exit code, or 128+N when signal N killed it
  std::string report_path;  // empty when no report was written; else the first of report_paths
  std::vector<std::string> report_paths;  // one per capture window with --capture-range-end=repeat
  // Per report of report_paths: the events it holds, by kind.
  std::vector<std::vector<storage::EventCount>> report_events;
  uint64_t finish_ns = 0;  // from the program's exit to the reports' completion
  uint64_t dropped_records = 0;
  uint64_t torn_records = 0;
  // prof ran out of file descriptors (one per traced process): processes waited to be read.
  bool descriptors_exhausted = false;
};

// True when `library_dir` holds libprof_cuda.so (prof was built with CUPTI's headers).
bool HasCudaInjection(const std::string& library_dir);

// Fails (with nothing launched or the child cancelled before exec) when the program cannot be
// started or the report cannot be created. Once the program ran, errors writing the report are
// returned with `result->exit_code` still set.
Status RunProfileSession(const ProfileOptions& options, ProfileResult* result);

}  // namespace prof::collector
