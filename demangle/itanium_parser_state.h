// Private to the Itanium parser (itanium_parser.cpp: names and the entry point;
// itanium_type_parser.cpp: types, template arguments, literals and expressions): the recursive
// descent parser's state and its small helpers. Not for other callers; use itanium_parser.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "demangle/itanium_name_tree.h"

namespace prof::collector::itanium::detail {

struct OperatorCode {
  std::string_view code;
  std::string_view spelling;
  int arity;  // operands in an expression; 0 where prof does not parse the expression form
};

inline constexpr OperatorCode kOperators[] = {
    {"nw", "new", 0},      {"na", "new[]", 0}, {"dl", "delete", 0}, {"da", "delete[]", 0},
    {"ps", "+", 1},        {"ng", "-", 1},     {"ad", "&", 1},      {"de", "*", 1},
    {"co", "~", 1},        {"pl", "+", 2},     {"mi", "-", 2},      {"ml", "*", 2},
    {"dv", "/", 2},        {"rm", "%", 2},     {"an", "&", 2},      {"or", "|", 2},
    {"eo", "^", 2},        {"aS", "=", 2},     {"pL", "+=", 2},     {"mI", "-=", 2},
    {"mL", "*=", 2},       {"dV", "/=", 2},    {"rM", "%=", 2},     {"aN", "&=", 2},
    {"oR", "|=", 2},       {"eO", "^=", 2},    {"ls", "<<", 2},     {"rs", ">>", 2},
    {"lS", "<<=", 2},      {"rS", ">>=", 2},   {"eq", "==", 2},     {"ne", "!=", 2},
    {"lt", "<", 2},        {"gt", ">", 2},     {"le", "<=", 2},     {"ge", ">=", 2},
    {"ss", "<=>", 2},      {"nt", "!", 1},     {"aa", "&&", 2},     {"oo", "||", 2},
    {"pp", "++", 1},       {"mm", "--", 1},    {"cm", ",", 2},      {"pm", "->*", 0},
    {"pt", "->", 0},       {"cl", "()", 0},    {"ix", "[]", 0},     {"qu", "?", 0},
    {"aw", "co_await", 0},
};

// Builtin types by their one-letter code (<builtin-type>) and those spelled D<letter>, as the
// printer spells them; empty for other codes.
std::string_view BuiltinType(char code);
std::string_view DBuiltinType(char code);

inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }
inline bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }

// Deep enough for real names, shallow enough that hostile input cannot exhaust the stack.
inline constexpr int kMaxDepth = 256;

class Parser {
 public:
  explicit Parser(std::string_view in) : in_(in) {}

  std::optional<NameTree> ParseAll() {
    if (!Consume("_Z")) return std::nullopt;
    const NodeId root = ParseEncoding();
    if (root == kNoNode || pos_ != in_.size()) return std::nullopt;
    tree_.root = root;
    return std::move(tree_);
  }

 private:
  // Guards one level of recursion; the parse fails once too deep.
  class DepthGuard {
   public:
    explicit DepthGuard(int* depth) : depth_(depth) { ++*depth_; }
    ~DepthGuard() { --*depth_; }
    bool TooDeep() const { return *depth_ > kMaxDepth; }

   private:
    int* depth_;
  };

  char Peek(size_t ahead = 0) const { return pos_ + ahead < in_.size() ? in_[pos_ + ahead] : '\0'; }
  bool Consume(std::string_view text) {
    if (in_.substr(pos_, text.size()) != text) return false;
    pos_ += text.size();
    return true;
  }

  NodeId Add(NodeKind kind, std::vector<NodeId> children = {}, std::string text = {},
             int64_t number = 0) {
    for (const NodeId child : children) {
      if (child == kNoNode && kind != NodeKind::kEncoding) return kNoNode;
    }
    tree_.nodes.push_back(Node{kind, std::move(text), number, std::move(children)});
    return static_cast<NodeId>(tree_.nodes.size() - 1);
  }
  NodeId AddName(std::string_view text) { return Add(NodeKind::kName, {}, std::string(text)); }
  const Node& At(NodeId id) const { return tree_[id]; }

  // <number> ::= [n] <digits>, as text ("-12"); empty when there are no digits.
  std::string ParseNumber() {
    std::string number = Consume("n") ? "-" : "";
    const size_t start = pos_;
    while (IsDigit(Peek())) ++pos_;
    if (pos_ == start) return {};
    number.append(in_.substr(start, pos_ - start));
    return number;
  }

  // <seq-id> _ (base 36) or _ alone: 0 for "_", n + 1 for "<n>_"; -1 when malformed.
  int64_t ParseSeqIdUnderscore() {
    if (Consume("_")) return 0;
    int64_t value = 0;
    const size_t start = pos_;
    while (IsDigit(Peek()) || IsUpper(Peek())) {
      const char c = Peek();
      value = value * 36 + (IsDigit(c) ? c - '0' : c - 'A' + 10);
      if (value > (int64_t{1} << 40)) return -1;
      ++pos_;
    }
    if (pos_ == start || !Consume("_")) return -1;
    return value + 1;
  }

  // A discriminator's or instance's "[<number>] _": 0 for "_", n + 1 for "<n>_"; -1 if absent.
  int64_t ParseInstanceUnderscore() {
    if (Consume("_")) return 0;
    const std::string number = ParseNumber();
    if (number.empty() || number[0] == '-' || number.size() > 9 || !Consume("_")) return -1;
    return std::stoll(number) + 1;
  }

  void SkipDiscriminator() {
    if (Peek() != '_') return;
    if (Consume("__")) {
      ParseNumber();
      Consume("_");
      return;
    }
    ++pos_;
    ParseNumber();
  }

  NodeId ParseEncoding();
  NodeId ParseSpecialName();
  NodeId ParseName(bool* is_member_function);
  NodeId ParseNestedName();
  NodeId ParseLocalName();
  NodeId ParseUnscopedName();
  NodeId ParseUnqualifiedName(NodeId scope);
  NodeId ParseSourceName();
  NodeId ParseOperatorName();
  NodeId ParseUnnamedTypeName();
  NodeId ParseCtorDtorName(NodeId scope);
  NodeId ParseAbiTags(NodeId name);
  NodeId ParseSubstitution();
  NodeId ParseTemplateParam();
  NodeId ParseTemplateArgs(NodeId name);
  NodeId ParseTemplateArg();
  NodeId ParseLiteral();
  NodeId ParseExpression();
  NodeId ParseType();
  NodeId ParseQualifiedType();
  NodeId ParseFunctionType();
  NodeId ParseArrayType();
  bool ParseParameterTypes(std::vector<NodeId>* params);

  std::string_view in_;
  size_t pos_ = 0;
  int depth_ = 0;
  NameTree tree_;
  std::vector<NodeId> substitutions_;
};

}  // namespace prof::collector::itanium::detail
