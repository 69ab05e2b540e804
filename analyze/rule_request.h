// Which rules one `prof analyze` run applies, and with which option values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "analyze/rule_registry.h"
#include "common/status.h"

namespace prof::analyze {

// An option's value: unset, an integer, or text.
using OptionValue = std::variant<std::monostate, int64_t, std::string>;

// One rule to apply: `-r <name>[:<option>=<value>...]`.
struct RuleRequest {
  const RuleSpec* rule = nullptr;
  // Options as given, in order, each once (a repeated option keeps its last value).
  std::vector<std::pair<std::string, std::string>> given;
  // The value of every option of the rule (CommonOptions() then rule->options): the given one,
  // else the default.
  std::vector<std::pair<std::string, OptionValue>> values;

  // "<name>[:<option>=<value>...]", as spelled on the command line (title lines).
  std::string Spelling() const;
  // "<name>[_<option>-<value>...]", the rule's part of an output file name.
  std::string FileStem() const;
  std::optional<int64_t> Integer(std::string_view option) const;
  std::optional<std::string> Text(std::string_view option) const;
  // `text` with each "{<option>}" replaced by that option's value.
  std::string Substitute(const std::string& text) const;
};

// The rules named in `requested` ("<name>[:<option>=<value>...]"), in the order given, each name
// and option set once. Fails with one line on an unknown rule (listing the valid ones), an unknown
// option (listing the rule's), an option without "=value", a non-integer value of an integer
// option, a value out of the option's range, or start= after end=. With no names: every default
// rule, without options.
Status SelectRules(const std::vector<std::string>& requested, std::vector<RuleRequest>* out);

}  // namespace prof::analyze
