// Printing PrimFuncs as TVMScript, the way TVM's printer writes them
// (src/script/printer/tir/*.cc in releases 0.20-0.26, src/tirx/script/printer
// on main): 4-space indents, `T.grid` for perfectly nested serial loops from 0,
// `T.axis.remap` for block variables bound to enclosing loop variables, int32
// literals bare and every other literal typed (`T.float32(0.0)`, `T.int64(4)`),
// `T.reads`/`T.writes` on every block, the implicit root block as a comment.
//
// Where passlab's IR has no TVM counterpart the closest TVMScript is written:
// an assert's message is a string (TVM's StringImm), an Allocate (zero-filled scratch) is `T.decl_buffer` (TVM's printed form of
// an Allocate with its DeclBuffer), an AllocateConst is `T.allocate_const`, and the
// `target` attribute (a target string) is `T.target("...")`.
#include <cmath>
#include <cstdio>
#include <unordered_map>
#include <unordered_set>

#include "core/analysis/structural_equal.h"
#include "core/ir/tir_lower_blocks.h"
#include "core/text/tvmscript_tir.h"

namespace passlab::tvmscript {

namespace {

using namespace tir;
using tir::as;
using tir::CallNode;
using tir::VarNode;

bool isPythonKeyword(std::string_view s) {
  static const std::unordered_set<std::string_view> kw{"False", "None", "True", "and", "as", "assert", "async", "await", "break",
                                                       "class", "continue", "def", "del", "elif", "else", "except", "finally",
                                                       "for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal",
                                                       "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
                                                       "T", "R", "I", "range", "cls"};
  return kw.count(s) > 0;
}

/// Python precedence levels, loosest first (as TVM's doc printer orders them).
enum Prec : int { kOr = 1, kAnd, kNot, kCompare, kAdd, kMul, kUnary, kAtom };

/// A number as TVM's doc printer writes a float: integral values with one
/// decimal ("1.0"), others with up to 17 significant digits, inf/nan quoted.
std::string floatText(double v) {
  char buf[64];
  if (std::isinf(v)) return v > 0 ? "\"inf\"" : "\"-inf\"";
  if (std::isnan(v)) return "\"nan\"";
  if (std::nearbyint(v) == v) {
    std::snprintf(buf, sizeof buf, "%.1f", v);
  } else {
    std::snprintf(buf, sizeof buf, "%.17g", v);
  }
  return buf;
}

std::string quote(std::string_view s) { return AttrValue::string(std::string(s)).toString(); }

class ScriptPrinter {
 public:
  ScriptPrinter(text::TextWriter& w, TvmScriptSpelling spelling) : w_(w), main_(spelling == TvmScriptSpelling::Main) {}

  void function(const std::string& name, const PrimFuncNode& fn);

 private:
  // ---- names ----
  const std::string& nameOf(const void* key, std::string_view wanted) {
    auto it = names_.find(key);
    if (it != names_.end()) return it->second;
    std::string base;
    for (char c : wanted) base += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
    if (base.empty() || std::isdigit(static_cast<unsigned char>(base[0]))) base = "v" + base;
    std::string name = base;
    for (int k = 1; used_.count(name) || isPythonKeyword(name); ++k) name = base + "_" + std::to_string(k);
    used_.insert(name);
    return names_.emplace(key, name).first->second;
  }
  /// Frees `key`'s name when its scope ends, as TVM's printer does (sibling
  /// loops may reuse `i`).
  void release(const void* key) {
    auto it = names_.find(key);
    if (it == names_.end()) return;
    used_.erase(it->second);
    names_.erase(it);
  }
  const std::string& var(const VarNode* v) { return nameOf(v, v->name); }
  const std::string& buffer(const BufferNode* b) { return nameOf(b, b->name); }

