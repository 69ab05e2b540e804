#include "stats/output_target.h"

#include <filesystem>

namespace prof::stats {

StatusOr<OutputTarget> ParseOutputTarget(std::string_view spec, const std::string& report_path) {
  if (spec.empty()) {
    return Status::Error("an output (-o) must be '-', '.', '@<command>' or a file prefix");
  }
  if (spec == "-") return OutputTarget{OutputTarget::Kind::kStdout, ""};
  if (spec == ".") {
    return OutputTarget{OutputTarget::Kind::kFiles,
                        std::filesystem::path(report_path).replace_extension().string()};
  }
  if (spec[0] == '@') {
    if (spec.size() == 1) return Status::Error("the output '@' names no command (-o @<command>)");
    return OutputTarget{OutputTarget::Kind::kCommand, std::string(spec.substr(1))};
  }
  return OutputTarget{OutputTarget::Kind::kFiles, std::string(spec)};
}

}  // namespace prof::stats
