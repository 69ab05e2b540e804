// The CPU sampling options of `prof profile`, spelled as nsys spells them, checked and turned into
// collector::SamplingOptions:
//   -s, --sample=process-tree|none      --sampling-frequency=HZ     --sampling-period=NS
//   -b, --backtrace=auto|fp|dwarf|none  --cpuctxsw=process-tree|none
//   --python-sampling=true|false       (--python-sampling-frequency is accepted, and unused)
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "collector/cpu_samples/sampling_options.h"
#include "common/status.h"

namespace prof::cli {

// The options' text as given (empty: not given).
struct SamplingFlags {
  std::string sample;
  std::string frequency;
  std::string period;
  std::string backtrace = "auto";
  std::string cpuctxsw;
  std::string python_sampling;
};

// Adds the options to `profile`, storing their text in *flags (which must outlive parsing).
void RegisterSamplingFlags(CLI::App* profile, SamplingFlags* flags);

// Fails with one line naming the option and the accepted values.
Status ParseSamplingFlags(const SamplingFlags& flags, collector::SamplingOptions* options);

}  // namespace prof::cli
