// Printing PrimFuncs (syntax in parser_tir.cpp and docs/text-format.md).
//
// Statements and expressions are printed from explicit work stacks. A
// binding statement (let/allocate/allocate_const/assert) is written as a line
// followed by its body's statements in the same block; when it is not the
// last statement of its sequence it is wrapped in `{ }` so the parser gives
// it back exactly that body. Single-element sequences are unwrapped, so the
// text is stable under print -> parse -> print.
#include "core/text/literal.h"
#include "core/text/printer_impl.h"
#include "core/text/syntax.h"

namespace passlab::text {

namespace {

using namespace tir;

class TirPrinter {
 public:
  explicit TirPrinter(TextWriter& w) : w_(w) {}
  void print(const std::string& name, const PrimFuncNode& fn);

 private:
  struct Task {
    enum Kind : uint8_t { Items, Item, Line, Indent } kind;
    const StmtNode* stmt = nullptr;
    bool isLast = false;
    int delta = 0;
    std::string text;
    const void* rangeNode = nullptr;
  };
  void printItem(const StmtNode* s, bool isLast);
  void pushItems(const StmtNode* s);
  void pushLine(std::string text, const void* rangeNode = nullptr) {
    pending_.push_back({Task::Line, nullptr, false, 0, std::move(text), rangeNode});
  }
  void flushPending();
  void appendExpr(std::string& out, const PrimExprNode* e);
  void appendBufferType(std::string& out, const BufferNode& b);
  void appendHeader(std::string& out, const StmtNode* s);
  void appendBlockHeader(std::string& out, const BlockNode& b);
  void appendRegions(std::string& out, const char* clause, const std::vector<BufferRegion>& regions);
  const std::string& varName(const tir::VarNode* v) { return names_.nameFor(v, v->name); }
  const std::string& bufferName(const BufferNode* b) { return names_.nameFor(b, b->name); }

