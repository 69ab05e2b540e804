#include "demangle/itanium_parser.h"

#include <utility>

#include "demangle/itanium_parser_state.h"

namespace prof::collector::itanium {
namespace detail {
namespace {

bool HasReturnType(const NameTree& tree, NodeId name) {
  const Node& node = tree[name];
  switch (node.kind) {
    case NodeKind::kMemberFunction:
      return HasReturnType(tree, node.children[0]);
    case NodeKind::kLocalName:
      return HasReturnType(tree, node.children[1]);
    case NodeKind::kTemplate: {
      NodeId base = node.children[0];
      while (tree[base].kind == NodeKind::kNested || tree[base].kind == NodeKind::kAbiTagged) {
        base = tree[base].children.back();
      }
      return tree[base].kind != NodeKind::kCtorDtor && tree[base].kind != NodeKind::kConversion;
    }
    default:
      return false;
  }
}

}  // namespace

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
      {"TV", "vtable for ", true},
      {"TT", "VTT for ", true},
      {"TI", "typeinfo for ", true},
      {"TS", "typeinfo name for ", true},
      {"TH", "TLS init function for ", false},
      {"TW", "TLS wrapper function for ", false},
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

}  // namespace detail

std::optional<NameTree> ParseMangledName(std::string_view mangled) {
  return detail::Parser(mangled).ParseAll();
}

}  // namespace prof::collector::itanium
