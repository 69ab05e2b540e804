#include "demangle/itanium_printer.h"

#include <string_view>
#include <vector>

namespace prof::collector::itanium {
namespace {

constexpr size_t kMaxOutput = size_t{1} << 20;
constexpr int kMaxDepth = 512;

// The suffix __cxa_demangle gives integer literals that are not whole template arguments.
std::string_view LiteralSuffix(std::string_view type) {
  if (type == "unsigned int") return "u";
  if (type == "long") return "l";
  if (type == "unsigned long") return "ul";
  if (type == "long long") return "ll";
  if (type == "unsigned long long") return "ull";
  return {};
}

class Printer {
 public:
  Printer(const NameTree& tree, DemangleStyle style) : tree_(tree), style_(style) {}

  std::optional<std::string> Run() {
    Print(tree_.root);
    if (failed_) return std::nullopt;
    return std::move(out_);
  }

 private:
  // Counts one level of printing recursion; printing fails once too deep or too long.
  class DepthGuard {
   public:
    explicit DepthGuard(Printer* printer) : printer_(printer) { ++printer_->depth_; }
    ~DepthGuard() { --printer_->depth_; }
    bool Stop() const {
      if (printer_->depth_ > kMaxDepth || printer_->out_.size() > kMaxOutput) {
        printer_->failed_ = true;
      }
      return printer_->failed_;
    }

   private:
    Printer* printer_;
  };

  // kSubstituted: a template parameter stands for its template argument, whose own template
  // parameters refer to the templates outside; so the innermost template is popped meanwhile.
  class Substitution {
   public:
    Substitution(Printer* printer, NodeId id) : printer_(printer), id_(id) {
      if (!printer->Substitutes(id)) return;
      const NodeId argument = printer->ResolveTemplateParam(printer->At(id));
      if (argument == kNoNode) {
        printer->failed_ = true;
        return;
      }
      id_ = argument;
      owner_ = printer->templates_.back();
      printer->templates_.pop_back();
    }
    ~Substitution() {
      if (owner_ != kNoNode) printer_->templates_.push_back(owner_);
    }
    Substitution(const Substitution&) = delete;
    Substitution& operator=(const Substitution&) = delete;
    NodeId id() const { return id_; }

   private:
    Printer* printer_;
    NodeId id_;
    NodeId owner_ = kNoNode;
  };

  const Node& At(NodeId id) const { return tree_[id]; }
  bool Substituting() const { return style_ == DemangleStyle::kSubstituted; }
  bool Substitutes(NodeId id) const {
    return Substituting() && !in_lambda_params_ && At(id).kind == NodeKind::kTemplateParam;
  }

  // '*' and '&' get a space before them unless they follow a space, '(', '*' or '&'.
  void AppendPointerSymbol(std::string_view symbol) {
    const char last = out_.empty() ? ' ' : out_.back();
    if (last != ' ' && last != '(' && last != '*' && last != '&') out_ += ' ';
    out_ += symbol;
  }

  void Print(NodeId id);
  void PrintTemplate(const Node& node);
  void PrintTemplateArg(NodeId id);
  void PrintTemplateParam(const Node& node);
  void PrintEncoding(const Node& node, bool scopes_local_entity);
  NodeId MemberFunctionOf(NodeId name) const;
  void PrintList(const std::vector<NodeId>& items, size_t first);
  void PrintPackExpansion(const Node& node);
  void PrintCtorDtorName(NodeId scope);
  void PrintOperatorName(const Node& node);
  void PrintIntegerLiteral(const Node& node, bool whole_template_arg);
  void PrintUnaryExpression(const Node& node);
  void PrintSubexpression(NodeId id);
  void PrintTypeLeft(NodeId id);
  void PrintTypeRight(NodeId id);
  template <typename Visit>
  void WithPointee(const Node& declarator, Visit visit);
  static bool IsReference(NodeKind kind);
  static bool IsDeclaratorOperator(NodeKind kind);
  bool IsFunctionOrArray(NodeId id);
  bool IsFunctionType(NodeId id);
  bool NeedsParentheses(NodeId id);
  NodeId ResolveTemplateParam(const Node& param) const;
  NodeId FindPack(NodeId id, int depth) const;

