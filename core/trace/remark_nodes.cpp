#include "core/trace/remark_nodes.h"

#include "core/trace/trace_json.h"

namespace passlab {

RemarkNodeIndex::RemarkNodeIndex(const IRModule& mod, PrintOptions options) {
  options.recordNames = true;
  options.alignedNames = nullptr;
  options.hiddenTypes = nullptr;
  printed_ = printModuleWithRanges(mod, options);
}

void appendNodeDescription(std::string& out, const Expr& node) {
  // The common case, an op call, without a temporary string.
  if (const CallNode* call = node ? as<CallNode>(node) : nullptr; call && call->op()) {
    out += call->op()->name;
    return;
  }
  out += describeNode(node);
}

std::string describeNode(const Expr& node) {
  if (!node) return "?";
  if (const CallNode* call = as<CallNode>(node)) {
    if (const OpDef* op = call->op()) return std::string(op->name);
    if (const GlobalVarNode* g = as<GlobalVarNode>(call->callee)) return "@" + g->name;
    return "call";
  }
  switch (node->kind) {
    case ExprKind::Var: return "%" + as<VarNode>(node)->name;
    case ExprKind::GlobalVar: return "@" + as<GlobalVarNode>(node)->name;
    case ExprKind::Constant:
    case ExprKind::Function:
    case ExprKind::Tuple:
    case ExprKind::TupleGetItem: return exprKindName(node->kind);
    default: return "node";
  }
}

std::string RemarkNodeIndex::name(const Expr& node) const {
  std::string_view n = printed_.nodes.name(node.get());
  if (!n.empty()) return "%" + std::string(n);
  return describeNode(node);
}

TextRange RemarkNodeIndex::range(const Expr& node) const {
  const TextRange* r = printed_.nodes.range(node.get());
  return r ? *r : TextRange{};
}

bool RemarkNodeIndex::named(const Expr& node, std::string_view name) const {
  if (!name.empty() && name.front() == '%') name.remove_prefix(1);
  std::string_view n = printed_.nodes.name(node.get());
  return !n.empty() && n == name;
}

std::string remarkToJson(const Remark& remark, const RemarkNodeIndex* index) {
  std::string nodes = "[";
  for (const Expr& n : remark.nodes) {
    if (nodes.size() > 1) nodes += ",";
    if (index) {
      TextRange r = index->range(n);
      nodes += "{\"name\":" + jsonString(index->name(n)) + ",\"line\":" + std::to_string(r.line) +
               ",\"column\":" + std::to_string(r.column) + "}";
    } else {
      nodes += "{\"name\":" + jsonString(describeNode(n)) + "}";
    }
  }
  nodes += "]";
  return "{\"kind\":" + jsonString(remarkKindName(remark.kind)) + ",\"rule\":" + jsonString(remark.ruleId()) +
         ",\"pass\":" + jsonString(remark.pass) + ",\"function\":" + jsonString(remark.function) +
         (remark.kernel.empty() ? "" : ",\"kernel\":" + jsonString(remark.kernel)) + ",\"message\":" + jsonString(remark.message) + ",\"context\":" + jsonString(remark.contextName) +
         ",\"nodes\":" + nodes + "}";
}

}  // namespace passlab
