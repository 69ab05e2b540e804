#include "cli/nsys_profile_options.h"

#include <algorithm>

#include "common/split.h"

namespace prof::cli {
namespace {

// One nsys option. `accepted` lists the values prof runs with (comma-separated; "*": any value,
// because the option changes nothing prof collects; "": none); `why` says what other values ask
// for that prof does not do.
struct NsysOption {
  const char* names;  // CLI11 spelling: "-s,--sample"
  const char* accepted;
  const char* why;
  bool takes_value = true;
};

constexpr const char* kNoGraphics = "prof does not trace graphics APIs";
constexpr const char* kNoWindows = "it is an nsys option for Windows targets";
constexpr const char* kNoEmbedded = "it is an nsys option for embedded (Tegra/QNX) targets";
constexpr const char* kNoSessions =
    "prof has no interactive sessions (use --capture-range or --delay/--duration)";

// nsys 2026.1's profile options (NVIDIA's User Guide, "CLI Profile Command Switch Options"),
// those prof implements left out (profile_command.cpp).
const NsysOption kNsysOptions[] = {
    // CPU sampling, scheduling and hardware counters.
    {"--samples-per-backtrace", "1", "prof takes a backtrace with every sample"},
    {"--sampling-trigger", "", kNoEmbedded},
    {"--cudabacktrace", "none",
     "prof takes no native backtraces of CUDA calls (see --python-backtrace)"},
    // A sample's Python frames are read with the sample (--python-sampling, sampling_flags.h).
    {"--python-sampling-frequency", "*", ""},
    {"--event-sample", "none", "prof does not sample CPU events"},
    {"--event-sampling-interval", "", "prof does not sample CPU events"},
    {"--event-sampling-multiplex-interval", "", "prof does not sample CPU events"},
    {"--event-sampling-frequency", "", "prof does not sample CPU events"},
    {"--cpu-core-events", "none", "prof does not sample CPU events"},
    {"--cpu-core-metrics", "none", "prof does not sample CPU events"},
    {"--cpu-metrics", "", "prof does not sample CPU events"},
    {"--cpu-socket-events", "none", "prof does not sample CPU events"},
    {"--cpu-socket-metrics", "none", "prof does not sample CPU events"},
    {"--cpu-cluster-events", "none", kNoEmbedded},
    {"--os-events", "", "prof does not sample OS events"},
    // prof walks the frame pointers of a blocked call's stack in place: no stack copy to size.
    {"--osrt-backtrace-stack-size", "*", ""},
    {"--osrt-file-access", "false", "prof does not record file access data"},
    {"--resolve-symbols", "true", "prof always resolves the symbols of samples"},
    {"--show-source-info", "*", ""},
    {"--debug-symbols", "",
     "prof finds debug symbols beside the binaries and under /usr/lib/debug only"},
    {"--syscall", "none", "prof does not trace system calls (see --trace=osrt)"},
    {"--ftrace", "", "prof does not collect ftrace events"},
    {"--ftrace-keep-user-config", "", "prof does not collect ftrace events", false},
    // CUDA, GPUs and the libraries around them.
    {"--cuda-event-trace", "false", "prof does not trace CUDA events on the device"},
    {"--cuda-trace-all-apis", "false", "prof traces the CUDA APIs nsys traces by default"},
    {"--cuda-trace-scope", "process-tree", "prof traces the program's own process tree only"},
    {"--cuda-um-cpu-page-faults", "false", "prof does not trace Unified Memory page faults"},
    {"--cuda-um-gpu-page-faults", "false", "prof does not trace Unified Memory page faults"},
    // prof hands CUPTI's buffers on as they fill; there is nothing to flush on a timer.
    {"--cuda-flush-interval", "*", ""},
    {"--flush-on-cudaprofilerstop", "true",
     "prof always keeps CUDA records up to cudaProfilerStop"},
    {"--gpuctxsw", "false", "prof does not trace GPU context switches"},
    {"--gpu-video-device", "none", "prof does not analyze video devices"},
    {"--gpu-video-devices", "none", "prof does not analyze video devices"},
    {"--gds-metrics", "false", "prof does not collect GPUDirect Storage metrics"},
    {"--gds-libs-path", "", "prof does not collect GPUDirect Storage metrics"},
    {"--nccl-trace", "none", "prof records NCCL's NVTX ranges only (--trace=nccl)"},
    {"--mpi-impl", "", "prof does not trace MPI (ranks are found from their environment)"},
    {"--dask", "none", "prof does not annotate Dask functions"},
    {"--python-functions-trace", "", "prof does not annotate Python functions"},
    {"--nvtx-domain-include", "", "prof does not filter NVTX domains yet"},
    {"--nvtx-domain-exclude", "", "prof does not filter NVTX domains yet"},
    {"--accelerator-trace", "none", kNoEmbedded},
    // Networks and storage.
    {"--nic-metrics", "none", "prof does not collect NIC metrics"},
    {"--dts-api-port", "", "prof does not collect NIC metrics"},
    {"--ib-net-info-devices", "none", "prof does not collect InfiniBand data"},
    {"--ib-net-info-files", "none", "prof does not collect InfiniBand data"},
    {"--ib-net-info-output", "none", "prof does not collect InfiniBand data"},
    {"--ib-switch-congestion-devices", "none", "prof does not collect InfiniBand data"},
    {"--ib-switch-congestion-nic-device", "", "prof does not collect InfiniBand data"},
    {"--ib-switch-congestion-percent", "", "prof does not collect InfiniBand data"},
    {"--ib-switch-congestion-threshold-high", "", "prof does not collect InfiniBand data"},
    {"--ib-switch-metrics-devices", "none", "prof does not collect InfiniBand data"},
    {"--ib-switch-metrics-nic-device", "", "prof does not collect InfiniBand data"},
    {"--storage-metrics", "", "prof does not collect storage metrics"},
    // The session and the program's launch.
    {"--session-new", "*", ""},  // a name only nsys's session commands use
    {"-Y,--start-later", "false", kNoSessions},
    {"--command-file", "", "write the options on the command line"},
    {"--discard-environment", "false", "prof records only the variables it sets and -e's"},
    {"--run-as", "", "prof runs the program as the user who runs prof"},
    {"--process-scope", "", kNoEmbedded},
    {"--after-collection-start", "", "prof runs no commands of its own during a session"},
    {"--after-report-ready", "", "prof runs no commands of its own during a session"},
    {"--enable", "", "prof has no plugins"},
    {"--export", "none,sqlite", "prof's reports are SQLite; convert them with prof export --type"},
    // Graphics, Windows and embedded targets.
    {"--auto-report-name", "false", kNoGraphics},
    {"--duration-frames", "", kNoGraphics},
    {"--start-frame-index", "", kNoGraphics},
    {"--hotkey-capture", "", kNoGraphics},
    {"--opengl-gpu-workload", "", kNoGraphics},
    {"--vulkan-gpu-workload", "", kNoGraphics},
    {"--vulkan-sc-gpu-workload", "", kNoGraphics},
    {"--vsync", "false", kNoEmbedded},
    {"--dx-force-declare-adapter-removal-support", "", kNoWindows},
    {"--dx12-gpu-workload", "", kNoWindows},
    {"--dx12-wait-calls", "", kNoWindows},
    {"--wddm-memory-trace", "", kNoWindows},
    {"--wddm-additional-events", "", kNoWindows},
    {"--wddm-backtraces", "", kNoWindows},
    {"--isr", "false", kNoWindows},
    {"--etw-provider", "", kNoWindows},
    {"--retain-etw-files", "false", kNoWindows},
    {"--injection-use-detours", "", kNoWindows},
    {"--system-wide", "false", kNoWindows},
    {"--reflex-events", "false", kNoWindows},
    {"--clock-frequency-changes", "false", kNoEmbedded},
    {"--soc-metrics", "false", kNoEmbedded},
    {"--soc-metrics-frequency", "", kNoEmbedded},
    {"--soc-metrics-set", "", kNoEmbedded},
    {"--qnx-kernel-events", "none", kNoEmbedded},
    {"--qnx-kernel-events-mode", "", kNoEmbedded},
    {"--xhv-trace", "", kNoEmbedded},
    {"--xhv-trace-events", "", kNoEmbedded},
    {"--xhv-vm-symbols", "", kNoEmbedded},
};

// "--sample" of "-s,--sample".
std::string LongName(const NsysOption& option) {
  const std::string names = option.names;
  return names.substr(names.rfind(',') + 1);
}

const NsysOption* FindOption(std::string_view long_name) {
  for (const NsysOption& option : kNsysOptions) {
    if (LongName(option) == long_name) return &option;
  }
  return nullptr;
}

bool Accepts(const NsysOption& option, const std::string& value) {
  const std::string accepted = option.accepted;
  if (accepted == "*") return true;
  const std::vector<std::string> values = Split(accepted, ',');
  return !accepted.empty() && std::find(values.begin(), values.end(), value) != values.end();
}

}  // namespace

void NsysProfileOptions::Register(CLI::App* profile) {
  for (const NsysOption& option : kNsysOptions) {
    const std::string name = LongName(option);
    const std::string accepted = option.accepted;
    const std::string help =
        accepted == "*"    ? std::string("nsys option accepted; no effect on what prof collects")
        : accepted.empty() ? std::string("nsys option, not supported: ") + option.why
                           : "nsys option; prof accepts " + accepted;
    if (option.takes_value) {
      profile
          ->add_option_function<std::string>(
              option.names, [this, name](const std::string& value) { values_[name] = value; }, help)
          ->group(kGroup);
    } else {
      profile
          ->add_flag_callback(
              option.names, [this, name] { values_[name] = ""; }, help)
          ->group(kGroup);
    }
  }
}

Status NsysProfileOptions::Check() const {
  for (const auto& [name, value] : values_) {
    const NsysOption& option = *FindOption(name);
    if (option.takes_value && Accepts(option, value)) continue;
    std::string error =
        name + (option.takes_value ? "=" + value : "") + " is not supported: " + option.why;
    if (*option.accepted != '\0') {
      std::string accepted = option.accepted;
      std::replace(accepted.begin(), accepted.end(), ',', '|');
      error += "; prof accepts " + name + "=" + accepted;
    }
    return Status::Error(error);
  }
  return Status::Ok();
}

std::string NsysProfileOptions::Value(std::string_view long_name) const {
  const auto found = values_.find(long_name);
  return found == values_.end() ? "" : found->second;
}

std::vector<std::string> NsysProfileOptions::LongNames() {
  std::vector<std::string> names;
  for (const NsysOption& option : kNsysOptions) names.push_back(LongName(option));
  return names;
}

}  // namespace prof::cli
