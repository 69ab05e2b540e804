#include "collector/data_problems.h"

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

}  // namespace prof::collector
