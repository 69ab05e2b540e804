#include "analyze/rule_request.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <limits>

#include "common/named_entries.h"
#include "common/split.h"

namespace prof::analyze {
namespace {

std::vector<const RuleOption*> OptionsOf(const RuleSpec& rule) {
  std::vector<const RuleOption*> options;
  for (const RuleOption& option : CommonOptions()) options.push_back(&option);
  for (const RuleOption& option : rule.options) options.push_back(&option);
  return options;
}

const RuleOption* FindOption(const RuleSpec& rule, std::string_view name) {
  for (const RuleOption* option : OptionsOf(rule)) {
    if (option->name == name) return option;
  }
  return nullptr;
}

// The whole text must be a decimal integer (strtoll alone accepts "12abc" and " 12").
bool ParseInteger(const std::string& text, int64_t* out) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return false;
  errno = 0;
  char* end = nullptr;
  const long long value = std::strtoll(text.c_str(), &end, 10);
  if (errno != 0 || *end != '\0') return false;
  *out = value;
  return true;
}

Status ParseValue(const RuleSpec& rule, const RuleOption& option, const std::string& text,
                  OptionValue* out) {
  const std::string where =
      "option " + std::string(option.name) + " of rule " + std::string(rule.name);
  if (option.kind == OptionKind::kText) {
    if (text.empty()) return Status::Error(where + " needs a value");
    *out = text;
    return Status::Ok();
  }
  int64_t value = 0;
  if (!ParseInteger(text, &value)) {
    return Status::Error(where + " takes an integer (got '" + text + "')");
  }
  if (value < option.min || value > option.max) {
    std::string range = "at least " + std::to_string(option.min);
    if (option.max != std::numeric_limits<int64_t>::max()) {
      range = "from " + std::to_string(option.min) + " to " + std::to_string(option.max);
    }
    return Status::Error(where + " must be " + range + " (got " + text + ")");
  }
  *out = value;
  return Status::Ok();
}

// "<option>=<value>" into `request->given`, replacing an earlier value of the same option.
Status ParseGivenOption(const std::string& text, RuleRequest* request) {
  const RuleSpec& rule = *request->rule;
  const size_t equals = text.find('=');
  const std::string name = text.substr(0, equals);
  const RuleOption* option = FindOption(rule, name);
  if (option == nullptr) {
    return Status::Error("unknown option '" + name + "' of rule " + std::string(rule.name) +
                         "; valid options: " + JoinNames(OptionsOf(rule)));
  }
  if (equals == std::string::npos) {
    return Status::Error("option " + name + " of rule " + std::string(rule.name) +
                         " needs a value (" + name + "=...)");
  }
  const std::string value = text.substr(equals + 1);
  OptionValue parsed;
  PROF_RETURN_IF_ERROR(ParseValue(rule, *option, value, &parsed));
  auto& given = request->given;
  const auto same = [&](const auto& entry) { return entry.first == name; };
  given.erase(std::remove_if(given.begin(), given.end(), same), given.end());
  given.emplace_back(name, value);
  return Status::Ok();
}

// Every option's value: the given one (already checked), else the default.
void ResolveValues(RuleRequest* request) {
  for (const RuleOption* option : OptionsOf(*request->rule)) {
    OptionValue value;
    if (option->default_value) value = *option->default_value;
    for (const auto& [name, text] : request->given) {
      if (name != option->name) continue;
      if (option->kind == OptionKind::kText) {
        value = text;
      } else {
        int64_t number = 0;
        ParseInteger(text, &number);
        value = number;
      }
    }
    request->values.emplace_back(std::string(option->name), value);
  }
}

Status ParseRequest(const std::string& text, RuleRequest* out) {
  const std::vector<std::string> parts = Split(text, ':');
  out->rule = FindRule(parts[0]);
  if (out->rule == nullptr) {
    return Status::Error("unknown rule '" + parts[0] + "'; valid rules: " + RuleNames());
  }
  for (size_t i = 1; i < parts.size(); ++i) {
    PROF_RETURN_IF_ERROR(ParseGivenOption(parts[i], out));
  }
  ResolveValues(out);
  const std::optional<int64_t> start = out->Integer("start");
  const std::optional<int64_t> end = out->Integer("end");
  if (start && end && *start > *end) {
    return Status::Error("rule " + std::string(out->rule->name) + ": start= (" +
                         std::to_string(*start) + ") is after end= (" + std::to_string(*end) + ")");
  }
  return Status::Ok();
}

bool SameRequest(const RuleRequest& a, const RuleRequest& b) {
  return a.rule == b.rule && a.values == b.values;
}

}  // namespace

std::string RuleRequest::Spelling() const {
  std::string text(rule->name);
  for (const auto& [name, value] : given) text += ":" + name + "=" + value;
  return text;
}

std::string RuleRequest::FileStem() const {
  std::string text(rule->name);
  for (const auto& [name, value] : given) text += "_" + name + "-" + value;
  return text;
}

std::optional<int64_t> RuleRequest::Integer(std::string_view option) const {
  for (const auto& [name, value] : values) {
    if (name == option && std::holds_alternative<int64_t>(value)) return std::get<int64_t>(value);
  }
  return std::nullopt;
}

std::optional<std::string> RuleRequest::Text(std::string_view option) const {
  for (const auto& [name, value] : values) {
    if (name == option && std::holds_alternative<std::string>(value)) {
      return std::get<std::string>(value);
    }
  }
  return std::nullopt;
}

std::string RuleRequest::Substitute(const std::string& text) const {
  std::string result = text;
  for (const auto& [name, value] : values) {
    std::string shown;
    if (std::holds_alternative<int64_t>(value)) shown = std::to_string(std::get<int64_t>(value));
    if (std::holds_alternative<std::string>(value)) shown = std::get<std::string>(value);
    const std::string placeholder = "{" + name + "}";
    for (size_t at = result.find(placeholder); at != std::string::npos;
         at = result.find(placeholder, at + shown.size())) {
      result.replace(at, placeholder.size(), shown);
    }
  }
  return result;
}

Status SelectRules(const std::vector<std::string>& requested, std::vector<RuleRequest>* out) {
  std::vector<RuleRequest> selected;
  if (requested.empty()) {
    for (const RuleSpec& rule : AllRules()) {
      if (!rule.is_default) continue;
      RuleRequest request{&rule, {}, {}};
      ResolveValues(&request);
      selected.push_back(std::move(request));
    }
  }
  for (const std::string& text : requested) {
    RuleRequest request;
    PROF_RETURN_IF_ERROR(ParseRequest(text, &request));
    const auto same = [&](const RuleRequest& other) { return SameRequest(request, other); };
    if (std::none_of(selected.begin(), selected.end(), same)) {
      selected.push_back(std::move(request));
    }
  }
  *out = std::move(selected);
  return Status::Ok();
}

}  // namespace prof::analyze
