#include "cli/sampling_flags.h"

#include <cstdint>

#include "collector/perf_events/perf_attributes.h"

namespace prof::cli {
namespace {

constexpr uint64_t kMinFrequencyHz = 1;
constexpr uint64_t kMaxFrequencyHz = 100000;
constexpr uint64_t kNsPerSecond = 1000000000;

// A positive decimal integer, or false.
bool ParseCount(const std::string& text, uint64_t* value) {
  if (text.empty() || text.size() > 18) return false;
  uint64_t parsed = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
    parsed = parsed * 10 + static_cast<uint64_t>(c - '0');
  }
  *value = parsed;
  return parsed > 0;
}

Status ParseScope(const char* option, const std::string& value, bool* on) {
  if (value == "process-tree" || value == "none") {
    *on = value == "process-tree";
    return Status::Ok();
  }
  if (value == "system-wide") {
    return Status::Error(std::string(option) +
                         "=system-wide is not supported: prof samples the program's process tree; "
                         "prof accepts " +
                         option + "=process-tree|none");
  }
  return Status::Error(std::string(option) + "=" + value + " is not a scope; prof accepts " +
                       option + "=process-tree|none");
}

}  // namespace

void RegisterSamplingFlags(CLI::App* profile, SamplingFlags* flags) {
  profile
      ->add_option("-s,--sample", flags->sample,
                   "Sample the CPU stacks of every thread of the program's process tree "
                   "(process-tree|none)")
      ->default_str("process-tree");
  profile
      ->add_option("--sampling-frequency", flags->frequency,
                   "Samples per second of a thread's CPU time (1-100000)")
      ->default_str("1000");
  profile->add_option("--sampling-period", flags->period,
                      "Nanoseconds of a thread's CPU time between samples, instead of "
                      "--sampling-frequency (nsys counts CPU cycles)");
  profile
      ->add_option("-b,--backtrace", flags->backtrace,
                   "How sampled stacks are unwound: auto (each module by its unwind tables, "
                   "or by frame pointers where it has none, from a copy of the stack, in prof), "
                   "dwarf (the same), fp (frame pointers only: cheaper, but code built without "
                   "them loses its callers), none (the sampled address only)")
      ->default_str("auto");
  profile->add_option("--python-sampling", flags->python_sampling,
                      "Python frames in the CPU samples of Python code (true|false; default: "
                      "true with -s process-tree)");
  profile->add_option("--cpuctxsw", flags->cpuctxsw,
                      "Trace the switches of the process tree's threads on and off the CPUs "
                      "(process-tree|none; default: as --sample)");
}

Status ParseSamplingFlags(const SamplingFlags& flags, collector::SamplingOptions* options) {
  if (flags.sample.empty()) {
    options->samples = options->by_default = true;
  } else {
    PROF_RETURN_IF_ERROR(ParseScope("--sample", flags.sample, &options->samples));
  }
  options->context_switches = options->samples;
  if (!flags.cpuctxsw.empty()) {
    PROF_RETURN_IF_ERROR(ParseScope("--cpuctxsw", flags.cpuctxsw, &options->context_switches));
  }
  if (flags.python_sampling == "true" && !options->samples) {
    return Status::Error(
        "--python-sampling=true needs -s process-tree: prof's Python frames are part of its CPU "
        "samples");
  }
  if (!flags.python_sampling.empty() && flags.python_sampling != "true" &&
      flags.python_sampling != "false") {
    return Status::Error("--python-sampling=" + flags.python_sampling +
                         " is not a boolean; prof accepts --python-sampling=true|false");
  }
  options->python_frames = options->samples && flags.python_sampling != "false";
  if (flags.backtrace == "fp") {
    options->backtrace = collector::perf::PerfBacktrace::kFramePointer;
  } else if (flags.backtrace.empty() || flags.backtrace == "auto" || flags.backtrace == "dwarf") {
    options->backtrace = collector::perf::PerfBacktrace::kDwarf;
  } else if (flags.backtrace == "none") {
    options->backtrace = collector::perf::PerfBacktrace::kNone;
  } else if (flags.backtrace == "lbr") {
    return Status::Error(
        "--backtrace=lbr is not supported: prof unwinds with frame pointers or DWARF; prof "
        "accepts --backtrace=auto|fp|dwarf|none");
  } else {
    return Status::Error("--backtrace=" + flags.backtrace +
                         " is not an unwind method; prof accepts --backtrace=auto|fp|dwarf|none");
  }
  if (!flags.frequency.empty() && !flags.period.empty()) {
    return Status::Error("--sampling-frequency and --sampling-period set the same rate: give one");
  }
  uint64_t value = 0;
  if (!flags.period.empty()) {
    if (!ParseCount(flags.period, &value) || value < kNsPerSecond / kMaxFrequencyHz ||
        value > kNsPerSecond / kMinFrequencyHz) {
      return Status::Error("--sampling-period=" + flags.period +
                           " is not a period in ns of CPU time between 10000 and 1000000000");
    }
    options->frequency_hz = static_cast<uint32_t>(kNsPerSecond / value);
  } else if (!flags.frequency.empty()) {
    if (!ParseCount(flags.frequency, &value) || value < kMinFrequencyHz ||
        value > kMaxFrequencyHz) {
      return Status::Error("--sampling-frequency=" + flags.frequency +
                           " is not a rate between 1 and 100000 samples per second");
    }
    options->frequency_hz = static_cast<uint32_t>(value);
  }
  return Status::Ok();
}

}  // namespace prof::cli
