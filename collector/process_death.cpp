#include "collector/process_death.h"

#include <signal.h>
#include <sys/wait.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace prof::collector {
namespace {

// /proc/<pid>/stat's fields after the command name (which may hold spaces and parentheses) start
// with the state, field 3; exit_code is field 52.
constexpr int kFirstField = 3;
constexpr int kExitCodeField = 52;

}  // namespace

std::optional<ProcessDeath> KilledBy(uint32_t pid) {
  std::ifstream file("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(file, line)) return std::nullopt;
  const size_t name_end = line.rfind(')');
  if (name_end == std::string::npos) return std::nullopt;
  std::istringstream fields(line.substr(name_end + 1));
  std::string field;
  int status = -1;
  for (int number = kFirstField; fields >> field; ++number) {
    if (number == kExitCodeField) {
      status = std::atoi(field.c_str());
      break;
    }
  }
  if (status <= 0 || !WIFSIGNALED(status)) return std::nullopt;
  return ProcessDeath{WTERMSIG(status), WCOREDUMP(status) != 0};
}

bool KilledByAccident(const ProcessDeath& death) {
  switch (death.signal) {
    case SIGSEGV:
    case SIGBUS:
    case SIGILL:
    case SIGFPE:
    case SIGABRT:
    case SIGSYS:
    case SIGTRAP:
    case SIGKILL:
      return true;
    default:
      return false;
  }
}

std::string DescribeDeath(const ProcessDeath& death) {
  const char* abbreviation = sigabbrev_np(death.signal);
  std::string text = "killed by ";
  text += abbreviation != nullptr ? "SIG" + std::string(abbreviation) : "a signal";
  text += " (signal " + std::to_string(death.signal);
  if (death.core_dumped) text += ", core dumped";
  return text + ")";
}

}  // namespace prof::collector
