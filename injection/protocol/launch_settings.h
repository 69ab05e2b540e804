// The one contract between `prof profile` and the code it injects: what to trace and where to send it.
//
// The launcher encodes InjectionSettings into one environment variable (kSettingsEnvVar) of the
// child; every injected library decodes it from there. Keys are versioned by kSettingsVersion; a
// library that finds another version, or no variable, stays inert. Decoding allocates nothing, so it
// is safe inside library constructors that run before malloc is ready to be traced.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "injection/protocol/record_format.h"
#include "injection/protocol/sample_records.h"

namespace prof::protocol {

inline constexpr const char* kSettingsEnvVar = "PROF_INJECTION_SETTINGS";
inline constexpr int kSettingsVersion = 1;

// --pytorch (docs/pytorch.md): the chosen modes as a comma list ("autograd-nvtx,functions-trace").
// Read by prof's Python code (injection/pytorch/python), which cannot decode the settings above,
// in the program at `import torch`; unset means none.
inline constexpr const char* kPytorchEnvVar = "PROF_PYTORCH";
// The directory under the injection libraries' that holds that Python code; prof puts it first on
// the program's PYTHONPATH, where its sitecustomize.py runs at interpreter start.
inline constexpr const char* kPytorchPythonDir = "python";

// Bit set of the --trace values.
enum TraceFlag : uint32_t {
  kTraceCuda = 1u << 0,
  kTraceNvtx = 1u << 1,
  kTraceOsrt = 1u << 2,
  kTraceCublas = 1u << 3,
  kTraceCudnn = 1u << 4,
};

// --cuda-graph-trace: how kernels of CUDA graph launches are recorded.
enum class CudaGraphTrace : uint32_t {
  kGraph = 0,  // one CUPTI_ACTIVITY_KIND_GRAPH_TRACE row per graph launch (nsys's default)
  kNode = 1,   // every node's kernel, memcpy and memset, with its graphNodeId
};

struct InjectionSettings {
  uint32_t trace_flags = 0;
  uint64_t osrt_threshold_ns = 1000;
  CudaGraphTrace cuda_graph_trace = CudaGraphTrace::kGraph;
  bool cuda_memory_usage = false;  // --cuda-memory-usage: record device allocations and frees
  bool python_backtrace = false;   // --python-backtrace=cuda: Python stacks of CUDA API calls
  // NVTX push/pop ranges are stamped with the CPU counter (kNvtxPushPopRangeTicks) instead of
  // CLOCK_MONOTONIC; the launcher converts. Set only where the kernel keeps time with that counter.
  bool nvtx_counter_time = false;
  // The fallback CPU sampler (perf_event_open refused): libprof_core samples each thread of the
  // process at this rate of its CPU time (kCpuSample records); 0 = off.
  uint32_t timer_sampling_hz = 0;
  // Python frames in the samples a process takes of itself, read at the sample's instant
  // (--python-sampling): a process that runs CPython samples itself at this rate of its CPU time,
  // also where the kernel samples the rest of the tree (the launcher then drops the kernel's
  // samples of it); 0 = off.
  uint32_t python_sampling_hz = 0;
  // Bytes of the thread's stack that each of those samples copies, with the registers, for DWARF
  // unwinding in the launcher (-b auto or dwarf: code built without frame pointers); 0 = the
  // frame-pointer walk only (-b fp).
  uint32_t sample_stack_bytes = 0;
  // --osrt-backtrace-threshold: OS-runtime calls that last at least this long carry the stack they
  // were made from (native frames up to osrt_backtrace_depth, and Python frames); 0 = none.
  uint64_t osrt_backtrace_threshold_ns = 0;
  uint32_t osrt_backtrace_depth = 24;
  char socket_path[108] = {};  // sun_path of the launcher's listening Unix socket

