// The tree an Itanium C++ ABI mangled name parses into (itanium_parser.h builds it,
// itanium_printer.h prints it). Nodes live in one vector and refer to each other by index, so a
// substitution (S_, S0_, ...) is just a second reference to an earlier node.
//
// To add a construct: add a NodeKind, say below what its text, number and children hold, build it
// in the parser and print it in the printer.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace prof::collector::itanium {

using NodeId = int32_t;
constexpr NodeId kNoNode = -1;

enum class NodeKind : uint8_t {
  kName,  // text: an identifier, builtin type or fixed spelling ("std", "int")
  kAnonymousNamespace,
  kNested,            // children: scope, member
  kTemplate,          // children: template name, then the arguments
  kArgumentPack,      // children: the pack's arguments (J...E)
  kTemplateParam,     // number: the parameter's index (T_ is 0, T0_ is 1)
  kAbiTagged,         // children: the tagged name; text: the tag
  kOperator,          // text: the operator's spelling ("+", "new", "()")
  kConversion,        // children: the target type
  kCtorDtor,          // children: the class whose constructor this is; number: 1 for destructors
  kLambda,            // children: parameter types; number: instance (1 for Ul...E_)
  kUnnamedType,       // number: instance
  kLocalName,         // children: the enclosing function's encoding, the local entity
  kEncoding,          // children: name, return type or kNoNode, parameter types
  kMemberFunction,    // children: the function's name; text: " const", " &", ... as printed
  kSpecialName,       // children: the entity; text: the prefix ("vtable for ")
  kQualified,         // children: the type; text: "const", "volatile", "const volatile", ...
  kPointer,           // children: pointee
  kLValueReference,   // children: referee
  kRValueReference,   // children: referee
  kArray,             // children: element type; text: dimension
  kFunctionType,      // children: return type, parameter types; text: qualifiers as printed
  kPointerToMember,   // children: class type, member type
  kPackExpansion,     // children: the pattern (Dp)
  kDecltype,          // children: the expression
  kIntegerLiteral,    // children: the type; text: the value ("-4")
  kTypedLiteral,      // children: the type; text: the value, printed "(type)value"
  kExternalName,      // children: the encoding of an entity named as a template argument (L_Z...E)
  kUnaryExpression,   // children: operand; text: operator
  kBinaryExpression,  // children: operands; text: operator
  kSizeof,            // children: the type or expression; number: 1 for sizeof...
};

struct Node {
  NodeKind kind;
  std::string text;
  int64_t number = 0;
  std::vector<NodeId> children;
};

struct NameTree {
  std::vector<Node> nodes;
  NodeId root = kNoNode;

  const Node& operator[](NodeId id) const { return nodes[static_cast<size_t>(id)]; }
};

}  // namespace prof::collector::itanium