  const NameTree& tree_;
  const DemangleStyle style_;
  std::string out_;
  bool failed_ = false;
  int depth_ = 0;
  // kSubstituted: the templates whose arguments template parameters refer to, innermost last.
  std::vector<NodeId> templates_;
  int pack_index_ = -1;
  bool in_lambda_params_ = false;
};

void Printer::Print(NodeId id) {
  const DepthGuard guard(this);
  if (guard.Stop()) return;
  const Node& node = At(id);
  switch (node.kind) {
    case NodeKind::kName:
      out_ += node.text;
      return;
    case NodeKind::kAnonymousNamespace:
      out_ += "<unnamed>";
      return;
    case NodeKind::kNested:
      Print(node.children[0]);
      out_ += "::";
      Print(node.children[1]);
      return;
    case NodeKind::kTemplate:
      PrintTemplate(node);
      return;
    case NodeKind::kArgumentPack:
      PrintList(node.children, 0);
      return;
    case NodeKind::kTemplateParam:
      PrintTemplateParam(node);
      return;
    case NodeKind::kAbiTagged:
      Print(node.children[0]);
      out_ += "[abi:" + node.text + "]";
      return;
    case NodeKind::kOperator:
      PrintOperatorName(node);
      return;
    case NodeKind::kConversion:
      out_ += "operator ";
      Print(node.children[0]);
      return;
    case NodeKind::kCtorDtor:
      if (node.number == 1) out_ += '~';
      PrintCtorDtorName(node.children[0]);
      return;
    case NodeKind::kLambda: {
      out_ += "[lambda(";
      const bool outer = in_lambda_params_;
      in_lambda_params_ = true;
      PrintList(node.children, 0);
      in_lambda_params_ = outer;
      out_ += ") (instance " + std::to_string(node.number) + ")]";
      return;
    }
    case NodeKind::kUnnamedType:
      out_ += "{unnamed type#" + std::to_string(node.number) + "}";
      return;
    case NodeKind::kLocalName:
      if (At(node.children[0]).kind == NodeKind::kEncoding) {
        PrintEncoding(At(node.children[0]), true);
      } else {
        Print(node.children[0]);
      }
      out_ += "::";
      Print(node.children[1]);
      return;
    case NodeKind::kEncoding:
      PrintEncoding(node, false);
      return;
    case NodeKind::kMemberFunction:
      Print(node.children[0]);
      return;
    case NodeKind::kSpecialName:
      out_ += node.text;
      Print(node.children[0]);
      return;
    case NodeKind::kPackExpansion:
      PrintPackExpansion(node);
      return;
    case NodeKind::kDecltype:
      out_ += "decltype (";
      Print(node.children[0]);
      out_ += ')';
      return;
    case NodeKind::kIntegerLiteral:
      PrintIntegerLiteral(node, false);
      return;
    case NodeKind::kTypedLiteral:
      out_ += '(';
      Print(node.children[0]);
      out_ += ')' + node.text;
      return;
    case NodeKind::kExternalName:
      Print(node.children[0]);
      return;
    case NodeKind::kUnaryExpression:
      PrintUnaryExpression(node);
      return;
    case NodeKind::kBinaryExpression: {
      const bool parenthesize = node.text == ">";  // keeps the '>' from closing the arguments
      if (parenthesize) out_ += '(';
      PrintSubexpression(node.children[0]);
      out_ += node.text;
      PrintSubexpression(node.children[1]);
      if (parenthesize) out_ += ')';
      return;
    }
    case NodeKind::kSizeof:
      out_ += "sizeof (";
      Print(node.children[0]);
      out_ += ')';
      return;
    default:  // compound types
      PrintTypeLeft(id);
      if (IsFunctionType(id)) out_ += ' ';  // "void (int)", not "void (*(int))(float)"
      PrintTypeRight(id);
  }
}

void Printer::PrintTemplate(const Node& node) {
  Print(node.children[0]);
  if (!out_.empty() && out_.back() == '<') out_ += ' ';  // "operator< <int>"
  out_ += '<';
  const size_t open = out_.size();
  for (size_t i = 1; i < node.children.size(); ++i) {
    const size_t before = out_.size();
    if (before != open) out_ += ", ";
    PrintTemplateArg(node.children[i]);
    if (out_.size() == before + 2 && before != open) out_.resize(before);  // an empty pack
  }
  out_ += '>';
}

void Printer::PrintTemplateArg(NodeId id) {
  const Node& node = At(id);
  if (node.kind == NodeKind::kIntegerLiteral) {
    PrintIntegerLiteral(node, true);
  } else if (node.kind == NodeKind::kArgumentPack) {
    for (size_t i = 0; i < node.children.size(); ++i) {
      if (i > 0) out_ += ", ";
      PrintTemplateArg(node.children[i]);
    }
  } else {
    Print(id);
  }
}

NodeId Printer::ResolveTemplateParam(const Node& param) const {
  if (templates_.empty()) return kNoNode;
  const Node& owner = At(templates_.back());
  const size_t index = static_cast<size_t>(param.number) + 1;
  if (index >= owner.children.size()) return kNoNode;
  const NodeId arg = owner.children[index];
  if (At(arg).kind != NodeKind::kArgumentPack) return arg;
  const std::vector<NodeId>& elements = At(arg).children;
  if (pack_index_ < 0 || static_cast<size_t>(pack_index_) >= elements.size()) return kNoNode;
  return elements[static_cast<size_t>(pack_index_)];
}

void Printer::PrintTemplateParam(const Node& node) {
  if (!Substituting()) {
    out_ += 'T' + std::to_string(node.number + 1);
    return;
  }
  if (in_lambda_params_) {  // a generic lambda's parameter, as __cxa_demangle spells it
    out_ += "auto:" + std::to_string(node.number + 1);
    return;
  }
  const Substitution argument(this, static_cast<NodeId>(&node - tree_.nodes.data()));
  if (!failed_) PrintTemplateArg(argument.id());
}

// The function a name declares: the local entity of a local name.
NodeId Printer::MemberFunctionOf(NodeId name) const {
  while (At(name).kind == NodeKind::kLocalName) name = At(name).children[1];
  return name;
}

// "ret name(params) qualifiers": the return type only where the name is a template's, and in
// kSubstituted style not for functions that scope a local entity.
void Printer::PrintEncoding(const Node& node, bool scopes_local_entity) {
  const NodeId name = node.children[0];
  const NodeId return_type = node.children[1];
  NodeId typed = MemberFunctionOf(name);
  if (At(typed).kind == NodeKind::kMemberFunction) typed = At(typed).children[0];
  const bool is_template = At(typed).kind == NodeKind::kTemplate;
  if (is_template) templates_.push_back(typed);
  const bool show_return = return_type != kNoNode && !(scopes_local_entity && Substituting());
  if (show_return) {
    PrintTypeLeft(return_type);
    if (!IsFunctionOrArray(return_type)) out_ += ' ';
  }
  Print(name);
  out_ += '(';
  PrintList(node.children, 2);
  out_ += ')';
  if (const Node& member = At(MemberFunctionOf(name)); member.kind == NodeKind::kMemberFunction) {
    out_ += member.text;
  }
  if (show_return) PrintTypeRight(return_type);
  if (is_template) templates_.pop_back();
}

void Printer::PrintList(const std::vector<NodeId>& items, size_t first) {
  const size_t open = out_.size();
  for (size_t i = first; i < items.size(); ++i) {
    const size_t before = out_.size();
    if (before != open) out_ += ", ";
    Print(items[i]);
    if (out_.size() == before + 2 && before != open) out_.resize(before);  // an empty pack
  }
}

// The first argument pack that a template parameter in the pattern stands for, or kNoNode.
NodeId Printer::FindPack(NodeId id, int depth) const {
  if (depth > kMaxDepth) return kNoNode;
  const Node& node = At(id);
  if (node.kind == NodeKind::kTemplateParam) {
    if (templates_.empty()) return kNoNode;
    const Node& owner = At(templates_.back());
    const size_t index = static_cast<size_t>(node.number) + 1;
    if (index < owner.children.size() &&
        At(owner.children[index]).kind == NodeKind::kArgumentPack) {
      return owner.children[index];
    }
    return kNoNode;
  }
  if (node.kind == NodeKind::kPackExpansion) return kNoNode;
  for (const NodeId child : node.children) {
    if (child == kNoNode) continue;
    if (const NodeId pack = FindPack(child, depth + 1); pack != kNoNode) return pack;
  }
  return kNoNode;
}

// kNsys: "T1...". kSubstituted: the pattern once per element of its pack, as __cxa_demangle does.
void Printer::PrintPackExpansion(const Node& node) {
  const NodeId pattern = node.children[0];
  if (!Substituting()) {
    Print(pattern);
    out_ += "...";
    return;
  }
  const NodeId pack = FindPack(pattern, 0);
  if (pack == kNoNode) {
    PrintSubexpression(pattern);
    out_ += "...";
    return;
  }
  const int outer = pack_index_;
  for (size_t i = 0; i < At(pack).children.size(); ++i) {
    if (i > 0) out_ += ", ";
    pack_index_ = static_cast<int>(i);
    Print(pattern);
  }
  pack_index_ = outer;
}

void Printer::PrintCtorDtorName(NodeId scope) {
  const Node& node = At(scope);
  switch (node.kind) {
    case NodeKind::kTemplate:
      PrintCtorDtorName(node.children[0]);
      return;
    case NodeKind::kNested:
      PrintCtorDtorName(node.children[1]);
      return;
    case NodeKind::kAbiTagged:
      PrintCtorDtorName(node.children[0]);
      return;
    default:
      Print(scope);
  }
}

// "operator+", "operator new"; a space also before '(', '*' and '&' ("operator ()",
// "operator *"), as nsys spaces them.
void Printer::PrintOperatorName(const Node& node) {
  out_ += "operator";
  const char first = node.text.empty() ? ' ' : node.text[0];
  const bool word = (first >= 'a' && first <= 'z') || first == '"';
  if (word || first == '(' || first == '*' || first == '&') out_ += ' ';
  out_ += node.text;
}

// A whole template argument "(int)4"; elsewhere __cxa_demangle's "4", "4ul"; bools "true".
void Printer::PrintIntegerLiteral(const Node& node, bool whole_template_arg) {
  const std::string& type = At(node.children[0]).text;
  if (type == "bool" && (node.text == "0" || node.text == "1")) {
    out_ += node.text == "1" ? "true" : "false";
  } else if (type == "bool") {
    out_ += "(bool)" + node.text;
  } else if (whole_template_arg) {
    out_ += '(' + type + ')' + node.text;
  } else {
    out_ += node.text;
    out_ += LiteralSuffix(type);
  }
}

// "&f" for the address of a function: its name without the parameter list, as __cxa_demangle
// prints it (which keeps the whole signature of function templates).
void Printer::PrintUnaryExpression(const Node& node) {
  out_ += node.text;
  const Node& operand = At(node.children[0]);
  if (node.text == "&" && operand.kind == NodeKind::kExternalName &&
      At(operand.children[0]).kind == NodeKind::kEncoding) {
    const Node& function = At(operand.children[0]);
    const bool is_template = function.children[1] != kNoNode;  // __cxa_demangle's "&(void f<T>(T))"
    if (is_template) out_ += '(';
    Print(is_template ? operand.children[0] : function.children[0]);
    if (is_template) out_ += ')';
    return;
  }
  PrintSubexpression(node.children[0]);
}

// An operand, parenthesized unless it is a name.
void Printer::PrintSubexpression(NodeId id) {
  const NodeKind kind = At(id).kind;
  const bool simple =
      kind == NodeKind::kName || kind == NodeKind::kNested || kind == NodeKind::kExternalName;
  if (!simple) out_ += '(';
  Print(id);
  if (!simple) out_ += ')';
}

bool Printer::IsReference(NodeKind kind) {
  return kind == NodeKind::kLValueReference || kind == NodeKind::kRValueReference;
}

bool Printer::IsDeclaratorOperator(NodeKind kind) {
  return kind == NodeKind::kPointer || IsReference(kind) || kind == NodeKind::kPointerToMember;
}

bool Printer::IsFunctionOrArray(NodeId id) {
  const Substitution type(this, id);
  const Node& node = At(type.id());
  if (node.kind == NodeKind::kQualified) return IsFunctionOrArray(node.children[0]);
  if (IsDeclaratorOperator(node.kind)) return IsFunctionOrArray(node.children.back());
  return node.kind == NodeKind::kFunctionType || node.kind == NodeKind::kArray;
}

// Whether a pointer or reference to this type is parenthesized: "void (*)(int)", "int (&) [4]".
bool Printer::NeedsParentheses(NodeId id) {
  const Substitution type(this, id);
  const Node& node = At(type.id());
  if (node.kind == NodeKind::kQualified) return NeedsParentheses(node.children[0]);
  return node.kind == NodeKind::kFunctionType || node.kind == NodeKind::kArray;
}

// A function type, possibly cv-qualified, whose return type prints no declarator of its own.
bool Printer::IsFunctionType(NodeId id) {
  const Node& node = At(id);
  if (node.kind == NodeKind::kQualified) return IsFunctionType(node.children[0]);
  return node.kind == NodeKind::kFunctionType && !IsFunctionOrArray(node.children[0]);
}

// Calls visit(pointee, symbol) for a pointer or reference. In kSubstituted style a reference to a
// template parameter whose argument is a reference collapses ("T&&" with T = "int&" is "int&"),
// as __cxa_demangle prints it.
template <typename Visit>
void Printer::WithPointee(const Node& declarator, Visit visit) {
  const NodeId pointee = declarator.children[0];
  if (declarator.kind == NodeKind::kPointer) return visit(pointee, "*");
  const bool rvalue = declarator.kind == NodeKind::kRValueReference;
  if (Substitutes(pointee)) {
    const NodeId argument = ResolveTemplateParam(At(pointee));
    if (argument != kNoNode && IsReference(At(argument).kind)) {
      const Substitution collapsed(this, pointee);
      const bool both_rvalue = rvalue && At(argument).kind == NodeKind::kRValueReference;
      return visit(At(argument).children[0], both_rvalue ? "&&" : "&");
    }
  }
  visit(pointee, rvalue ? "&&" : "&");
}

// Types print in two parts around a declarator: "void (*" and ")(int)", "int (*" and ") [4]".
void Printer::PrintTypeLeft(NodeId id) {
  const DepthGuard guard(this);
  if (guard.Stop()) return;
  const Substitution type(this, id);
  if (failed_) return;
  const Node& node = At(type.id());
  switch (node.kind) {
    case NodeKind::kPointer:
    case NodeKind::kLValueReference:
    case NodeKind::kRValueReference:
      WithPointee(node, [this](NodeId pointee, std::string_view symbol) {
        PrintTypeLeft(pointee);
        if (NeedsParentheses(pointee)) out_ += " (";
        AppendPointerSymbol(symbol);
      });
      return;
    case NodeKind::kPointerToMember: {
      const NodeId member = node.children[1];
      PrintTypeLeft(member);
      out_ += IsFunctionOrArray(member) ? " (" : " ";
      Print(node.children[0]);
      out_ += "::*";
      return;
    }
    case NodeKind::kQualified: {
      const NodeId qualified = node.children[0];
      NodeKind kind = NodeKind::kName;
      {
        const Substitution inner(this, qualified);
        kind = At(inner.id()).kind;
      }
      if (kind == NodeKind::kFunctionType) {
        PrintTypeLeft(qualified);
      } else if (IsDeclaratorOperator(kind)) {
        PrintTypeLeft(qualified);
        out_ += node.text;  // "char *const"
      } else {
        out_ += node.text + ' ';
        PrintTypeLeft(qualified);
      }
      return;
    }
    case NodeKind::kArray:
    case NodeKind::kFunctionType:
      PrintTypeLeft(node.children[0]);
      return;
    default:
      Print(type.id());
  }
}

void Printer::PrintTypeRight(NodeId id) {
  const DepthGuard guard(this);
  if (guard.Stop()) return;
  const Substitution type(this, id);
  if (failed_) return;
  const Node& node = At(type.id());
  switch (node.kind) {
    case NodeKind::kPointer:
    case NodeKind::kLValueReference:
    case NodeKind::kRValueReference:
      WithPointee(node, [this](NodeId pointee, std::string_view) {
        if (NeedsParentheses(pointee)) out_ += ')';
        PrintTypeRight(pointee);
      });
      return;
    case NodeKind::kPointerToMember:
      if (IsFunctionOrArray(node.children[1])) out_ += ')';
      PrintTypeRight(node.children[1]);
      return;
    case NodeKind::kQualified: {
      PrintTypeRight(node.children[0]);
      const Substitution inner(this, node.children[0]);
      if (At(inner.id()).kind == NodeKind::kFunctionType) out_ += ' ' + node.text;
      return;
    }
    case NodeKind::kArray:
      if (out_.empty() || out_.back() != ']') out_ += ' ';
      out_ += '[' + node.text + ']';
      PrintTypeRight(node.children[0]);
      return;
    case NodeKind::kFunctionType:
      out_ += '(';
      PrintList(node.children, 1);
      out_ += ')' + node.text;
      PrintTypeRight(node.children[0]);
      return;
    default:
      return;
  }
}

}  // namespace

std::optional<std::string> PrintNameTree(const NameTree& tree, DemangleStyle style) {
  if (tree.root == kNoNode) return std::nullopt;
  return Printer(tree, style).Run();
}

}  // namespace prof::collector::itanium
