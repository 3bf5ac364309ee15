// Printing graph-level functions in TVM's graph form: the emission half of the
// graph printer (printer_relay_graph.h describes the design; the layout is in
// printer_relay_layout.cpp).
#include <algorithm>

#include "core/text/printer_relay_graph.h"

namespace passlab::text {

namespace relay_graph {

// ---- Printing -------------------------------------------------------------------

void GraphPrinter::appendTypeComment(std::string& out, const Type& t) {
  if (!options_.typeComments || !t) return;
  out += " /* ty=";
  appendType(out, t);
  out += " */";
}

void GraphPrinter::appendVarDecl(std::string& out, const VarNode* v, bool showInferred) {
  out += '%';
  out += varName(v);
  if (options_.recordNames && w_.ranges()) w_.ranges()->nodes.recordName(v, varName(v));
  if (!v->virtualDevice.isNone()) {
    out += " {virtual_device=";
    out += v->virtualDevice.toString();
    out += '}';
  }
  // Parameters show their inferred type as TVM does after InferType; let and
  // dataflow variables only a declared one (their value carries a ty comment).
  const Type& t = v->annotation ? v->annotation : showInferred && options_.typeComments ? v->checkedType : v->annotation;
  if (t) {
    out += ": ";
    appendType(out, t);
  }
}

void GraphPrinter::appendFunctionHeader(std::string& out, const FunctionNode& fn) {
  out += '(';
  bool first = true;
  for (const Var& p : fn.params) {
    if (!first) out += ", ";
    first = false;
    w_.rangeStart(p.get());
    appendVarDecl(out, p.get(), true);
  }
  for (const auto& [key, value] : fn.attrs.entries()) {
    if (!first) out += ", ";
    first = false;
    appendAttr(out, key, value);
  }
  out += ')';
  Type ret = fn.retType;
  if (!ret && options_.typeComments)
    if (auto* ft = as<FuncTypeNode>(fn.checkedType)) ret = ft->ret;
  if (ret) {
    out += " -> ";
    appendType(out, ret);
  }
  out += " {";
}

void GraphPrinter::appendRef(std::string& out, uint32_t id) {
  if (id == kNone) {
    out += "(?)";
    return;
  }
  const NodeInfo& n = nodes_[id];
  const ExprNode* e = n.expr;
  switch (e->kind) {
    case ExprKind::Var:
      out += '%';
      out += varName(as<VarNode>(e));
      return;
    case ExprKind::GlobalVar:
      out += '@';
      out += sanitizeName(as<GlobalVarNode>(e)->name, NameKind::Global);
      return;
    case ExprKind::Op: out += as<OpNode>(e)->def->name; return;
    case ExprKind::Constant:
      w_.rangeStart(e);
      if (printsAsReference(as<ConstantNode>(e)->data, options_.constants))
        w_.appendConstantRef(out, as<ConstantNode>(e)->data);
      else
        appendConstant(out, as<ConstantNode>(e)->data, options_.typeComments);
      if (as<ConstantNode>(e)->data.isPlaceholder()) w_.notePlaceholder(as<ConstantNode>(e)->data.placeholderIndex());
      w_.rangeEnd(e);
      return;
    case ExprKind::PrimFunc: out += "meta[tir.PrimFunc][0]"; return;  // not expressible inside a graph function
    default:
      out += '%';
      appendBound(out, id);
      return;
  }
}

void GraphPrinter::emitExpr(uint32_t id, std::string_view terminator) {
  const NodeInfo& n = nodes_[id];
  const ExprNode* e = n.expr;
  std::string& out = w_.out();
  w_.rangeStart(e);
  auto scopeTasks = [&](int32_t scope) {
    pending_.push_back({Task::Indent, 0, 0, 1, {}, nullptr});
    pending_.push_back({Task::ScopeItem, scope, 0, 0, {}, nullptr});
    pending_.push_back({Task::Indent, 0, 0, -1, {}, nullptr});
  };
  // Operands in slot order, starting at `from`.
  auto appendOperands = [&](uint32_t from) {
    for (uint32_t slot = from; slot < n.numChildren; ++slot) {
      if (slot > from) out += ", ";
      appendRef(out, childIds_[n.firstChild + slot]);
    }
  };
  switch (e->kind) {
    case ExprKind::Call: {
      auto* c = as<CallNode>(e);
      appendRef(out, child(id, 0));
      out += '(';
      appendOperands(1);
      bool first = n.numChildren <= 1;
      for (const auto& [key, value] : c->attrs.entries()) {
        if (!first) out += ", ";
        first = false;
        appendAttr(out, key, value);
      }
      out += ')';
      break;
    }
    case ExprKind::Tuple:
      out += '(';
      appendOperands(0);
      if (n.numChildren == 1) out += ',';
      out += ')';
      break;
    case ExprKind::TupleGetItem:
      appendRef(out, child(id, 0));
      out += '.';
      appendNumber(out, as<TupleGetItemNode>(e)->index);
      break;
    case ExprKind::Function:
    case ExprKind::If:
    case ExprKind::Let:
    case ExprKind::Dataflow: {
      pending_.clear();
      if (auto* fn = as<FunctionNode>(e)) {
        out += "fn ";
        appendFunctionHeader(out, *fn);
        scopeTasks(n.ownScope);
      } else if (e->kind == ExprKind::If) {
        out += "if (";
        appendRef(out, child(id, 0));
        out += ") {";
        scopeTasks(n.ownScope);
        pending_.push_back({Task::Line, 0, 0, 0, "} else {", nullptr});
        scopeTasks(n.ownScope + 1);
      } else {
        out += '{';
        scopeTasks(n.ownScope);
      }
      w_.endLine();
      std::string closing = "}";
      if (!options_.hiddenTypes || !options_.hiddenTypes->count(e)) appendTypeComment(closing, e->checkedType);
      closing += terminator;
      pending_.push_back({Task::Line, 0, 0, 0, std::move(closing), e});
      for (auto it = pending_.rbegin(); it != pending_.rend(); ++it) tasks_.push_back(std::move(*it));
      pending_.clear();
      return;
    }
    default: appendRef(out, id); break;
  }
  if (!options_.hiddenTypes || !options_.hiddenTypes->count(e)) appendTypeComment(out, e->checkedType);
  out += terminator;
  w_.rangeEnd(e);
  w_.endLine();
}

void GraphPrinter::printItem(const Item& item) {
  std::string& out = w_.out();
  const NodeInfo& n = nodes_[item.node];
  switch (item.kind) {
    case ItemKind::Bind:
      w_.beginLine();
      w_.rangeStart(n.expr);
      out += '%';
      {
        size_t at = out.size();
        appendBound(out, item.node);
        if (options_.recordNames && w_.ranges()) w_.ranges()->nodes.recordName(n.expr, std::string_view(out).substr(at));
      }
      out += " = ";
      emitExpr(item.node, ";");
      return;
    case ItemKind::LetHeader: {
      auto* l = as<LetNode>(n.expr);
      w_.beginLine();
      w_.rangeStart(l);
      out += "let ";
      w_.rangeStart(l->var.get());
      appendVarDecl(out, l->var.get(), false);
      out += " = ";
      uint32_t v = child(item.node, 1);
      if (v != kNone && nodes_[v].status == Status::Inline) {
        emitExpr(v, ";");
      } else {
        appendRef(out, v);
        out += ';';
        w_.endLine();
      }
      return;
    }
    case ItemKind::DataflowOpen:
      w_.beginLine();
      w_.rangeStart(n.expr);
      out += "dataflow {";
      w_.endLine();
      w_.indent(1);
      return;
    case ItemKind::DataflowBinding: {
      const Binding& b = as<DataflowNode>(n.expr)->bindings[item.index];
      w_.beginLine();
      if (!b.var->isDataflow) out += "output ";
      w_.rangeStart(b.var.get());
      appendVarDecl(out, b.var.get(), false);
      out += " = ";
      uint32_t v = child(item.node, 2 * item.index + 1);
      if (v != kNone && nodes_[v].status == Status::Inline) {
        emitExpr(v, ";");
      } else {
        appendRef(out, v);
        out += ';';
        w_.endLine();
      }
      return;
    }
    case ItemKind::DataflowClose:
      w_.indent(-1);
      w_.beginLine();
      out += '}';
      w_.rangeEnd(n.expr);
      w_.endLine();
      return;
  }
}

void GraphPrinter::printTail(const Scope& s) {
  uint32_t t = tailOf(s);
  w_.beginLine();
  if (t != kNone && nodes_[t].status == Status::Inline) {
    emitExpr(t, "");
  } else {
    appendRef(w_.out(), t);
    w_.endLine();
  }
}

void GraphPrinter::run(int32_t scope) {
  tasks_.push_back({Task::ScopeItem, scope, 0, 0, {}, nullptr});
  while (!tasks_.empty()) {
    Task task = std::move(tasks_.back());
    tasks_.pop_back();
    switch (task.kind) {
      case Task::Indent: w_.indent(task.delta); break;
      case Task::Line:
        w_.beginLine();
        w_.text(task.text);
        if (task.rangeNode) w_.rangeEnd(task.rangeNode);
        w_.endLine();
        break;
      case Task::ScopeItem: {
        const Scope& s = scopes_[task.scope];
        if (task.item < s.items.size()) {
          tasks_.push_back({Task::ScopeItem, task.scope, task.item + 1, 0, {}, nullptr});
          printItem(s.items[task.item]);
        } else {
          printTail(s);
        }
        break;
      }
    }
  }
}

void GraphPrinter::printFreeVars() {
  for (uint32_t id : postOrder_) {
    const NodeInfo& n = nodes_[id];
    if (n.expr->kind != ExprKind::Var || n.declared) continue;
    w_.beginLine();
    w_.text("free_var ");
    w_.rangeStart(n.expr);
    appendVarDecl(w_.out(), as<VarNode>(n.expr), true);
    w_.text(";");
    w_.endLine();
  }
}

void GraphPrinter::printDef(const std::string& name, const Expr& fnExpr) {
  auto* fn = as<FunctionNode>(fnExpr);
  if (!fn) {
    // Not a function: print it as a parameterless one so the text stays readable.
    w_.text("def @" + sanitizeName(name, NameKind::Global) + "() {");
    w_.endLine();
    w_.indent(1);
    printStandalone(fnExpr);
    w_.indent(-1);
    w_.text("}");
    w_.endLine();
    return;
  }
  analyze(fnExpr, true);
  w_.rangeStart(fn);
  std::string header = "def @" + sanitizeName(name, NameKind::Global);
  w_.text(header);
  appendFunctionHeader(w_.out(), *fn);
  w_.endLine();
  w_.indent(1);
  printFreeVars();
  run(0);
  w_.indent(-1);
  w_.text("}");
  w_.rangeEnd(fn);
  w_.endLine();
}

void GraphPrinter::printStandalone(const Expr& e) {
  analyze(e, false);
  printFreeVars();
  run(0);
}

}  // namespace relay_graph

using relay_graph::GraphPrinter;

void printGraphFunction(TextWriter& w, const PrintOptions& options, const std::string& name, const Expr& fn) {
  GraphPrinter printer(w, options);
  printer.printDef(name, fn);
}

void printStandaloneExpr(TextWriter& w, const PrintOptions& options, const Expr& e) {
  GraphPrinter printer(w, options);
  printer.printStandalone(e);
}

}  // namespace passlab::text