  TextWriter& w_;
  NameTable names_;
  std::vector<Task> tasks_;
  std::vector<Task> pending_;
};

const StmtNode* unwrapSingles(const StmtNode* s) {
  while (s && s->kind == StmtKind::Seq) {
    auto* seq = static_cast<const SeqNode*>(s);
    if (seq->stmts.size() != 1) break;
    s = seq->stmts[0].get();
  }
  return s;
}

const StmtNode* bindingBody(const StmtNode* s) {
  switch (s->kind) {
    case StmtKind::LetStmt: return static_cast<const LetStmtNode*>(s)->body.get();
    case StmtKind::Allocate: return static_cast<const AllocateNode*>(s)->body.get();
    case StmtKind::AllocateConst: return static_cast<const AllocateConstNode*>(s)->body.get();
    case StmtKind::Assert: return static_cast<const AssertStmtNode*>(s)->body.get();
    default: return nullptr;
  }
}

}  // namespace

void TirPrinter::appendBufferType(std::string& out, const BufferNode& b) {
  out += "Buffer[";
  appendShape(out, b.shape);
  out += ", ";
  out += b.dtype.name();
  out += ']';
}

void TirPrinter::appendExpr(std::string& out, const PrimExprNode* root) {
  // Work items: an expression with the least precedence it may have without
  // parentheses, or a piece of text.
  struct Work {
    const PrimExprNode* e;
    int minPrecedence;
    const char* text;
  };
  std::vector<Work> stack{{root, 0, nullptr}};
  auto pushText = [&](const char* t) { stack.push_back({nullptr, 0, t}); };
  auto pushExpr = [&](const PrimExpr& e, int p) { stack.push_back({e.get(), p, nullptr}); };
  // Pushes "name(args...)" in reverse so it pops in order.
  auto pushArgs = [&](const std::vector<PrimExpr>& args) {
    pushText(")");
    for (size_t i = args.size(); i-- > 0;) {
      pushExpr(args[i], 0);
      if (i) pushText(", ");
    }
    pushText("(");
  };
  while (!stack.empty()) {
    Work item = stack.back();
    stack.pop_back();
    if (item.text) {
      out += item.text;
      continue;
    }
    const PrimExprNode* e = item.e;
    if (!e) {
      out += "?";
      continue;
    }
    switch (e->kind) {
      case PrimExprKind::IntImm: {
        auto* i = static_cast<const IntImmNode*>(e);
        if (e->dtype.isBool()) {
          out += i->value ? "True" : "False";
        } else if (e->dtype.isFloat()) {
          appendFloatLiteral(out, e->dtype, static_cast<double>(i->value));
        } else {
          out += std::to_string(i->value);
          out += dtypeSuffix(e->dtype);
        }
        break;
      }
      case PrimExprKind::FloatImm:
        appendFloatLiteral(out, e->dtype.isFloat() ? e->dtype : DataType(DTypeCode::Float64),
                           static_cast<const FloatImmNode*>(e)->value);
        break;
      case PrimExprKind::Var:
        out += '%';
        out += varName(static_cast<const tir::VarNode*>(e));
        break;
      case PrimExprKind::Binary: {
        auto* b = static_cast<const BinaryNode*>(e);
        int p = tirPrecedence(b->op);
        if (p == 0) {
          out += binaryOpName(b->op);
          pushArgs({b->a, b->b});
          break;
        }
        bool parens = p < item.minPrecedence;
        if (parens) out += '(';
        if (parens) pushText(")");
        pushExpr(b->b, p + 1);
        switch (b->op) {
          case BinaryOp::Add: pushText(" + "); break;
          case BinaryOp::Sub: pushText(" - "); break;
          case BinaryOp::Mul: pushText(" * "); break;
          case BinaryOp::Div: pushText(" / "); break;
          case BinaryOp::Mod: pushText(" % "); break;
          case BinaryOp::EQ: pushText(" == "); break;
          case BinaryOp::NE: pushText(" != "); break;
          case BinaryOp::LT: pushText(" < "); break;
          case BinaryOp::LE: pushText(" <= "); break;
          case BinaryOp::GT: pushText(" > "); break;
          case BinaryOp::GE: pushText(" >= "); break;
          case BinaryOp::And: pushText(" && "); break;
          case BinaryOp::Or: pushText(" || "); break;
          default: break;
        }
        pushExpr(b->a, p);
        break;
      }
      case PrimExprKind::Not:
        out += '!';
        pushExpr(static_cast<const NotNode*>(e)->a, kTirUnaryPrecedence);
        break;
      case PrimExprKind::Select: {
        auto* s = static_cast<const SelectNode*>(e);
        out += "select";
        pushArgs({s->cond, s->trueValue, s->falseValue});
        break;
      }
      case PrimExprKind::Cast:
        out += e->dtype.name();
        pushArgs({static_cast<const CastNode*>(e)->value});
        break;
      case PrimExprKind::Call: {
        auto* c = static_cast<const tir::CallNode*>(e);
        if (c->isGlobal) out += '@';
        out += sanitizeName(c->callee, c->isGlobal ? NameKind::Global : NameKind::Identifier);
        DataType fallback = c->isGlobal || c->args.empty() ? DataType(DTypeCode::Int32) : c->args[0]->dtype;
        if (c->dtype != fallback) {
          out += '<';
          out += c->dtype.name();
          out += '>';
        }
        pushArgs(c->args);
        break;
      }
      case PrimExprKind::Let: {
        // let(%x: int32 = value, body): %x is in scope in body only.
        auto* l = static_cast<const tir::LetNode*>(e);
        out += "let(%";
        out += varName(l->var.get());
        out += ": ";
        out += l->var->dtype.name();
        out += " = ";
        pushText(")");
        pushExpr(l->body, 0);
        pushText(", ");
        pushExpr(l->value, 0);
        break;
      }
      case PrimExprKind::Load: {
        auto* l = static_cast<const LoadNode*>(e);
        out += '%';
        out += bufferName(l->buffer.get());
        pushText("]");
        for (size_t i = l->indices.size(); i-- > 0;) {
          pushExpr(l->indices[i], 0);
          if (i) pushText(", ");
        }
        pushText("[");
        break;
      }
    }
  }
}

void TirPrinter::appendHeader(std::string& out, const StmtNode* s) {
  switch (s->kind) {
    case StmtKind::LetStmt: {
      auto* l = static_cast<const LetStmtNode*>(s);
      out += "let %";
      out += varName(l->var.get());
      out += ": ";
      out += l->var->dtype.name();
      out += " = ";
      appendExpr(out, l->value.get());
      out += ';';
      return;
    }
    case StmtKind::Allocate: {
      auto* a = static_cast<const AllocateNode*>(s);
      out += "allocate %";
      out += bufferName(a->buffer.get());
      out += ": ";
      appendBufferType(out, *a->buffer);
      out += ';';
      return;
    }
    case StmtKind::AllocateConst: {
      auto* a = static_cast<const AllocateConstNode*>(s);
      out += "allocate_const %";
      out += bufferName(a->buffer.get());
      out += ": ";
      appendBufferType(out, *a->buffer);
      out += " = ";
      if (a->data.dtype() == a->buffer->dtype && a->data.shape() == a->buffer->shape) {
        out += '[';
        for (int64_t i = 0, n = a->data.defined() ? a->data.numElements() : 0; i < n; ++i) {
          if (i) out += ", ";
          appendElement(out, a->data, i);
        }
        out += ']';
      } else {
        appendConstant(out, a->data, false);
      }
      out += ';';
      return;
    }
    case StmtKind::Assert: {
      // assert(cond, "message"[, kind="ValueError"]);
      auto* a = static_cast<const AssertStmtNode*>(s);
      out += "assert(";
      appendExpr(out, a->cond.get());
      out += ", ";
      out += AttrValue::string(a->message).toString();
      if (a->errorKind != kDefaultAssertKind) {
        out += ", kind=";
        out += AttrValue::string(a->errorKind).toString();
      }
      out += ");";
      return;
    }
    default: return;
  }
}

void TirPrinter::appendRegions(std::string& out, const char* clause, const std::vector<BufferRegion>& regions) {
  if (regions.empty()) return;
  out += ' ';
  out += clause;
  out += '(';
  for (size_t i = 0; i < regions.size(); ++i) {
    if (i) out += ", ";
    out += '%';
    out += bufferName(regions[i].buffer.get());
    out += '[';
    for (size_t d = 0; d < regions[i].ranges.size(); ++d) {
      if (d) out += ", ";
      const auto& [mn, ext] = regions[i].ranges[d];
      appendExpr(out, mn.get());
      const auto* e = as<IntImmNode>(ext);
      if (e && e->value == 1) continue;  // a point
      // min:end, end = min + extent (folded when both are literals; the parser undoes the sum).
      out += ':';
      const auto* m = as<IntImmNode>(mn);
      if (m && e && !mn->dtype.isBool()) {
        appendExpr(out, intImm(mn->dtype, m->value + e->value).get());
      } else {
        appendExpr(out, binary(BinaryOp::Add, mn, ext).get());
      }
    }
    out += ']';
  }
  out += ')';
}

void TirPrinter::appendBlockHeader(std::string& out, const BlockNode& b) {
  out += "block ";
  out += AttrValue::string(b.name).toString();
  out += '(';
  for (size_t i = 0; i < b.iterVars.size(); ++i) {
    const BlockIterVar& iv = b.iterVars[i];
    if (i) out += ", ";
    out += '%';
    out += varName(iv.var.get());
    if (iv.var->dtype != DataType(DTypeCode::Int32)) {
      out += ": ";
      out += iv.var->dtype.name();
    }
    out += iv.iterKind == IterKind::Reduce ? " = reduce(" : " = spatial(";
    appendExpr(out, iv.min.get());
    out += ", ";
    appendExpr(out, iv.extent.get());
    out += ", ";
    appendExpr(out, iv.binding.get());
    out += ')';
  }
  out += ')';
  if (b.predicate) {
    out += " where(";
    appendExpr(out, b.predicate.get());
    out += ')';
  }
  appendRegions(out, "reads", b.reads);
  appendRegions(out, "writes", b.writes);
  if (!b.allocBuffers.empty()) {
    out += " alloc(";
    for (size_t i = 0; i < b.allocBuffers.size(); ++i) {
      if (i) out += ", ";
      out += '%';
      out += bufferName(b.allocBuffers[i].get());
      out += ": ";
      appendBufferType(out, *b.allocBuffers[i]);
    }
    out += ')';
  }
  if (!b.annotations.empty()) {
    out += " attrs(";
    bool first = true;
    for (const auto& [key, value] : b.annotations.entries()) {
      if (!first) out += ", ";
      first = false;
      appendAttr(out, key, value);
    }
    out += ')';
  }
  out += " {";
}

void TirPrinter::pushItems(const StmtNode* s) {
  // Items of a block: a sequence's statements, or the statement itself.
  s = unwrapSingles(s);
  if (!s) return;
  if (s->kind != StmtKind::Seq) {
    pending_.push_back({Task::Item, s, true, 0, {}, nullptr});
    return;
  }
  auto* seq = static_cast<const SeqNode*>(s);
  for (size_t i = 0; i < seq->stmts.size(); ++i)
    pending_.push_back({Task::Item, seq->stmts[i].get(), i + 1 == seq->stmts.size(), 0, {}, nullptr});
}

void TirPrinter::flushPending() {
  for (auto it = pending_.rbegin(); it != pending_.rend(); ++it) tasks_.push_back(std::move(*it));
  pending_.clear();
}

void TirPrinter::printItem(const StmtNode* s, bool isLast) {
  s = unwrapSingles(s);
  if (!s) return;
  std::string line;
  auto open = [&] { pending_.push_back({Task::Indent, nullptr, false, 1, {}, nullptr}); };
  auto close = [&] { pending_.push_back({Task::Indent, nullptr, false, -1, {}, nullptr}); };
  w_.rangeStart(s);
  switch (s->kind) {
    case StmtKind::Seq:
      // Zero or several statements nested in a sequence: a bare block.
      pushLine("{");
      open();
      pushItems(s);
      close();
      pushLine("}", s);
      break;
    case StmtKind::LetStmt:
    case StmtKind::Allocate:
    case StmtKind::AllocateConst:
    case StmtKind::Assert:
      if (!isLast) {
        pushLine("{");
        open();
      }
      appendHeader(line, s);
      pushLine(std::move(line), s);
      pushItems(bindingBody(s));
      if (!isLast) {
        close();
        pushLine("}");
      }
      break;
    case StmtKind::For: {
      auto* f = static_cast<const ForNode*>(s);
      line = "for (%" + varName(f->var.get());
      if (f->var->dtype != DataType(DTypeCode::Int32)) {
        line += ": ";
        line += f->var->dtype.name();
      }
      line += ", ";
      appendExpr(line, f->min.get());
      line += ", ";
      appendExpr(line, f->extent.get());
      line += ", ";
      line += forKindName(f->forKind);
      line += ") {";
      pushLine(std::move(line));
      open();
      pushItems(f->body.get());
      close();
      pushLine("}", s);
      break;
    }
    case StmtKind::IfThenElse: {
      auto* i = static_cast<const IfThenElseNode*>(s);
      line = "if (";
      appendExpr(line, i->cond.get());
      line += ") {";
      pushLine(std::move(line));
      open();
      pushItems(i->thenCase.get());
      close();
      if (i->elseCase) {
        pushLine("} else {");
        open();
        pushItems(i->elseCase.get());
        close();
      }
      pushLine("}", s);
      break;
    }
    case StmtKind::Store: {
      auto* st = static_cast<const StoreNode*>(s);
      line = "%" + bufferName(st->buffer.get()) + "[";
      for (size_t k = 0; k < st->indices.size(); ++k) {
        if (k) line += ", ";
        appendExpr(line, st->indices[k].get());
      }
      line += "] = ";
      appendExpr(line, st->value.get());
      line += ';';
      pushLine(std::move(line), s);
      break;
    }
    case StmtKind::Evaluate: {
      appendExpr(line, static_cast<const EvaluateNode*>(s)->value.get());
      line += ';';
      pushLine(std::move(line), s);
      break;
    }
    case StmtKind::Block: {
      auto* b = static_cast<const BlockNode*>(s);
      appendBlockHeader(line, *b);
      pushLine(std::move(line));
      open();
      if (b->init) {
        pushLine("init {");
        open();
        pushItems(b->init.get());
        close();
        pushLine("}");
      }
      pushItems(b->body.get());
      close();
      pushLine("}", s);
      break;
    }
  }
  flushPending();
}

void TirPrinter::print(const std::string& name, const PrimFuncNode& fn) {
  w_.rangeStart(&fn);
  std::string header = "primfn @" + sanitizeName(name, NameKind::Global) + "(";
  bool first = true;
  for (const Param& p : fn.params) {
    if (!first) header += ", ";
    first = false;
    if (p.buffer) {
      // The parameter's variable and buffer share one printed name.
      const std::string& n = names_.nameFor(p.buffer.get(), p.buffer->name);
      if (p.var) names_.alias(p.var.get(), n);
      header += "%" + n + ": ";
      appendBufferType(header, *p.buffer);
    } else if (p.var) {
      header += "%" + varName(p.var.get()) + ": ";
      header += p.var->dtype.name();
    }
  }
  for (const auto& [key, value] : fn.attrs.entries()) {
    if (!first) header += ", ";
    first = false;
    appendAttr(header, key, value);
  }
  header += ") {";
  w_.text(header);
  w_.endLine();
  w_.indent(1);
  pushItems(fn.body.get());
  flushPending();
  while (!tasks_.empty()) {
    Task t = std::move(tasks_.back());
    tasks_.pop_back();
    switch (t.kind) {
      case Task::Indent: w_.indent(t.delta); break;
      case Task::Line:
        w_.beginLine();
        w_.text(t.text);
        if (t.rangeNode) w_.rangeEnd(t.rangeNode);
        w_.endLine();
        break;
      case Task::Item: printItem(t.stmt, t.isLast); break;
      case Task::Items: pushItems(t.stmt); flushPending(); break;
    }
  }
  w_.indent(-1);
  w_.text("}");
  w_.rangeEnd(&fn);
  w_.endLine();
}

void printPrimFunc(TextWriter& w, const std::string& name, const PrimFuncNode& fn) {
  TirPrinter printer(w);
  printer.print(name, fn);
}

}  // namespace passlab::text