  // ---- output ----
  /// One line; `node` gets it as its range (one-line statements).
  void line(const std::string& text, const void* node = nullptr) {
    // Variables of let expressions in `text`, declared just before it (where TVM's printer puts them).
    std::vector<std::string> decls = std::move(pendingDecls_);
    pendingDecls_.clear();
    for (const std::string& d : decls) line(d);
    w_.beginLine();
    if (node) w_.rangeStart(node);
    w_.text(text);
    if (node) w_.rangeEnd(node);
    w_.endLine();
  }
  /// One TVMScript level: 4 spaces (TextWriter counts 2-space units).
  struct Indent {
    ScriptPrinter& p;
    explicit Indent(ScriptPrinter& q) : p(q) { p.w_.indent(2); }
    ~Indent() { p.w_.indent(-2); }
  };

  // ---- expressions ----
  std::string expr(const PrimExpr& e, int minPrec = 0);
  std::string call(const std::string& callee, const std::vector<PrimExpr>& args) {
    std::string s = callee + "(";
    for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + expr(args[i]);
    return s + ")";
  }
  std::string dtypeCall(DataType d, const std::string& arg) { return "T." + std::string(d.name()) + "(" + arg + ")"; }
  std::string shape(const std::vector<int64_t>& dims) {
    std::string s = "(";
    for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
    return s + (dims.size() == 1 ? ",)" : ")");
  }
  std::string region(const BufferRegion& r);
  std::string attrValue(const std::string& key, const AttrValue& v);
  std::string attrDict(const AttrDict& attrs);

  // ---- statements ----
  void body(const Stmt& s);
  void stmt(const Stmt& s, bool last);
  void forLoop(const ForNode& f);
  void block(const BlockNode& b);

