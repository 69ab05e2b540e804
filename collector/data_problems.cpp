#include "collector/data_problems.h"

#include <string>

namespace prof::collector {

std::string_view SeverityName(ProblemSeverity severity) {
  switch (severity) {
    case ProblemSeverity::kDataLoss:
      return "data_loss";
    case ProblemSeverity::kError:
      return "error";
    case ProblemSeverity::kInfo:
      return "info";
  }
  return "error";
}

storage::NameValues SessionCounters(const DataProblemCounts& counts) {
  std::vector<std::string_view> names;
  std::vector<uint64_t> sums;
  for (const DataProblemSpec& spec : kDataProblems) {
    if (spec.session_counter.empty()) continue;
    size_t at = 0;
    while (at < names.size() && names[at] != spec.session_counter) ++at;
    if (at == names.size()) {
      names.push_back(spec.session_counter);
      sums.push_back(0);
    }
    sums[at] += counts[spec.id];
  }
  storage::NameValues rows;
  for (size_t i = 0; i < names.size(); ++i) {
    rows.emplace_back(std::string(names[i]), std::to_string(sums[i]));
  }
  return rows;
}

}  // namespace prof::collector