  bool traces(TraceFlag flag) const { return (trace_flags & flag) != 0; }
};

inline std::string EncodeSettings(const InjectionSettings& settings) {
  std::string out = "v=" + std::to_string(kSettingsVersion);
  out += ";trace=" + std::to_string(settings.trace_flags);
  out += ";osrt_threshold_ns=" + std::to_string(settings.osrt_threshold_ns);
  out += ";cuda_graph_trace=" + std::to_string(static_cast<uint32_t>(settings.cuda_graph_trace));
  out += ";cuda_memory_usage=" + std::to_string(settings.cuda_memory_usage ? 1 : 0);
  out += ";python_backtrace=" + std::to_string(settings.python_backtrace ? 1 : 0);
  out += ";nvtx_counter_time=" + std::to_string(settings.nvtx_counter_time ? 1 : 0);
  out += ";timer_sampling_hz=" + std::to_string(settings.timer_sampling_hz);
  out += ";python_sampling_hz=" + std::to_string(settings.python_sampling_hz);
  out += ";sample_stack_bytes=" + std::to_string(settings.sample_stack_bytes);
  out += ";osrt_backtrace_threshold_ns=" + std::to_string(settings.osrt_backtrace_threshold_ns);
  out += ";osrt_backtrace_depth=" + std::to_string(settings.osrt_backtrace_depth);
  out += ";socket=";
  out += settings.socket_path;  // last: a path may contain ';' or '='
  return out;
}

inline bool ParseDecimal(std::string_view digits, uint64_t* out) {
  if (digits.empty() || digits.size() > 19) return false;
  uint64_t value = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  *out = value;
  return true;
}

// Returns false (and leaves `out` untouched) when `text` is null, malformed or of another version.
inline bool DecodeSettings(const char* text, InjectionSettings* out) {
  if (text == nullptr) return false;
  InjectionSettings parsed;
  bool version_ok = false;
  bool have_socket = false;
  std::string_view rest(text);
  while (!rest.empty()) {
    const size_t eq = rest.find('=');
    if (eq == std::string_view::npos) return false;
    const std::string_view key = rest.substr(0, eq);
    rest.remove_prefix(eq + 1);
    if (key == "socket") {
      if (rest.size() >= sizeof(parsed.socket_path)) return false;
      std::memcpy(parsed.socket_path, rest.data(), rest.size());
      have_socket = true;
      break;
    }
    const size_t semi = rest.find(';');
    const std::string_view value = rest.substr(0, semi);
    rest.remove_prefix(semi == std::string_view::npos ? rest.size() : semi + 1);
    uint64_t number = 0;
    if (!ParseDecimal(value, &number)) return false;
    if (key == "v") {
      version_ok = number == static_cast<uint64_t>(kSettingsVersion);
    } else if (key == "trace") {
      parsed.trace_flags = static_cast<uint32_t>(number);
    } else if (key == "osrt_threshold_ns") {
      parsed.osrt_threshold_ns = number;
    } else if (key == "cuda_graph_trace") {
      if (number > static_cast<uint64_t>(CudaGraphTrace::kNode)) return false;
      parsed.cuda_graph_trace = static_cast<CudaGraphTrace>(number);
    } else if (key == "cuda_memory_usage") {
      if (number > 1) return false;
      parsed.cuda_memory_usage = number == 1;
    } else if (key == "python_backtrace") {
      if (number > 1) return false;
      parsed.python_backtrace = number == 1;
    } else if (key == "nvtx_counter_time") {
      if (number > 1) return false;
      parsed.nvtx_counter_time = number == 1;
    } else if (key == "timer_sampling_hz") {
      if (number > UINT32_MAX) return false;
      parsed.timer_sampling_hz = static_cast<uint32_t>(number);
    } else if (key == "python_sampling_hz") {
      if (number > UINT32_MAX) return false;
      parsed.python_sampling_hz = static_cast<uint32_t>(number);
    } else if (key == "sample_stack_bytes") {
      if (number > kMaxSampleStackBytes || number % 8 != 0) return false;
      parsed.sample_stack_bytes = static_cast<uint32_t>(number);
    } else if (key == "osrt_backtrace_threshold_ns") {
      parsed.osrt_backtrace_threshold_ns = number;
    } else if (key == "osrt_backtrace_depth") {
      if (number > kMaxOsrtBacktraceDepth) return false;
      parsed.osrt_backtrace_depth = static_cast<uint32_t>(number);
    }
  }
  if (!version_ok || !have_socket) return false;
  *out = parsed;
  return true;
}

}  // namespace prof::protocol
