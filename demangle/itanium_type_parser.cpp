// The type half of the Itanium parser (itanium_parser_state.h): substitutions, template
// parameters and arguments, literals, expressions, builtin, qualified, function and array types.
#include <initializer_list>
#include <utility>

#include "demangle/itanium_parser_state.h"

namespace prof::collector::itanium::detail {

std::string_view BuiltinType(char code) {
  switch (code) {
    case 'v':
      return "void";
    case 'w':
      return "wchar_t";
    case 'b':
      return "bool";
    case 'c':
      return "char";
    case 'a':
      return "signed char";
    case 'h':
      return "unsigned char";
    case 's':
      return "short";
    case 't':
      return "unsigned short";
    case 'i':
      return "int";
    case 'j':
      return "unsigned int";
    case 'l':
      return "long";
    case 'm':
      return "unsigned long";
    case 'x':
      return "long long";
    case 'y':
      return "unsigned long long";
    case 'n':
      return "__int128";
    case 'o':
      return "unsigned __int128";
    case 'f':
      return "float";
    case 'd':
      return "double";
    case 'e':
      return "long double";
    case 'g':
      return "__float128";
    case 'z':
      return "...";
    default:
      return {};
  }
}

std::string_view DBuiltinType(char code) {
  switch (code) {
    case 'n':
      return "decltype(nullptr)";
    case 'a':
      return "auto";
    case 'c':
      return "decltype(auto)";
    case 's':
      return "char16_t";
    case 'i':
      return "char32_t";
    case 'u':
      return "char8_t";
    default:
      return {};
  }
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
      {'a', "allocator", ""},
      {'b', "basic_string", ""},
      {'s', "string", "basic_string"},
      {'i', "istream", "basic_istream"},
      {'o', "ostream", "basic_ostream"},
      {'d', "iostream", "basic_iostream"},
  };
  for (const Abbreviation& abbreviation : kAbbreviations) {
    if (Peek() != abbreviation.code) continue;
    ++pos_;
    const NodeId std_scope = AddName("std");
    const bool full = !abbreviation.full_template.empty() && (Peek() == 'C' || Peek() == 'D');
    if (!full) return Add(NodeKind::kNested, {std_scope, AddName(abbreviation.name)});
    const NodeId traits =
        Add(NodeKind::kNested,
            {AddName("std"), Add(NodeKind::kTemplate, {AddName("char_traits"), AddName("char")})});
    std::vector<NodeId> children = {AddName(abbreviation.full_template), AddName("char"), traits};
    if (abbreviation.code == 's') {
      children.push_back(
          Add(NodeKind::kNested,
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
    case 'r':
    case 'V':
    case 'K':
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
  while (pos_ < in_.size() && Peek() != 'E' &&
         !((Peek() == 'R' || Peek() == 'O') && Peek(1) == 'E')) {
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

}  // namespace prof::collector::itanium::detail
