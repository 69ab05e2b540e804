#include "cli/command_line_errors.h"

#include <algorithm>
#include <array>

#include "common/named_entries.h"

namespace prof::cli {
namespace {

// nsys's subcommands that prof does not have, and what to use instead.
struct NsysOnlyCommand {
  std::string_view name;
  std::string_view instead;
};

constexpr std::string_view kNoInteractiveSessions =
    "prof has no interactive sessions: run the program under prof profile, with "
    "--capture-range=cudaProfilerApi|nvtx or --delay/--duration to choose what is collected";

constexpr std::array<NsysOnlyCommand, 9> kNsysOnlyCommands = {{
    {"launch", kNoInteractiveSessions},
    {"start", kNoInteractiveSessions},
    {"stop", kNoInteractiveSessions},
    {"cancel", kNoInteractiveSessions},
    {"sessions", kNoInteractiveSessions},
    {"shutdown", kNoInteractiveSessions},
    {"status", "prof needs no environment check: prof profile says what it cannot trace"},
    {"nvprof", "use prof profile, and prof stats for nvprof's summaries"},
    {"recipe", "use prof analyze (rules over one report), prof diff and prof merge"},
}};

// Levenshtein distance, for "did you mean" among a few dozen short names.
size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string DidYouMean(std::string_view word, const std::vector<std::string>& candidates) {
  const std::string closest = ClosestName(word, candidates);
  return closest.empty() ? "" : " (did you mean " + closest + "?)";
}

// The command's path for messages: "prof stats".
std::string CommandPath(const CLI::App* command) {
  std::string path;
  for (const CLI::App* app = command; app != nullptr; app = app->get_parent()) {
    path = app->get_name() + (path.empty() ? "" : " " + path);
  }
  return path;
}

std::string HelpHint(const CLI::App* command) {
  return "; see " + CommandPath(command) + " --help";
}

// The text after `prefix` in `message`, or "" when `message` does not start with it.
std::string After(const std::string& message, std::string_view prefix) {
  return message.rfind(prefix, 0) == 0 ? message.substr(prefix.size()) : "";
}

}  // namespace

std::string ClosestName(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_distance = 0;
  for (const std::string& candidate : candidates) {
    // A word of 4+ characters that starts a longer name is a good guess whatever the distance.
    const bool prefix = word.size() >= 4 && candidate.rfind(word, 0) == 0;
    const size_t distance = prefix ? 1 : EditDistance(word, candidate);
    const size_t allowed = std::max<size_t>(1, std::min<size_t>(3, candidate.size() / 3));
    if (distance <= allowed && (best.empty() || distance < best_distance)) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

std::optional<std::string> UnknownCommandError(std::string_view word,
                                               const std::vector<std::string>& commands) {
  if (word.empty() || word.front() == '-' ||
      std::find(commands.begin(), commands.end(), word) != commands.end()) {
    return std::nullopt;
  }
  for (const NsysOnlyCommand& command : kNsysOnlyCommands) {
    if (command.name == word) {
      return "prof " + std::string(word) + " is not supported (nsys " + std::string(word) +
             "): " + std::string(command.instead);
    }
  }
  return "unknown command '" + std::string(word) + "'" + DidYouMean(word, commands) +
         "; commands: " + JoinNames(commands);
}

std::string UnknownOptionError(const CLI::App& command, const std::vector<std::string>& extras) {
  // CLI11 leaves "--name=value" whole among the extras.
  const std::string& first = extras.front();
  const std::string word = first.substr(0, first.find('='));
  std::vector<std::string> names;
  for (const CLI::Option* option : command.get_options()) {
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
    for (const std::string& name : option->get_snames()) names.push_back("-" + name);
  }
  if (word.rfind('-', 0) != 0) {
    return "unexpected argument '" + first + "'" + HelpHint(&command);
  }
  return "unknown option " + word + " for " + CommandPath(&command) + DidYouMean(word, names) +
         HelpHint(&command);
}

std::string ParseErrorMessage(const CLI::ParseError& error, const CLI::App* command) {
  const std::string message = error.what();
  const std::string hint = command != nullptr ? HelpHint(command) : "; see prof --help";
  if (dynamic_cast<const CLI::RequiredError*>(&error) != nullptr) {
    if (command == nullptr) return "no command given; usage: prof <command> [options]" + hint;
    std::string missing = message.substr(0, message.rfind(" is required"));
    if (missing.rfind('-', 0) != 0) missing = "<" + missing + ">";
    return "missing " + missing + hint;
  }
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&error) != nullptr) {
    // "--trace: 1 required TEXT missing"
    if (const size_t colon = message.find(": 1 required"); colon != std::string::npos) {
      return "option " + message.substr(0, colon) + " needs a value" + hint;
    }
    // "--output: At Most 1 required but received 2"
    if (const size_t colon = message.find(": At Most 1 required"); colon != std::string::npos) {
      return "option " + message.substr(0, colon) + " was given more than once" + hint;
    }
    // "Expected exactly 1 argument to --trace, got 0" and its variants name the option last.
    const size_t to = message.find(" to ");
    const size_t comma = message.find(',', to);
    if (to != std::string::npos && comma != std::string::npos) {
      return "option " + message.substr(to + 4, comma - to - 4) + " needs a value" + hint;
    }
  }
  // prof's own checks (CheckNanoseconds, ...) word their messages in full.
  if (dynamic_cast<const CLI::ValidationError*>(&error) != nullptr) return message;
  if (const std::string conversion = After(message, "Could not convert: "); !conversion.empty()) {
    const size_t equals = conversion.find(" = ");
    return "invalid value '" + conversion.substr(equals + 3) + "' for " +
           conversion.substr(0, equals) + hint;
  }
  return message + hint;
}

bool ParseBoolean(std::string_view option, const std::string& text, bool* value,
                  std::string* error) {
  if (text == "true" || text == "false") {
    *value = text == "true";
    return true;
  }
  *error = std::string(option) + " expects true or false, got '" + text + "'";
  return false;
}

}  // namespace prof::cli
