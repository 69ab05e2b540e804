// One clear line for every command line prof cannot run: unknown commands and options get a
// "did you mean", nsys subcommands prof does not have are named as such, and CLI11's own texts
// ("A subcommand is required", "Could not convert: ...") are rewritten before they reach the user.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace prof::cli {

// The candidate closest to `word` (few edits, or `word` a prefix of it), or "" when none is close.
std::string ClosestName(std::string_view word, const std::vector<std::string>& candidates);

// The error for a first argument that names no prof command, or nothing when `word` is one of
// `commands` or an option.
std::optional<std::string> UnknownCommandError(std::string_view word,
                                               const std::vector<std::string>& commands);

// The error for words the subcommand `command` did not recognise (its remaining() after parsing
// with extras allowed): the first unknown option, with the closest option of the command.
std::string UnknownOptionError(const CLI::App& command, const std::vector<std::string>& extras);

// `error` (thrown while parsing for `command`, null at the top level) as one line for the user.
std::string ParseErrorMessage(const CLI::ParseError& error, const CLI::App* command);

// "true"/"false" (nsys's spelling of a boolean option's value); other text is an error naming
// `option`.
bool ParseBoolean(std::string_view option, const std::string& text, bool* value,
                  std::string* error);

}  // namespace prof::cli
