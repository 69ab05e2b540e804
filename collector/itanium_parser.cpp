#include "collector/itanium_parser.h"

#include <initializer_list>
#include <utility>

namespace prof::collector::itanium {
namespace {

struct OperatorCode {
  std::string_view code;
  std::string_view spelling;
  int arity;  // operands in an expression; 0 where prof does not parse the expression form
};

constexpr OperatorCode kOperators[] = {
    {"nw", "new", 0},    {"na", "new[]", 0},     {"dl", "delete", 0}, {"da", "delete[]", 0},
    {"ps", "+", 1},      {"ng", "-", 1},         {"ad", "&", 1},      {"de", "*", 1},
    {"co", "~", 1},      {"pl", "+", 2},         {"mi", "-", 2},      {"ml", "*", 2},
    {"dv", "/", 2},      {"rm", "%", 2},         {"an", "&", 2},      {"or", "|", 2},
    {"eo", "^", 2},      {"aS", "=", 2},         {"pL", "+=", 2},     {"mI", "-=", 2},
    {"mL", "*=", 2},     {"dV", "/=", 2},        {"rM", "%=", 2},     {"aN", "&=", 2},
    {"oR", "|=", 2},     {"eO", "^=", 2},        {"ls", "<<", 2},     {"rs", ">>", 2},
    {"lS", "<<=", 2},    {"rS", ">>=", 2},       {"eq", "==", 2},     {"ne", "!=", 2},
    {"lt", "<", 2},      {"gt", ">", 2},         {"le", "<=", 2},     {"ge", ">=", 2},
    {"ss", "<=>", 2},    {"nt", "!", 1},         {"aa", "&&", 2},     {"oo", "||", 2},
    {"pp", "++", 1},     {"mm", "--", 1},        {"cm", ",", 2},      {"pm", "->*", 0},
    {"pt", "->", 0},     {"cl", "()", 0},        {"ix", "[]", 0},     {"qu", "?", 0},
    {"aw", "co_await", 0},
};

// Builtin types by their one-letter code (<builtin-type>), as the printer spells them.
std::string_view BuiltinType(char code) {
  switch (code) {
    case 'v': return "void";
    case 'w': return "wchar_t";
    case 'b': return "bool";
    case 'c': return "char";
    case 'a': return "signed char";
    case 'h': return "unsigned char";
    case 's': return "short";
    case 't': return "unsigned short";
    case 'i': return "int";
    case 'j': return "unsigned int";
    case 'l': return "long";
    case 'm': return "unsigned long";
    case 'x': return "long long";
    case 'y': return "unsigned long long";
    case 'n': return "__int128";
    case 'o': return "unsigned __int128";
    case 'f': return "float";
    case 'd': return "double";
    case 'e': return "long double";
    case 'g': return "__float128";
    case 'z': return "...";
    default: return {};
  }
}

// Builtin types spelled D<letter>.
std::string_view DBuiltinType(char code) {
  switch (code) {
    case 'n': return "decltype(nullptr)";
    case 'a': return "auto";
    case 'c': return "decltype(auto)";
    case 's': return "char16_t";
    case 'i': return "char32_t";
    case 'u': return "char8_t";
    default: return {};
  }
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsUpper(char c) { return c >= 'A' && c <= 'Z'; }

// Deep enough for real names, shallow enough that hostile input cannot exhaust the stack.
constexpr int kMaxDepth = 256;

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

  char Peek(size_t ahead = 0) const {
    return pos_ + ahead < in_.size() ? in_[pos_ + ahead] : '\0';
  }
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

bool HasReturnType(const NameTree& tree, NodeId name) {
  const Node& node = tree[name];
  switch (node.kind) {
    case NodeKind::kMemberFunction: return HasReturnType(tree, node.children[0]);
    case NodeKind::kLocalName: return HasReturnType(tree, node.children[1]);
    case NodeKind::kTemplate: {
      NodeId base = node.children[0];
      while (tree[base].kind == NodeKind::kNested || tree[base].kind == NodeKind::kAbiTagged) {
        base = tree[base].children.back();
      }
      return tree[base].kind != NodeKind::kCtorDtor && tree[base].kind != NodeKind::kConversion;
    }
    default: return false;
  }
}

NodeId Parser::ParseEncoding() {
  const DepthGuard guard(&depth_);
  if (guard.TooDeep()) return kNoNode;
  if (Peek() == 'T' || (Peek() == 'G' && Peek(1) == 'V')) return ParseSpecialName();
  bool is_member_function = false;
  const NodeId name = ParseName(&is_member_function);
  if (name == kNoNode) return kNoNode;
  if (pos_ == in_.size() || Peek() == 'E') return name;  // a variable, not a function
  NodeId return_type = kNoNode;
  if (HasReturnType(tree_, name) && (return_type = ParseType()) == kNoNode) return kNoNode;
  std::vector<NodeId> children = {name, return_type};
  if (!ParseParameterTypes(&children)) return kNoNode;
  return Add(NodeKind::kEncoding, std::move(children));
}

NodeId Parser::ParseSpecialName() {
  struct Prefix {
    std::string_view code;
    std::string_view text;
    bool of_type;
  };
  static constexpr Prefix kPrefixes[] = {
      {"TV", "vtable for ", true},           {"TT", "VTT for ", true},
      {"TI", "typeinfo for ", true},         {"TS", "typeinfo name for ", true},
      {"TH", "TLS init function for ", false}, {"TW", "TLS wrapper function for ", false},
      {"GV", "guard variable for ", false},
  };
  for (const Prefix& prefix : kPrefixes) {
    if (!Consume(prefix.code)) continue;
    bool is_member_function = false;
    const NodeId entity = prefix.of_type ? ParseType() : ParseName(&is_member_function);
    return Add(NodeKind::kSpecialName, {entity}, std::string(prefix.text));
  }
  if (Consume("Th")) {
    if (ParseNumber().empty() || !Consume("_")) return kNoNode;
    return Add(NodeKind::kSpecialName, {ParseEncoding()}, "non-virtual thunk to ");
  }
  if (Consume("Tv")) {
    if (ParseNumber().empty() || !Consume("_") || ParseNumber().empty() || !Consume("_")) {
      return kNoNode;
    }
    return Add(NodeKind::kSpecialName, {ParseEncoding()}, "virtual thunk to ");
  }
  return kNoNode;
}

NodeId Parser::ParseName(bool* is_member_function) {
  const DepthGuard guard(&depth_);
  if (guard.TooDeep()) return kNoNode;
  if (Peek() == 'N') {
    const NodeId nested = ParseNestedName();
    *is_member_function = nested != kNoNode && At(nested).kind == NodeKind::kMemberFunction;
    return nested;
  }
  if (Peek() == 'Z') return ParseLocalName();
  if (Peek() == 'S' && Peek(1) != 't') {
    const NodeId substitution = ParseSubstitution();
    if (substitution == kNoNode || Peek() != 'I') return kNoNode;
    return ParseTemplateArgs(substitution);
  }
  const NodeId name = ParseUnscopedName();
  if (name == kNoNode || Peek() != 'I') return name;
  substitutions_.push_back(name);
  return ParseTemplateArgs(name);
}

NodeId Parser::ParseUnscopedName() {
  if (Consume("St")) return Add(NodeKind::kNested, {AddName("std"), ParseUnqualifiedName(kNoNode)});
  Consume("L");  // internal linkage, not printed
  return ParseUnqualifiedName(kNoNode);
}

NodeId Parser::ParseNestedName() {
  if (!Consume("N")) return kNoNode;
  std::string qualifiers;
  if (Consume("r")) qualifiers += " restrict";
  if (Consume("V")) qualifiers += " volatile";
  if (Consume("K")) qualifiers += " const";
  if (Consume("R")) qualifiers += " &";
  if (Consume("O")) qualifiers += " &&";
  NodeId so_far = kNoNode;
  while (!Consume("E")) {
    Consume("L");
    if (Peek() == 'S' && Peek(1) == 't') {
      if (so_far != kNoNode) return kNoNode;
      pos_ += 2;
      so_far = AddName("std");
      continue;
    }
    if (Peek() == 'S') {
      if (so_far != kNoNode) return kNoNode;
      so_far = ParseSubstitution();
      if (so_far == kNoNode) return kNoNode;
      continue;  // a substitution is not a candidate again
    }
    if (Peek() == 'I') {
      if (so_far == kNoNode) return kNoNode;
      so_far = ParseTemplateArgs(so_far);
    } else if (Peek() == 'T') {
      if (so_far != kNoNode) return kNoNode;
      so_far = ParseTemplateParam();
    } else {
      const NodeId member = ParseUnqualifiedName(so_far);
      so_far = so_far == kNoNode ? member : Add(NodeKind::kNested, {so_far, member});
    }
    if (so_far == kNoNode) return kNoNode;
    substitutions_.push_back(so_far);
  }
  // The whole nested name is no prefix, so not a candidate (a type's caller adds it as a type).
  if (so_far == kNoNode || substitutions_.empty() || substitutions_.back() != so_far) {
    return kNoNode;
  }
  substitutions_.pop_back();
  if (qualifiers.empty()) return so_far;
  return Add(NodeKind::kMemberFunction, {so_far}, std::move(qualifiers));
}

NodeId Parser::ParseLocalName() {
  if (!Consume("Z")) return kNoNode;
  const NodeId encoding = ParseEncoding();
  if (encoding == kNoNode || !Consume("E")) return kNoNode;
  NodeId entity = kNoNode;
  if (Consume("s")) {
    entity = AddName("string literal");
  } else {
    bool is_member_function = false;
    entity = ParseName(&is_member_function);
  }
  SkipDiscriminator();
  return Add(NodeKind::kLocalName, {encoding, entity});
}

NodeId Parser::ParseUnqualifiedName(NodeId scope) {
  NodeId name = kNoNode;
  const char c = Peek();
  if (IsDigit(c)) {
    name = ParseSourceName();
  } else if (c == 'U') {
    name = ParseUnnamedTypeName();
  } else if (c == 'C' || (c == 'D' && Peek(1) >= '0' && Peek(1) <= '5')) {
    name = ParseCtorDtorName(scope);
  } else if (c >= 'a' && c <= 'z') {
    name = ParseOperatorName();
  }
  return name == kNoNode ? kNoNode : ParseAbiTags(name);
}

NodeId Parser::ParseSourceName() {
  const std::string length = ParseNumber();
  if (length.empty() || length[0] == '-' || length.size() > 6) return kNoNode;
  const size_t size = std::stoul(length);
  if (size == 0 || size > in_.size() - pos_) return kNoNode;
  const std::string_view identifier = in_.substr(pos_, size);
  pos_ += size;
  // GCC's and NVCC's anonymous namespaces: "_GLOBAL_" then '.', '_' or '$', then 'N'.
  const char separator = identifier.size() >= 10 ? identifier[8] : '\0';
  if (identifier.substr(0, 8) == "_GLOBAL_" &&
      (separator == '.' || separator == '_' || separator == '$') && identifier[9] == 'N') {
    return Add(NodeKind::kAnonymousNamespace);
  }
  return AddName(identifier);
}

NodeId Parser::ParseOperatorName() {
  if (Consume("cv")) return Add(NodeKind::kConversion, {ParseType()});
  if (Consume("li")) {
    const NodeId suffix = ParseSourceName();
    if (suffix == kNoNode) return kNoNode;
    return Add(NodeKind::kOperator, {}, "\"\" " + At(suffix).text);
  }
  for (const OperatorCode& op : kOperators) {
    if (Consume(op.code)) return Add(NodeKind::kOperator, {}, std::string(op.spelling));
  }
  return kNoNode;
}

NodeId Parser::ParseUnnamedTypeName() {
  if (Consume("Ut")) {
    const int64_t instance = ParseInstanceUnderscore();
    return instance < 0 ? kNoNode : Add(NodeKind::kUnnamedType, {}, {}, instance + 1);
  }
  if (!Consume("Ul")) return kNoNode;
  std::vector<NodeId> params;
  while (!Consume("E")) {
    if (pos_ >= in_.size()) return kNoNode;
    const NodeId param = ParseType();
    if (param == kNoNode) return kNoNode;
    params.push_back(param);
  }
  if (params.size() == 1 && At(params[0]).kind == NodeKind::kName && At(params[0]).text == "void") {
    params.clear();
  }
  const int64_t instance = ParseInstanceUnderscore();
  if (instance < 0) return kNoNode;
  return Add(NodeKind::kLambda, std::move(params), {}, instance + 1);
}

NodeId Parser::ParseCtorDtorName(NodeId scope) {
  if (scope == kNoNode) return kNoNode;
  if (Consume("CI1") || Consume("CI2")) {
    if (ParseType() == kNoNode) return kNoNode;
    return Add(NodeKind::kCtorDtor, {scope});
  }
  const char kind = Peek();
  const char variant = Peek(1);
  const bool valid = kind == 'C' ? variant >= '1' && variant <= '5'
                                 : variant == '0' || variant == '1' || variant == '2' ||
                                       variant == '4' || variant == '5';
  if (!valid) return kNoNode;
  pos_ += 2;
  return Add(NodeKind::kCtorDtor, {scope}, {}, kind == 'D' ? 1 : 0);
}

NodeId Parser::ParseAbiTags(NodeId name) {
  while (Consume("B")) {
    const NodeId tag = ParseSourceName();
    if (tag == kNoNode || At(tag).kind != NodeKind::kName) return kNoNode;
    name = Add(NodeKind::kAbiTagged, {name}, At(tag).text);
  }
  return name;
}

NodeId Parser::ParseSubstitution() {
  if (!Consume("S")) return kNoNode;
  // The standard abbreviations; Ss, Si, So and Sd name the full template before a constructor or
  // destructor, whose name is the template's.
  struct Abbreviation {
    char code;
    std::string_view name;
    std::string_view full_template;  // empty: "std::" + name
  };
  static constexpr Abbreviation kAbbreviations[] = {
      {'a', "allocator", ""},     {'b', "basic_string", ""},
      {'s', "string", "basic_string"}, {'i', "istream", "basic_istream"},
      {'o', "ostream", "basic_ostream"}, {'d', "iostream", "basic_iostream"},
  };
  for (const Abbreviation& abbreviation : kAbbreviations) {
    if (Peek() != abbreviation.code) continue;
    ++pos_;
    const NodeId std_scope = AddName("std");
    const bool full = !abbreviation.full_template.empty() && (Peek() == 'C' || Peek() == 'D');
    if (!full) return Add(NodeKind::kNested, {std_scope, AddName(abbreviation.name)});
    const NodeId traits = Add(NodeKind::kNested,
        {AddName("std"), Add(NodeKind::kTemplate, {AddName("char_traits"), AddName("char")})});
    std::vector<NodeId> children = {AddName(abbreviation.full_template), AddName("char"), traits};
    if (abbreviation.code == 's') {
      children.push_back(Add(NodeKind::kNested,
          {AddName("std"), Add(NodeKind::kTemplate, {AddName("allocator"), AddName("char")})}));
    }
    return Add(NodeKind::kNested, {std_scope, Add(NodeKind::kTemplate, std::move(children))});
  }
  const int64_t index = ParseSeqIdUnderscore();
  if (index < 0 || index >= static_cast<int64_t>(substitutions_.size())) return kNoNode;
  return substitutions_[static_cast<size_t>(index)];
}

NodeId Parser::ParseTemplateParam() {
  if (!Consume("T")) return kNoNode;
  const int64_t index = ParseSeqIdUnderscore();
  return index < 0 ? kNoNode : Add(NodeKind::kTemplateParam, {}, {}, index);
}

NodeId Parser::ParseTemplateArgs(NodeId name) {
  if (!Consume("I")) return kNoNode;
  std::vector<NodeId> children = {name};
  while (!Consume("E")) {
    const NodeId arg = ParseTemplateArg();
    if (arg == kNoNode) return kNoNode;
    children.push_back(arg);
  }
  return Add(NodeKind::kTemplate, std::move(children));
}

NodeId Parser::ParseTemplateArg() {
  const DepthGuard guard(&depth_);
  if (guard.TooDeep()) return kNoNode;
  if (Consume("X")) {
    const NodeId expression = ParseExpression();
    return Consume("E") ? expression : kNoNode;
  }
  if (Peek() == 'L') return ParseLiteral();
  if (Consume("J")) {
    std::vector<NodeId> elements;
    while (!Consume("E")) {
      const NodeId element = ParseTemplateArg();
      if (element == kNoNode) return kNoNode;
      elements.push_back(element);
    }
    return Add(NodeKind::kArgumentPack, std::move(elements));
  }
  return ParseType();
}

NodeId Parser::ParseLiteral() {
  if (!Consume("L")) return kNoNode;
  if (Consume("_Z") || Consume("Z")) {
    const NodeId entity = ParseEncoding();
    return Consume("E") ? Add(NodeKind::kExternalName, {entity}) : kNoNode;
  }
  if (Consume("DnE")) return AddName("decltype(nullptr)");
  const char code = Peek();
  const NodeId type = ParseType();
  const std::string value = ParseNumber();
  if (type == kNoNode || value.empty() || !Consume("E")) return kNoNode;
  const bool integer = std::string_view("bijlmxy").find(code) != std::string_view::npos;
  return Add(integer ? NodeKind::kIntegerLiteral : NodeKind::kTypedLiteral, {type}, value);
}

NodeId Parser::ParseExpression() {
  const DepthGuard guard(&depth_);
  if (guard.TooDeep()) return kNoNode;
  if (Peek() == 'L') return ParseLiteral();
  if (Peek() == 'T') return ParseTemplateParam();
  if (Consume("st")) return Add(NodeKind::kSizeof, {ParseType()});
  if (Consume("sz")) return Add(NodeKind::kSizeof, {ParseExpression()});
  for (const OperatorCode& op : kOperators) {
    if (op.arity == 0 || !Consume(op.code)) continue;
    const std::string spelling(op.spelling);
    const NodeId first = ParseExpression();
    if (op.arity == 1) return Add(NodeKind::kUnaryExpression, {first}, spelling);
    return Add(NodeKind::kBinaryExpression, {first, ParseExpression()}, spelling);
  }
  return kNoNode;
}

NodeId Parser::ParseType() {
  const DepthGuard guard(&depth_);
  if (guard.TooDeep()) return kNoNode;
  const char c = Peek();
  if (const std::string_view builtin = BuiltinType(c); !builtin.empty()) {
    ++pos_;
    return AddName(builtin);
  }
  NodeId type = kNoNode;
  switch (c) {
    case 'u':
      ++pos_;
      type = ParseSourceName();
      break;
    case 'r': case 'V': case 'K':
      type = ParseQualifiedType();
      break;
    case 'P':
      ++pos_;
      type = Add(NodeKind::kPointer, {ParseType()});
      break;
    case 'R':
      ++pos_;
      type = Add(NodeKind::kLValueReference, {ParseType()});
      break;
    case 'O':
      ++pos_;
      type = Add(NodeKind::kRValueReference, {ParseType()});
      break;
    case 'F':
      type = ParseFunctionType();
      break;
    case 'A':
      type = ParseArrayType();
      break;
    case 'M': {
      ++pos_;
      const NodeId class_type = ParseType();
      type = Add(NodeKind::kPointerToMember, {class_type, ParseType()});
      break;
    }
    case 'T':
      type = ParseTemplateParam();
      if (type != kNoNode && Peek() == 'I') {
        substitutions_.push_back(type);
        type = ParseTemplateArgs(type);
      }
      break;
    case 'D':
      if (const std::string_view builtin = DBuiltinType(Peek(1)); !builtin.empty()) {
        pos_ += 2;
        return AddName(builtin);
      }
      if (Consume("Dp")) {
        type = Add(NodeKind::kPackExpansion, {ParseType()});
      } else if (Consume("DT") || Consume("Dt")) {
        const NodeId expression = ParseExpression();
        type = Consume("E") ? Add(NodeKind::kDecltype, {expression}) : kNoNode;
      }
      break;
    case 'S':
      if (Peek(1) != 't') {
        type = ParseSubstitution();
        if (type == kNoNode || Peek() != 'I') return type;  // no new candidate
        type = ParseTemplateArgs(type);
        break;
      }
      [[fallthrough]];
    default: {
      bool is_member_function = false;
      type = ParseName(&is_member_function);
      if (is_member_function) return kNoNode;
    }
  }
  if (type == kNoNode) return kNoNode;
  substitutions_.push_back(type);
  return type;
}

NodeId Parser::ParseQualifiedType() {
  std::string qualifiers;
  const auto add = [&qualifiers](std::string_view word) {
    qualifiers = qualifiers.empty() ? std::string(word) : std::string(word) + " " + qualifiers;
  };
  if (Consume("r")) add("restrict");
  if (Consume("V")) add("volatile");
  if (Consume("K")) add("const");
  return Add(NodeKind::kQualified, {ParseType()}, std::move(qualifiers));
}

NodeId Parser::ParseFunctionType() {
  if (!Consume("F")) return kNoNode;
  Consume("Y");  // extern "C"
  std::vector<NodeId> children = {ParseType()};
  if (children[0] == kNoNode || !ParseParameterTypes(&children)) return kNoNode;
  std::string qualifiers;
  if (Consume("R")) qualifiers = " &";
  if (Consume("O")) qualifiers = " &&";
  if (!Consume("E")) return kNoNode;
  return Add(NodeKind::kFunctionType, std::move(children), std::move(qualifiers));
}

NodeId Parser::ParseArrayType() {
  if (!Consume("A")) return kNoNode;
  std::string dimension;
  if (IsDigit(Peek())) dimension = ParseNumber();
  if (!Consume("_")) return kNoNode;
  return Add(NodeKind::kArray, {ParseType()}, std::move(dimension));
}

// Parameter types up to the end of the input or an 'E' (or a ref-qualifier before it); "v" alone
// is the empty list.
bool Parser::ParseParameterTypes(std::vector<NodeId>* params) {
  const size_t first = params->size();
  while (pos_ < in_.size() && Peek() != 'E' && !((Peek() == 'R' || Peek() == 'O') && Peek(1) == 'E')) {
    const NodeId param = ParseType();
    if (param == kNoNode) return false;
    params->push_back(param);
  }
  if (params->size() == first) return false;
  if (params->size() == first + 1 && At(params->back()).kind == NodeKind::kName &&
      At(params->back()).text == "void") {
    params->pop_back();
  }
  return true;
}

}  // namespace

std::optional<NameTree> ParseMangledName(std::string_view mangled) {
  return Parser(mangled).ParseAll();
}

}  // namespace prof::collector::itanium
