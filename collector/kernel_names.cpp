#include "collector/kernel_names.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <optional>
#include <utility>

#include "demangle/itanium_demangler.h"

namespace prof::collector {
namespace {

constexpr size_t kNone = std::string_view::npos;
constexpr std::string_view kAnonymousNamespace = "(anonymous namespace)";
constexpr std::string_view kLambdaStart = "{lambda(";
constexpr std::string_view kConst = " const";

bool StartsWithAt(std::string_view text, size_t pos, std::string_view prefix) {
  return text.substr(pos, prefix.size()) == prefix;
}

bool IsOpening(char c) { return c == '(' || c == '<' || c == '[' || c == '{'; }
bool IsClosing(char c) { return c == ')' || c == '>' || c == ']' || c == '}'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// The type __cxa_demangle's integer literal suffix stands for; empty for unknown suffixes.
std::string_view LiteralType(std::string_view suffix) {
  if (suffix.empty()) return "int";
  if (suffix == "u") return "unsigned int";
  if (suffix == "l") return "long";
  if (suffix == "ul") return "unsigned long";
  if (suffix == "ll") return "long long";
  if (suffix == "ull") return "unsigned long long";
  return {};
}

// A template argument begins where the output ends with '<' or ", ".
bool AtTemplateArgumentStart(const std::string& out) {
  if (out.empty()) return false;
  if (out.back() == '<') return true;
  return out.size() >= 2 && out.compare(out.size() - 2, 2, ", ") == 0;
}

// "4" → "(int)4", "-2l" → "(long)-2" when the literal is a whole template argument. Returns the
// input position after it, or kNone when `in` holds no integer literal at `pos`.
size_t AppendIntegerLiteral(std::string_view in, size_t pos, std::string* out) {
  size_t end = pos;
  if (end < in.size() && in[end] == '-') ++end;
  const size_t digits = end;
  while (end < in.size() && IsDigit(in[end])) ++end;
  if (end == digits) return kNone;
  const size_t number_end = end;
  while (end < in.size() && (in[end] == 'u' || in[end] == 'l')) ++end;
  if (end < in.size() && in[end] != ',' && in[end] != '>') return kNone;
  const std::string_view type = LiteralType(in.substr(number_end, end - number_end));
  if (type.empty()) return kNone;
  *out += '(';
  *out += type;
  *out += ')';
  out->append(in.substr(pos, number_end - pos));
  return end;
}

// "{lambda(float)#1}" → "[lambda(float) (instance 1)]". Returns the input position after the
// closing brace, or kNone when the lambda is not in that form.
size_t AppendLambda(std::string_view in, size_t pos, std::string* out) {
  const size_t params = pos + kLambdaStart.size();
  int depth = 1;
  size_t close = params;
  for (; close < in.size() && depth > 0; ++close) {
    if (in[close] == '(') ++depth;
    if (in[close] == ')') --depth;
  }
  if (depth != 0 || close >= in.size() || in[close] != '#') return kNone;
  size_t end = close + 1;
  while (end < in.size() && IsDigit(in[end])) ++end;
  if (end == close + 1 || end >= in.size() || in[end] != '}') return kNone;
  *out += "[lambda(";
  *out += NsysSpelling(in.substr(params, close - 1 - params));
  *out += ") (instance ";
  out->append(in.substr(close + 1, end - close - 1));
  *out += ")]";
  return end + 1;
}

// " const" that qualifies the type before it ("T const&"), not a member function ("f() const").
bool QualifiesType(std::string_view in, size_t pos) {
  const size_t next = pos + kConst.size();
  if (pos == 0 || in[pos - 1] == ')' || next >= in.size()) return false;
  const char c = in[next];
  return c == '&' || c == '*' || c == ',' || c == ')' || c == '>';
}

// Where the type that ends `out` begins: after the '(', '<' or ", " that opens it.
size_t TypeStart(const std::string& out) {
  int depth = 0;
  for (size_t i = out.size(); i > 0; --i) {
    const char c = out[i - 1];
    if (IsClosing(c)) ++depth;
    if (IsOpening(c) && depth-- == 0) return i;
    if (c == ',' && depth == 0) return i + 1 < out.size() && out[i] == ' ' ? i + 1 : i;
  }
  return 0;
}

bool NeedsSpaceBefore(const std::string& out) {
  if (out.empty()) return false;
  const char c = out.back();
  return c != ' ' && c != '*' && c != '&' && c != '(';
}

bool EndsWithWord(std::string_view text, std::string_view word) {
  if (text.size() < word.size() || text.substr(text.size() - word.size()) != word) return false;
  if (text.size() == word.size()) return true;
  const char before = text[text.size() - word.size() - 1];
  return before == ':' || before == ' ';
}

// The position of the bracket that `close` (a closing bracket) closes, or kNone.
size_t MatchingOpen(std::string_view text, size_t close) {
  int depth = 0;
  for (size_t i = close + 1; i > 0; --i) {
    const char c = text[i - 1];
    if (IsClosing(c)) ++depth;
    if (IsOpening(c) && --depth == 0) return i - 1;
  }
  return kNone;
}

// Where the unqualified name ending at `end` begins: after the last "::" or space outside brackets
// (the space of "operator ()" excepted).
size_t NameStart(std::string_view text, size_t end) {
  int depth = 0;
  for (size_t i = end; i > 0; --i) {
    const char c = text[i - 1];
    if (IsClosing(c)) ++depth;
    if (IsOpening(c)) --depth;
    if (depth != 0) continue;
    if (c == ':' && i >= 2 && text[i - 2] == ':') return i;
    if (c == ' ' && !EndsWithWord(text.substr(0, i - 1), "operator")) return i;
  }
  return 0;
}

}  // namespace

std::string NsysSpelling(std::string_view in) {
  std::string out;
  out.reserve(in.size() + in.size() / 4);
  size_t i = 0;
  while (i < in.size()) {
    if (StartsWithAt(in, i, kAnonymousNamespace)) {
      out += "<unnamed>";
      i += kAnonymousNamespace.size();
      continue;
    }
    if (StartsWithAt(in, i, kLambdaStart)) {
      if (const size_t next = AppendLambda(in, i, &out); next != kNone) {
        i = next;
        continue;
      }
    }
    if (AtTemplateArgumentStart(out)) {
      if (const size_t next = AppendIntegerLiteral(in, i, &out); next != kNone) {
        i = next;
        continue;
      }
    }
    if (StartsWithAt(in, i, kConst) && QualifiesType(in, i)) {
      out.insert(TypeStart(out), "const ");
      i += kConst.size();
      continue;
    }
    const char c = in[i];
    // "> >" → ">>": only between closing brackets, so "a > b" stays.
    if (c == ' ' && !out.empty() && out.back() == '>' && i + 1 < in.size() && in[i + 1] == '>') {
      ++i;
      continue;
    }
    if ((c == '*' || c == '&') && NeedsSpaceBefore(out)) out += ' ';
    if (c == '(' && EndsWithWord(out, "operator")) out += ' ';
    out += c;
    ++i;
  }
  return out;
}

std::string ShortKernelName(std::string_view demangled) {
  size_t end = demangled.size();
  if (EndsWithWord(demangled, "const") && end >= kConst.size()) end -= kConst.size();
  for (const char close : {')', '>'}) {
    if (end == 0 || demangled[end - 1] != close) continue;
    const size_t open = MatchingOpen(demangled, end - 1);
    if (open != kNone && open > 0) end = open;
  }
  const size_t begin = NameStart(demangled, end);
  return std::string(demangled.substr(begin, end - begin));
}

KernelNames KernelNamesOf(std::string_view mangled) {
  const std::string name(mangled);
  if (name.compare(0, 2, "_Z") != 0) return {name, name};
  if (std::optional<std::string> demangled = DemangleItanium(name, DemangleStyle::kNsys)) {
    std::string short_name = ShortKernelName(*demangled);
    return {std::move(*demangled), std::move(short_name)};
  }
  // What prof's demangler does not parse: __cxa_demangle's output, respelled.
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> demangled(
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), &std::free);
  if (status != 0 || demangled == nullptr) return {name, name};
  std::string spelled = NsysSpelling(demangled.get());
  std::string short_name = ShortKernelName(spelled);
  return {std::move(spelled), std::move(short_name)};
}

}  // namespace prof::collector