  text::TextWriter& w_;
  bool main_;
  std::unordered_map<const void*, std::string> names_;
  std::unordered_set<std::string> used_;
  /// Enclosing loops, for T.axis.remap.
  std::unordered_map<const VarNode*, const ForNode*> loops_;
  /// Data variables of buffer parameters (printed `A.data`).
  std::unordered_map<const VarNode*, const BufferNode*> dataVars_;
  /// `x = T.int32()` lines for let-expression variables met in the line being built.
  std::vector<std::string> pendingDecls_;
  std::unordered_set<const VarNode*> declaredLetVars_;
};

std::string ScriptPrinter::expr(const PrimExpr& e, int minPrec) {
  if (!e) return "None";
  auto wrap = [&](int prec, std::string s) { return prec < minPrec ? "(" + s + ")" : s; };
  switch (e->kind) {
    case PrimExprKind::IntImm: {
      int64_t v = static_cast<const IntImmNode&>(*e).value;
      if (e->dtype.isBool()) return dtypeCall(e->dtype, v ? "True" : "False");
      if (e->dtype.isFloat()) return dtypeCall(e->dtype, floatText(static_cast<double>(v)));
      if (e->dtype == DataType(DTypeCode::Int32)) return std::to_string(v);  // a literal: never parenthesized, as TVM prints `x * -1`
      return dtypeCall(e->dtype, std::to_string(v));
    }
    case PrimExprKind::FloatImm: return dtypeCall(e->dtype, floatText(static_cast<const FloatImmNode&>(*e).value));
    case PrimExprKind::Var: {
      const auto* v = static_cast<const VarNode*>(e.get());
      if (auto it = dataVars_.find(v); it != dataVars_.end()) return buffer(it->second) + ".data";
      return var(v);
    }
    case PrimExprKind::Binary: {
      const auto& b = static_cast<const BinaryNode&>(*e);
      const char* op = nullptr;
      int prec = 0;
      switch (b.op) {
        case BinaryOp::Add: op = " + ", prec = kAdd; break;
        case BinaryOp::Sub: op = " - ", prec = kAdd; break;
        case BinaryOp::Mul: op = " * ", prec = kMul; break;
        case BinaryOp::Div:
          if (!b.a->dtype.isFloat()) return call("T.Div", {b.a, b.b});
          op = " / ", prec = kMul;
          break;
        case BinaryOp::Mod: return call("T.truncmod", {b.a, b.b});
        case BinaryOp::FloorDiv: op = " // ", prec = kMul; break;
        case BinaryOp::FloorMod: op = " % ", prec = kMul; break;
        case BinaryOp::Min: return call("T.min", {b.a, b.b});
        case BinaryOp::Max: return call("T.max", {b.a, b.b});
        case BinaryOp::EQ: op = " == ", prec = kCompare; break;
        case BinaryOp::NE: op = " != ", prec = kCompare; break;
        case BinaryOp::LT: op = " < ", prec = kCompare; break;
        case BinaryOp::LE: op = " <= ", prec = kCompare; break;
        case BinaryOp::GT: op = " > ", prec = kCompare; break;
        case BinaryOp::GE: op = " >= ", prec = kCompare; break;
        case BinaryOp::And: op = " and ", prec = kAnd; break;
        case BinaryOp::Or: op = " or ", prec = kOr; break;
      }
      // Left-associative: the right operand needs parentheses at equal precedence.
      return wrap(prec, expr(b.a, prec) + op + expr(b.b, prec + 1));
    }
    case PrimExprKind::Not: {
      const PrimExpr& a = static_cast<const NotNode&>(*e).a;
      if (a->kind == PrimExprKind::IntImm || a->kind == PrimExprKind::FloatImm) return call("T.Not", {a});
      return wrap(kNot, "not " + expr(a, kNot));
    }
    case PrimExprKind::Select: {
      const auto& s = static_cast<const SelectNode&>(*e);
      return call("T.Select", {s.cond, s.trueValue, s.falseValue});
    }
    case PrimExprKind::Cast:
      return "T.Cast(" + quote(e->dtype.name()) + ", " + expr(static_cast<const CastNode&>(*e).value) + ")";
    case PrimExprKind::Call: {
      const auto& c = static_cast<const CallNode&>(*e);
      if (c.isGlobal) return call("cls." + c.callee, c.args);
    if (c.callee == "if_then_else") return call("T.if_then_else", c.args);
      // An intrinsic whose result type differs from its first argument's
      // goes through T.call_pure_extern-free form: the dtype is explicit.
      DataType fallback = c.args.empty() ? DataType(DTypeCode::Int32) : c.args[0]->dtype;
      if (c.dtype != fallback) {
        std::string s = "T.call_intrin(" + quote(c.dtype.name()) + ", " + quote("tir." + c.callee);
        for (const PrimExpr& a : c.args) s += ", " + expr(a);
        return s + ")";
      }
      return call("T." + c.callee, c.args);
    }
    case PrimExprKind::Load: {
      const auto& l = static_cast<const LoadNode&>(*e);
      std::string s = buffer(l.buffer.get()) + "[";
      for (size_t i = 0; i < l.indices.size(); ++i) s += (i ? ", " : "") + expr(l.indices[i]);
      return s + (l.indices.empty() ? "()]" : "]");  // a rank-0 buffer: TVM's A[()]
    }
    case PrimExprKind::Let: {
      // TVM's T.Let(body, where={x: value}); x is declared `x = T.int32()` before the line.
      const auto& l = static_cast<const tir::LetNode&>(*e);
      std::string name = var(l.var.get());
      if (declaredLetVars_.insert(l.var.get()).second) pendingDecls_.push_back(name + " = T." + std::string(l.var->dtype.name()) + "()");
      return "T.Let(" + expr(l.body) + ", where={" + name + ": " + expr(l.value) + "})";
    }
  }
  return "None";
}

std::string ScriptPrinter::region(const BufferRegion& r) {
  std::string s = buffer(r.buffer.get()) + "[";
  for (size_t d = 0; d < r.ranges.size(); ++d) {
    const auto& [mn, ext] = r.ranges[d];
    if (d) s += ", ";
    s += expr(mn);
    const auto* e = as<IntImmNode>(ext);
    if (e && e->value == 1) continue;
    const auto* m = as<IntImmNode>(mn);
    s += ":";
    s += m && e ? expr(intImm(mn->dtype, m->value + e->value)) : expr(binary(BinaryOp::Add, mn, ext));
  }
  return s + (r.ranges.empty() ? "()]" : "]");
}

std::string ScriptPrinter::attrValue(const std::string& key, const AttrValue& v) {
  switch (v.kind()) {
    case AttrValue::Kind::String:
      if (key == "target") return "T.target(" + quote(v.asString()) + ")";
      return quote(v.asString());
    case AttrValue::Kind::Bool: return v.asBool() ? "True" : "False";
    case AttrValue::Kind::Int: return std::to_string(v.asInt());
    case AttrValue::Kind::Float: return floatText(v.asFloat());
    case AttrValue::Kind::Array: {
      std::string s = "[";
      const auto& items = v.asArray();
      for (size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + attrValue("", items[i]);
      return s + "]";
    }
    case AttrValue::Kind::Dict: return attrDict(v.asDict());
    default: return v.toString();
  }
}

std::string ScriptPrinter::attrDict(const AttrDict& attrs) {
  std::string s = "{";
  bool first = true;
  for (const auto& [key, value] : attrs.entries()) {
    s += (first ? "" : ", ") + quote(key) + ": " + attrValue(key, value);
    first = false;
  }
  return s + "}";
}

void ScriptPrinter::body(const Stmt& s) {
  if (!s) return;
  if (const auto* q = as<SeqNode>(s)) {
    if (q->stmts.empty()) line("T.evaluate(0)");
    for (size_t i = 0; i < q->stmts.size(); ++i) stmt(q->stmts[i], i + 1 == q->stmts.size());
    return;
  }
  stmt(s, true);
}

void ScriptPrinter::stmt(const Stmt& s, bool last) {
  switch (s->kind) {
    case StmtKind::Seq: {
      // A nested sequence flattens into its parent, as TVM prints SeqStmt.
      const auto& q = static_cast<const SeqNode&>(*s);
      for (size_t i = 0; i < q.stmts.size(); ++i) stmt(q.stmts[i], last && i + 1 == q.stmts.size());
      return;
    }
    case StmtKind::Store: {
      const auto& st = static_cast<const StoreNode&>(*s);
      std::string t = buffer(st.buffer.get()) + "[";
      for (size_t i = 0; i < st.indices.size(); ++i) t += (i ? ", " : "") + expr(st.indices[i]);
      line(t + (st.indices.empty() ? "()] = " : "] = ") + expr(st.value), s.get());
      return;
    }
    case StmtKind::Evaluate: {
      const PrimExpr& v = static_cast<const EvaluateNode&>(*s).value;
      line(v->kind == PrimExprKind::Call ? expr(v) : "T.evaluate(" + expr(v) + ")", s.get());
      return;
    }
    case StmtKind::For: return forLoop(static_cast<const ForNode&>(*s));
    case StmtKind::IfThenElse: {
      const auto& i = static_cast<const IfThenElseNode&>(*s);
      line("if " + expr(i.cond) + ":");
      {
        Indent in(*this);
        body(i.thenCase);
      }
      if (i.elseCase) {
        line("else:");
        Indent in(*this);
        body(i.elseCase);
      }
      return;
    }
    case StmtKind::LetStmt: {
      const auto& l = static_cast<const LetStmtNode&>(*s);
      std::string value = expr(l.value);
      const std::string& name = var(l.var.get());
      std::string type = "T." + std::string(l.var->dtype.name());
      if (last) {
        line(name + (main_ ? ": T.let[" + type + "] = " : ": " + type + " = ") + value);
        body(l.body);
      } else {
        line("with T.LetStmt(" + value + ") as " + name + ":");
        Indent in(*this);
        body(l.body);
      }
      release(l.var.get());
      return;
    }
    case StmtKind::Allocate: {
      const auto& a = static_cast<const AllocateNode&>(*s);
      std::string decl = "T.decl_buffer(" + shape(a.buffer->shape);
      if (a.buffer->dtype != DataType(DTypeCode::Float32)) decl += ", " + quote(a.buffer->dtype.name());
      decl += ")";
      const std::string& name = buffer(a.buffer.get());
      if (last) {
        line(name + " = " + decl);
        body(a.body);
      } else {
        line("with " + decl + " as " + name + ":");
        Indent in(*this);
        body(a.body);
      }
      release(a.buffer.get());
      return;
    }
    case StmtKind::AllocateConst: {
      const auto& a = static_cast<const AllocateConstNode&>(*s);
      std::string data = "[";
      for (int64_t i = 0, n = a.data.defined() ? a.data.numElements() : 0; i < n; ++i) {
        if (i) data += ", ";
        data += a.data.dtype().isFloat() ? floatText(a.data.getAsDouble(i)) : std::to_string(a.data.getAsInt(i));
      }
      data += "]";
      std::string extents = "[";
      for (size_t i = 0; i < a.buffer->shape.size(); ++i) extents += (i ? ", " : "") + std::to_string(a.buffer->shape[i]);
      extents += "]";
      std::string decl = "T.allocate_const(" + data + ", " + quote(a.buffer->dtype.name()) + ", " + extents + ")";
      const std::string& name = buffer(a.buffer.get());
      if (last) {
        line(name + " = " + decl);
        body(a.body);
      } else {
        line("with " + decl + " as " + name + ":");
        Indent in(*this);
        body(a.body);
      }
      release(a.buffer.get());
      return;
    }
    case StmtKind::Assert: {
      // As TVM's release printer: concise when nothing follows in the
      // sequence (the body follows at the same level), else a `with` scope.
      // Main's form carries the error kind: ("ValueError", ["message"]).
      const auto& a = static_cast<const AssertStmtNode&>(*s);
      std::string cond = expr(a.cond);
      if (last || !a.body) {
        line("assert " + cond + ", " + (main_ ? "(" + quote(a.errorKind) + ", [" + quote(a.message) + "])" : quote(a.message)), s.get());
        body(a.body);
      } else {
        std::string kind = main_ && a.errorKind != kDefaultAssertKind ? ", error_kind=" + quote(a.errorKind) : "";
        line("with T.Assert(" + cond + ", " + quote(a.message) + kind + "):");
        Indent in(*this);
        body(a.body);
      }
      return;
    }
    case StmtKind::Block: return block(static_cast<const BlockNode&>(*s));
  }
}

void ScriptPrinter::forLoop(const ForNode& f) {
  // T.grid: serial loops from 0 nested directly, extents independent of the grid's variables.
  std::vector<const ForNode*> grid;
  std::unordered_set<const VarNode*> gridVars;
  auto usesGridVar = [&](const PrimExpr& e) {
    bool found = false;
    std::vector<const PrimExprNode*> stack{e.get()};
    while (!stack.empty() && !found) {
      const PrimExprNode* x = stack.back();
      stack.pop_back();
      if (!x) continue;
      switch (x->kind) {
        case PrimExprKind::Var: found = gridVars.count(static_cast<const VarNode*>(x)) > 0; break;
        case PrimExprKind::Binary:
          stack.push_back(static_cast<const BinaryNode*>(x)->a.get());
          stack.push_back(static_cast<const BinaryNode*>(x)->b.get());
          break;
        case PrimExprKind::Cast: stack.push_back(static_cast<const CastNode*>(x)->value.get()); break;
        default: found = x->kind != PrimExprKind::IntImm && x->kind != PrimExprKind::FloatImm; break;  // conservative
      }
    }
    return found;
  };
  for (const ForNode* l = &f; l; l = as<ForNode>(l->body)) {
    const auto* mn = as<IntImmNode>(l->min);
    if (l->forKind != ForKind::Serial || !mn || mn->value != 0 || usesGridVar(l->extent)) break;
    grid.push_back(l);
    gridVars.insert(l->var.get());
  }
  for (const ForNode* l : grid) loops_[l->var.get()] = l;
  loops_[f.var.get()] = &f;
  if (grid.size() > 1) {
    std::string vars, extents;
    for (size_t i = 0; i < grid.size(); ++i) {
      vars += (i ? ", " : "") + var(grid[i]->var.get());
      extents += (i ? ", " : "") + expr(grid[i]->extent);
    }
    line("for " + vars + " in T.grid(" + extents + "):");
    {
      Indent in(*this);
      body(grid.back()->body);
    }
    for (const ForNode* l : grid) release(l->var.get());
    return;
  }
  std::string range;
  const auto* mn = as<IntImmNode>(f.min);
  if (mn && mn->value == 0) {
    range = expr(f.extent);
  } else {
    const auto* ext = as<IntImmNode>(f.extent);
    range = expr(f.min) + ", " + (mn && ext ? expr(intImm(f.min->dtype, mn->value + ext->value)) : expr(binary(BinaryOp::Add, f.min, f.extent)));
  }
  const char* kind = "range";
  switch (f.forKind) {
    case ForKind::Serial: kind = "range"; break;
    case ForKind::Parallel: kind = "T.parallel"; break;
    case ForKind::Vectorized: kind = "T.vectorized"; break;
    case ForKind::Unrolled: kind = "T.unroll"; break;
  }
  line("for " + var(f.var.get()) + " in " + kind + "(" + range + "):");
  {
    Indent in(*this);
    body(f.body);
  }
  release(f.var.get());
}

void ScriptPrinter::block(const BlockNode& b) {
  line(std::string(main_ ? "with T.sblock(" : "with T.block(") + quote(b.name) + "):");
  Indent in(*this);
  // Iteration variables: runs bound to enclosing loops of the same domain go
  // into one T.axis.remap; a run of one, and every other variable, alone.
  auto remappable = [&](const BlockIterVar& iv) {
    const auto* v = as<VarNode>(iv.binding);
    auto it = v ? loops_.find(v) : loops_.end();
    return it != loops_.end() && structuralEqual(it->second->min, iv.min) && structuralEqual(it->second->extent, iv.extent);
  };
  auto single = [&](const BlockIterVar& iv) {
    std::string dom;
    const auto* mn = as<IntImmNode>(iv.min);
    if (mn && mn->value == 0) {
      dom = expr(iv.extent);
    } else {
      const auto* ext = as<IntImmNode>(iv.extent);
      dom = "(" + expr(iv.min) + ", " + (mn && ext ? expr(intImm(iv.min->dtype, mn->value + ext->value)) : expr(binary(BinaryOp::Add, iv.min, iv.extent))) + ")";
    }
    std::string binding = expr(iv.binding);
    line(var(iv.var.get()) + (iv.iterKind == IterKind::Reduce ? " = T.axis.reduce(" : " = T.axis.spatial(") + dom + ", " + binding + ")");
  };
  std::vector<const BlockIterVar*> run;
  auto flush = [&] {
    if (run.size() == 1) single(*run[0]);
    if (run.size() > 1) {
      std::string lhs, kinds, vars;
      for (size_t i = 0; i < run.size(); ++i) {
        lhs += (i ? ", " : "") + var(run[i]->var.get());
        kinds += run[i]->iterKind == IterKind::Reduce ? 'R' : 'S';
        vars += (i ? ", " : "") + expr(run[i]->binding);
      }
      line(lhs + " = T.axis.remap(\"" + kinds + "\", [" + vars + "])");
    }
    run.clear();
  };
  for (const BlockIterVar& iv : b.iterVars) {
    if (remappable(iv)) {
      run.push_back(&iv);
    } else {
      flush();
      single(iv);
    }
  }
  flush();
  if (b.predicate) line("T.where(" + expr(b.predicate) + ")");
  std::string reads, writes;
  for (size_t i = 0; i < b.reads.size(); ++i) reads += (i ? ", " : "") + region(b.reads[i]);
  for (size_t i = 0; i < b.writes.size(); ++i) writes += (i ? ", " : "") + region(b.writes[i]);
  line("T.reads(" + reads + ")");
  line("T.writes(" + writes + ")");
  if (!b.annotations.empty()) line(std::string(main_ ? "T.sblock_attr(" : "T.block_attr(") + attrDict(b.annotations) + ")");
  for (const Buffer& a : b.allocBuffers) {
    std::string decl = std::string(main_ ? "T.sblock_alloc_buffer(" : "T.alloc_buffer(") + shape(a->shape);
    if (a->dtype != DataType(DTypeCode::Float32)) decl += ", " + quote(a->dtype.name());
    line(buffer(a.get()) + " = " + decl + ")");
  }
  if (b.init) {
    line("with T.init():");
    Indent init(*this);
    body(b.init);
  }
  body(b.body);
  for (const BlockIterVar& iv : b.iterVars) release(iv.var.get());
  for (const Buffer& a : b.allocBuffers) release(a.get());
}

/// TVM's implicit root block: a block without variables, predicate, regions,
/// annotations or init, holding scratch buffers or other blocks.
bool isImplicitRoot(const Stmt& s) {
  const auto* b = as<BlockNode>(s);
  if (!b || b->name != "root" || !b->iterVars.empty() || b->predicate || !b->reads.empty() || !b->writes.empty() || !b->annotations.empty() || b->init)
    return false;
  if (!b->allocBuffers.empty()) return true;
  if (const auto* inner = as<BlockNode>(b->body)) return !inner->iterVars.empty();
  return hasBlocks(b->body);
}

void ScriptPrinter::function(const std::string& name, const PrimFuncNode& fn) {
  used_.insert(name);
  std::vector<std::string> kwargs;
  if (scriptIsPrivate(fn.attrs, name)) kwargs.push_back("private=True");
  if (main_ && fn.attrs.find(kSTirAttr)) kwargs.push_back("s_tir=True");
  std::string decorator = "@T.prim_func";
  if (!kwargs.empty()) {
    decorator += "(";
    for (size_t i = 0; i < kwargs.size(); ++i) decorator += (i ? ", " : "") + kwargs[i];
    decorator += ")";
  }
  line(decorator);
  std::string header = "def " + name + "(";
  for (size_t i = 0; i < fn.params.size(); ++i) {
    const Param& p = fn.params[i];
    if (i) header += ", ";
    if (p.buffer) {
      header += buffer(p.buffer.get()) + ": T.Buffer(" + shape(p.buffer->shape) + ", " + quote(p.buffer->dtype.name()) + ")";
      if (p.var) dataVars_[p.var.get()] = p.buffer.get();
    } else {
      header += var(p.var.get()) + ": T." + std::string(p.var->dtype.name());
    }
  }
  line(header + "):");
  Indent in(*this);
  // global_symbol equal to the name is implied (TVM omits it); s_tir is in the decorator.
  AttrDict shown;
  for (const auto& [key, value] : fn.attrs.entries()) {
    if (key == fn_attr::kGlobalSymbol && value.kind() == AttrValue::Kind::String && value.asString() == name) continue;
    if (key == kSTirAttr && main_) continue;  // releases have no s_tir flag: kept in T.func_attr
    shown.set(key, value);
  }
  if (!shown.empty()) line("T.func_attr(" + attrDict(shown) + ")");
  if (isImplicitRoot(fn.body)) {
    const auto& root = static_cast<const BlockNode&>(*fn.body);
    line(std::string(main_ ? "# with T.sblock(" : "# with T.block(") + quote(root.name) + "):");
    for (const Buffer& a : root.allocBuffers) {
      std::string decl = std::string(main_ ? "T.sblock_alloc_buffer(" : "T.alloc_buffer(") + shape(a->shape);
      if (a->dtype != DataType(DTypeCode::Float32)) decl += ", " + quote(a->dtype.name());
      line(buffer(a.get()) + " = " + decl + ")");
    }
    body(root.body);
  } else {
    body(fn.body);
  }
}

}  // namespace

void printScriptPrimFunc(text::TextWriter& w, const ScriptPrintContext& ctx, const std::string& name, const PrimFuncNode& fn) {
  ScriptPrinter(w, ctx.spelling).function(name, fn);
}

}  // namespace passlab::tvmscript
