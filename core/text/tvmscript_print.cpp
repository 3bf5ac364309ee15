// Printing a module as TVMScript, the form TVM's printer gives
// (src/script/printer/ir and relax): the import header, `@I.ir_module class
// Module:`, functions ordered PrimFuncs, then Relax functions by name, `main`
// last; bindings with their types; dataflow blocks; `return`.
// Graph-form functions (Relay text, ONNX imports: nested calls, no Let) are
// printed as TVM's frontends build them: every call bound in a dataflow block
// to lv, lv1, ..., the result to gv and `R.output(gv)` (plain bindings when
// the body holds an If or a closure).
#include <algorithm>
#include <charconv>
#include <cstdio>
#include <deque>
#include <unordered_map>
#include <unordered_set>

#include "core/ir/lowering_ops.h"
#include "core/ir/call_tir.h"
#include "core/ir/shape_attr.h"
#include "core/ir/type_attr.h"
#include "core/ir/virtual_device.h"
#include "core/text/metadata.h"
#include "core/text/printer_impl.h"
#include "core/text/tvmscript_device.h"
#include "core/text/tvmscript_ops.h"
#include "core/text/tvmscript_print_calls.h"
#include "core/text/tvmscript_print_literals.h"
#include "core/text/tvmscript_tir.h"

namespace passlab::text {

namespace {

using script_literals::attrFloat;
using script_literals::dimsLiteral;
using script_literals::literal;
using script_literals::quoted;
using script_literals::reprFloat;
using script_literals::typeText;
using tvmscript::AttrConv;
using tvmscript::RelaxAttr;
using tvmscript::RelaxOpSpec;

/// One Python indentation level in TextWriter's 2-space units.
constexpr int kLevel = 2;

/// The destination-passing calls, printed with their output type and no
/// binding annotation (TVM's printer).
bool isDpsOp(OpId id) { return id == OpId::CallTir || id == OpId::CallDpsPacked; }

bool containsControl(const Expr& root) {
  std::vector<const ExprNode*> stack{root.get()};
  std::unordered_map<const ExprNode*, bool> seen;
  while (!stack.empty()) {
    const ExprNode* e = stack.back();
    stack.pop_back();
    if (!e || !seen.emplace(e, true).second) continue;
    switch (e->kind) {
      case ExprKind::If:
      case ExprKind::Function:
      case ExprKind::Let:
      case ExprKind::Dataflow: return true;
      case ExprKind::Call: {
        auto* c = static_cast<const CallNode*>(e);
        stack.push_back(c->callee.get());
        for (const Expr& a : c->args) stack.push_back(a.get());
        break;
      }
      case ExprKind::Tuple:
        for (const Expr& f : static_cast<const TupleNode*>(e)->fields) stack.push_back(f.get());
        break;
      case ExprKind::TupleGetItem: stack.push_back(static_cast<const TupleGetItemNode*>(e)->tuple.get()); break;
      default: break;
    }
  }
  return false;
}

class RelaxPrinter {
 public:
  RelaxPrinter(TextWriter& w, const PrintOptions& o, std::string className)
      : w_(w), opt_(o), className_(std::move(className)) {}

  bool usedTir = false;
  /// No function of the module has a global_symbol (Relay text, ONNX imports).
  bool relayOrigin = false;
  /// The module's virtual devices when they print in TVM's form
  /// (I.module_global_infos, R.to_vdevice, R.hint_on_device); empty otherwise.
  std::vector<VirtualDevice> vdevices;

  void printFunction(const std::string& name, const FunctionNode& fn, bool nested) {
    if (!nested) {
      // Names are per function, as TVM's printer scopes them.
      names_ = NameTable();
      bound_.clear();
      counters_.clear();
      everBound_.clear();
    }
    std::string deco = "@R.function";
    std::vector<std::string> kw;
    if (fn.attrs.contains("is_pure") && fn.attrs.getInt("is_pure", 1) == 0) kw.push_back("pure=False");
    // Relay text has no global_symbol: there, only Primitive functions are private.
    bool isPrivate = relayOrigin ? fn.attrs.contains(fn_attr::kPrimitive) : tvmscript::scriptIsPrivate(fn.attrs, name);
    if (!nested && isPrivate) kw.push_back("private=True");
    if (!kw.empty()) {
      deco += '(';
      for (size_t i = 0; i < kw.size(); ++i) deco += (i ? ", " : "") + kw[i];
      deco += ')';
    }
    line(deco);
    std::string head = "def " + name + "(";
    for (size_t i = 0; i < fn.params.size(); ++i) {
      const Var& p = fn.params[i];
      head += (i ? ", " : "") + varName(p.get(), p->name);
      Type t = p->annotation ? p->annotation : p->checkedType;
      std::string tt = typeTextOf(t, true);
      if (!tt.empty()) head += ": " + tt;
    }
    head += ')';
    Type ret = fn.retType;
    if (!ret && fn.body) ret = fn.body->checkedType;
    if (std::string rt = typeTextOf(ret, true); !rt.empty()) head += " -> " + rt;
    // TVM defines the signature's shape variables as it meets them: the
    // return type first, then the parameters; the body's own after func_attr.
    std::vector<tir::Var> sigVars, bodyVars;
    shape::collectTypeVars(ret, sigVars);
    for (const Var& p : fn.params) shape::collectTypeVars(p->annotation ? p->annotation : p->checkedType, sigVars);
    bodyVars = sigVars;
    collectBodyShapeVars(fn.body, bodyVars);
    bodyVars.erase(bodyVars.begin(), bodyVars.begin() + static_cast<std::ptrdiff_t>(sigVars.size()));
    // A name is declared once: a type read back from an attribute (a packed
    // call's R.Prim(value=n * m)) holds variables of the same names as new nodes.
    std::vector<std::string> declared;
    for (const tir::Var& v : sigVars) declared.push_back(v->name);
    std::erase_if(bodyVars, [&declared](const tir::Var& v) {
      if (std::find(declared.begin(), declared.end(), v->name) != declared.end()) return true;
      declared.push_back(v->name);
      return false;
    });
    head += ':';
    w_.rangeStart(&fn);
    line(head);
    w_.indent(kLevel);
    usedTir = usedTir || !sigVars.empty() || !bodyVars.empty();
    for (const tir::Var& v : sigVars) line(v->name + " = T.int64()");
    AttrDict shown;
    for (const auto& [k, v] : fn.attrs.entries()) {
      if (k == "is_pure") continue;
      if (k == fn_attr::kGlobalSymbol && v.kind() == AttrValue::Kind::String && v.asString() == name) continue;
      shown.set(k, v);
    }
    if (!shown.empty()) {
      std::string s = "R.func_attr(";
      literal(s, AttrValue::dict(shown));
      line(s + ")");
    }
    for (const tir::Var& v : bodyVars) line(v->name + " = T.int64()");
    if (!nested && referencesGlobal(fn.body)) line("cls = " + className_);
    printBody(fn.body);
    w_.indent(-kLevel);
    w_.rangeEnd(&fn);
  }

 private:
  /// Appends the shape variables of the body's binding types (not of nested
  /// functions, which declare their own) in order of appearance.
  static void collectBodyShapeVars(const Expr& body, std::vector<tir::Var>& out) {
    Expr e = body;
    while (e) {
      if (const auto* let = as<LetNode>(e)) {
        shape::collectTypeVars(let->var->annotation ? let->var->annotation : let->var->checkedType, out);
        collectValueShapeVars(let->value, out);
        e = let->body;
      } else if (const auto* df = as<DataflowNode>(e)) {
        for (const Binding& b : df->bindings) {
          shape::collectTypeVars(b.var->annotation ? b.var->annotation : b.var->checkedType, out);
          collectValueShapeVars(b.value, out);
        }
        e = df->body;
      } else {
        break;
      }
    }
  }

  /// Appends the shape variables that a binding's value writes in its own
  /// text, R.shape([n + 1, 4]) and R.prim_value(n) (also as inline
  /// arguments), which no type mentions before type inference has run: they
  /// are declared (`n = T.int64()`) so that the printed text reads back.
  static void collectValueShapeVars(const Expr& value, std::vector<tir::Var>& out) {
    std::vector<const ExprNode*> stack{value.get()};
    while (!stack.empty()) {
      const auto* call = as<CallNode>(stack.back());
      stack.pop_back();
      if (!call) continue;
      for (const Expr& a : call->args) stack.push_back(a.get());
      const OpDef* op = call->op();
      if (!op) continue;
      if (op->id == OpId::RelaxShapeExpr) {
        if (const AttrValue* v = call->attrs.find("values"); v && shape::attrHasSymbolic(*v))
          for (const shape::Dim& d : shape::dimsOfAttr(*v, {}))
            if (d) shape::collectVars(d, out);
      } else if (op->id == OpId::RelaxPrimValue) {
        if (const AttrValue* v = call->attrs.find("value"); v && v->kind() == AttrValue::Kind::String) {
          shape::Dim d = shape::parse(v->asString(), [](const std::string& name) { return tir::makeVar(name, DataType(DTypeCode::Int64)); });
          if (d) shape::collectVars(d, out);
        }
      }
    }
  }

  void line(const std::string& s) {
    w_.beginLine();
    w_.text(s);
    w_.endLine();
  }

  std::string varName(const void* key, const std::string& wanted) {
    if (const AlignedNames* a = opt_.alignedNames) {
      std::string_view given = a->find(key);
      if (!given.empty()) return names_.nameFor(key, given);
    }
    std::string s = sanitizeName(wanted.empty() ? std::string("v") : wanted, NameKind::Identifier);
    for (char& ch : s)
      if (ch == '.') ch = '_';  // Python names have no dots (fc.weight -> fc_weight)
    if (s == "R" || s == "T" || s == "I" || s == "cls" || s == className_) s += "_1";
    const std::string& n = names_.nameFor(key, s);
    if (opt_.recordNames && w_.ranges()) w_.ranges()->nodes.recordName(key, n);
    return n;
  }

  bool referencesGlobal(const Expr& root) {
    std::vector<const ExprNode*> stack{root.get()};
    std::unordered_map<const ExprNode*, bool> seen;
    while (!stack.empty()) {
      const ExprNode* e = stack.back();
      stack.pop_back();
      if (!e || !seen.emplace(e, true).second) continue;
      switch (e->kind) {
        case ExprKind::GlobalVar: return true;
        case ExprKind::Call: {
          auto* c = static_cast<const CallNode*>(e);
          stack.push_back(c->callee.get());
          // call_dps_packed's first argument names an external function, printed as a string.
          const auto* op = as<OpNode>(c->callee);
          bool packed = op && (op->def->id == OpId::CallDpsPacked || op->def->id == OpId::CallPurePacked);
          for (size_t i = packed ? 1 : 0; i < c->args.size(); ++i) stack.push_back(c->args[i].get());
          break;
        }
        case ExprKind::Tuple:
          for (const Expr& f : static_cast<const TupleNode*>(e)->fields) stack.push_back(f.get());
          break;
        case ExprKind::TupleGetItem: stack.push_back(static_cast<const TupleGetItemNode*>(e)->tuple.get()); break;
        case ExprKind::Let: {
          auto* l = static_cast<const LetNode*>(e);
          stack.push_back(l->value.get());
          stack.push_back(l->body.get());
          break;
        }
        case ExprKind::If: {
          auto* i = static_cast<const IfNode*>(e);
          stack.push_back(i->cond.get());
          stack.push_back(i->thenBranch.get());
          stack.push_back(i->elseBranch.get());
          break;
        }
        case ExprKind::Function: stack.push_back(static_cast<const FunctionNode*>(e)->body.get()); break;
        case ExprKind::Dataflow: {
          auto* d = static_cast<const DataflowNode*>(e);
          for (const Binding& b : d->bindings) stack.push_back(b.value.get());
          stack.push_back(d->body.get());
          break;
        }
        default: break;
      }
    }
    return false;
  }

  /// Prints a function body (Let/Dataflow chain, then `return`).
  void printBody(const Expr& body) {
    Expr e = body;
    bool graphForm = !as<LetNode>(e) && !as<DataflowNode>(e) && (as<CallNode>(e) || as<TupleNode>(e) || as<TupleGetItemNode>(e));
    if (graphForm && relayOrigin && !containsControl(e)) {
      line("with R.dataflow():");
      w_.indent(kLevel);
      bindOperands(e, "gv");
      if (!bound_.count(e.get())) bindFresh(e, "gv");
      std::string v = bound_[e.get()];
      line("R.output(" + v + ")");
      w_.indent(-kLevel);
      line("return " + v);
      return;
    }
    while (true) {
      if (const auto* let = as<LetNode>(e)) {
        printBinding(let->var, let->value);
        e = let->body;
        continue;
      }
      if (const auto* df = as<DataflowNode>(e)) {
        line("with R.dataflow():");
        w_.indent(kLevel);
          std::vector<std::string> outs;
        for (const Binding& b : df->bindings) {
          printBinding(b.var, b.value);
          if (!b.var->isDataflow) outs.push_back(varName(b.var.get(), b.var->name));
        }
          std::string o = "R.output(";
        for (size_t i = 0; i < outs.size(); ++i) o += (i ? ", " : "") + outs[i];
        line(o + ")");
        w_.indent(-kLevel);
        e = df->body;
        continue;
      }
      break;
    }
    // A call returned directly (hand-written `return R.sigmoid(a)`) stays inline.
    line("return " + (as<CallNode>(e) || as<TupleGetItemNode>(e) ? valueText(e) : atom(e)));
  }

  void printBinding(const Var& var, const Expr& value) {
    const std::string name = varName(var.get(), var->name);
    Type t = var->annotation ? var->annotation : (var->checkedType ? var->checkedType : value->checkedType);
    if (const auto* fn = as<FunctionNode>(value)) {
      printFunction(name, *fn, true);
      w_.endLine();
      return;
    }
    if (const auto* i = as<IfNode>(value)) {
      std::string c = atom(i->cond);
      line("if " + c + ":");
      printBranch(name, t, i->thenBranch);
      line("else:");
      printBranch(name, t, i->elseBranch);
      return;
    }
    std::string rhs = valueText(value);
    std::string ann;
    const auto* call = as<CallNode>(value);
    const auto* callee = call ? as<OpNode>(call->callee) : nullptr;
    bool dps = callee && isDpsOp(callee->def->id);
    if (!dps) ann = typeTextOf(t);
    if (callee && callee->def->id == OpId::MatchCast && call->args.size() == 1)
      rhs = "R.match_cast(" + atom(call->args[0]) + ", " + ann + ")";
    w_.rangeStart(var.get());
    w_.rangeStart(value.get());
    line(name + (ann.empty() ? "" : ": " + ann) + " = " + rhs);
    w_.rangeEnd(value.get());
    w_.rangeEnd(var.get());
  }

  void printBranch(const std::string& name, const Type& t, const Expr& branch) {
    // What a branch binds is not visible after it (nor in the other branch).
    auto boundBefore = bound_;
    struct Restore {
      std::unordered_map<const ExprNode*, std::string>& target;
      std::unordered_map<const ExprNode*, std::string> saved;
      ~Restore() { target = std::move(saved); }
    } restore{bound_, std::move(boundBefore)};
    w_.indent(kLevel);
    Expr e = branch;
    while (const auto* let = as<LetNode>(e)) {
      printBinding(let->var, let->value);
      e = let->body;
    }
    std::string rhs = valueText(e);
    std::string ann = typeTextOf(t);
    line(name + (ann.empty() ? "" : ": " + ann) + " = " + rhs);
    w_.indent(-kLevel);
  }

  /// Binds `e` to a fresh variable (ANF of graph-form text) and returns its
  /// name. Its operands must already be leaves or bound (see bindOperands).
  std::string bindFresh(const Expr& e, const char* stem) {
    auto it = bound_.find(e.get());
    if (it != bound_.end()) return it->second;
    // A node bound again after its branch closed gets a new name (a new key).
    const void* key = e.get();
    if (!everBound_.insert(key).second) key = &rebindKeys_.emplace_back(0);
    std::string wanted;
    if (const AlignedNames* a = opt_.alignedNames) {
      // A diff prints the after side with the before side's names.
      wanted = a->find(e.get());
    }
    const std::string name = names_.nameFor(key, wanted.empty() ? nextName(stem) : wanted);
    if (opt_.recordNames && w_.ranges()) w_.ranges()->nodes.recordName(e.get(), name);
    Type t = e->checkedType;
    if (const auto* c = as<ConstantNode>(e); c && !t) t = tensorType(c->data.shape(), c->data.dtype());
    if (const auto* fn = as<FunctionNode>(e)) {
      printFunction(name, *fn, true);
      w_.endLine();
    } else if (const auto* i = as<IfNode>(e)) {
      std::string c = atom(i->cond);
      w_.rangeStart(e.get());
      line("if " + c + ":");
      printBranch(name, t, i->thenBranch);
      line("else:");
      printBranch(name, t, i->elseBranch);
      w_.rangeEnd(e.get());
    } else {
      std::string rhs = valueText(e);
      std::string ann = typeTextOf(t);
      const auto* call = as<CallNode>(e);
      const auto* callee = call ? as<OpNode>(call->callee) : nullptr;
      if (callee && isDpsOp(callee->def->id)) ann.clear();
      w_.rangeStart(e.get());
      line(name + (ann.empty() ? "" : ": " + ann) + " = " + rhs);
      w_.rangeEnd(e.get());
    }
    bound_[e.get()] = name;
    return name;
  }

  /// TVM main's names (R.Any, ty_args=, out_ty=) rather than a release's.
  bool mainSpelling() const { return opt_.spelling == TvmScriptSpelling::Main; }

  /// A type in the spelling being printed (R.Object or R.Any).
  std::string typeTextOf(const Type& t, bool signature = false) const {
    return typeText(t, signature, opt_.spelling == TvmScriptSpelling::Main);
  }

  /// R.shape([..]), R.prim_value(n), R.str("..") and R.dtype(".."): the value
  /// forms Relax writes inline.
  static bool isInlineValue(const Expr& e) {
    const auto* c = as<CallNode>(e);
    const OpDef* op = c ? c->op() : nullptr;
    return op && (op->id == OpId::RelaxShapeExpr || op->id == OpId::RelaxPrimValue || op->id == OpId::RelaxStrImm ||
                  op->id == OpId::RelaxDataTypeImm);
  }

  /// True for what Relax writes inline as an operand.
  static bool isLeaf(const Expr& e) {
    if (as<VarNode>(e) || as<GlobalVarNode>(e) || as<OpNode>(e) || as<TupleNode>(e) || isInlineValue(e)) return true;
    if (const auto* c = as<ConstantNode>(e)) return c->data.ndim() == 0 && !c->data.isPlaceholder();
    return false;
  }

  /// Binds every non-leaf node under `root` (root included unless it is a
  /// leaf) in post order, iteratively: a 100k-op chain never deepens the stack.
  void bindOperands(const Expr& root, const char* stem) {
    struct Item {
      const Expr* e;
      bool expanded;
    };
    std::vector<Item> stack{{&root, false}};
    while (!stack.empty()) {
      Item it = stack.back();
      stack.pop_back();
      const Expr& e = *it.e;
      if (!e || bound_.count(e.get())) continue;
      if (it.expanded) {
        if (!isLeaf(e)) bindFresh(e, &e == &root ? stem : "lv");
        continue;
      }
      stack.push_back({&e, true});
      if (const auto* c = as<CallNode>(e)) {
        for (size_t i = c->args.size(); i-- > 0;) stack.push_back({&c->args[i], false});
        if (!as<OpNode>(c->callee)) stack.push_back({&c->callee, false});
      } else if (const auto* t = as<TupleNode>(e)) {
        for (size_t i = t->fields.size(); i-- > 0;) stack.push_back({&t->fields[i], false});
      } else if (const auto* g = as<TupleGetItemNode>(e)) {
        stack.push_back({&g->tuple, false});
      } else if (const auto* i = as<IfNode>(e)) {
        stack.push_back({&i->cond, false});
      }
    }
  }

  std::string nextName(const std::string& stem) {
    int& n = counters_[stem];
    std::string s = n == 0 ? stem : stem + std::to_string(n);
    ++n;
    return s;
  }

  /// A leaf: variables, globals, constants, tuples of leaves; anything else is bound first.
  std::string atom(const Expr& e) {
    if (!isLeaf(e) || as<TupleNode>(e)) bindOperands(e, "lv");
    if (auto it = bound_.find(e.get()); it != bound_.end()) return it->second;
    if (const auto* v = as<VarNode>(e)) return varName(v, v->name);
    if (const auto* g = as<GlobalVarNode>(e)) return "cls." + g->name;
    if (const auto* c = as<ConstantNode>(e)) {
      return constText(*c);
    }
    if (isInlineValue(e)) return script_calls::vmValueText(*as<CallNode>(e), {}, mainSpelling(), usedTir);
    if (const auto* t = as<TupleNode>(e)) {
      std::string s = "(";
      for (size_t i = 0; i < t->fields.size(); ++i) s += (i ? ", " : "") + atom(t->fields[i]);
      if (t->fields.size() == 1) s += ',';
      return s + ")";
    }
    return "None";  // not reached: every non-leaf was bound above
  }

  std::string constText(const ConstantNode& c) {
    if (c.data.isPlaceholder()) {
      w_.notePlaceholder(c.data.placeholderIndex());
      return "metadata[\"relax.expr.Constant\"][" + std::to_string(c.data.placeholderIndex()) + "]";
    }
    // TVMScript has no inline spelling of a tensor (R.const takes a scalar),
    // so every non-scalar is a reference whatever the constant style (a
    // superset of printsAsReference). N comes from the print's numbering (the
    // session's), so it is the N of `show const N` and of Relay text.
    if (c.data.ndim() != 0) {
      const int32_t n = w_.constantNumber(c.data);
      w_.notePlaceholder(n);
      return "metadata[\"relax.expr.Constant\"][" + std::to_string(n) + "]";
    }
    double v = c.data.getAsDouble(0);
    std::string dt(c.data.dtype().name());
    std::string s;
    if (c.data.dtype() == DataType(DTypeCode::Bool)) s = v != 0 ? "True" : "False";
    else if (c.data.dtype().isFloat()) s = reprFloat(v);
    else s = std::to_string(static_cast<int64_t>(v));
    return "R.const(" + s + ", " + quoted(dt) + ")";
  }

  /// The right-hand side of a binding: a call with leaf arguments, or a leaf.
  std::string valueText(const Expr& e) {
    if (const auto* c = as<ConstantNode>(e)) return constText(*c);
    if (const auto* g = as<TupleGetItemNode>(e)) return atom(g->tuple) + "[" + std::to_string(g->index) + "]";
    const auto* call = as<CallNode>(e);
    if (!call) return atom(e);
    std::vector<std::string> args;
    for (const Expr& a : call->args) args.push_back(atom(a));
    auto join = [&](std::vector<std::string> parts) {
      std::string s;
      for (size_t i = 0; i < parts.size(); ++i) s += (i ? ", " : "") + parts[i];
      return s;
    };
    const auto* op = as<OpNode>(call->callee);
    if (!op) return atom(call->callee) + "(" + join(args) + ")";
    const OpDef& def = *op->def;
    if (isDpsOp(def.id)) return script_calls::callTirText(*call, args, mainSpelling());
    if (def.id == OpId::DeviceCopy || def.id == OpId::OnDevice)
      if (std::string s = tvmscript::deviceCallText(*call, args, vdevices); !s.empty()) return s;
    if (def.id == OpId::CallPurePacked) return script_calls::purePackedText(*call, args, mainSpelling());
    if (isLoweringBuiltin(def.id) && def.name.starts_with("relax.")) return script_calls::vmValueText(*call, args, mainSpelling(), usedTir);
    const RelaxOpSpec* spec = tvmscript::relaxSpecFor(def.id);
    if (def.id == OpId::Matmul && (call->attrs.getBool("transpose_a") || call->attrs.getBool("transpose_b") ||
                                   !attrOrDefault(def, call->attrs, "units").isNone()))
      spec = nullptr;
    if (def.id == OpId::BatchMatmul && !call->attrs.getBool("transpose_a") &&
        !attrOrDefault(def, call->attrs, "transpose_b").asBool()) {
      spec = tvmscript::relaxSpecFor(OpId::Matmul);
    }
    if (!spec) {
      // passlab's own spelling (an op without a Relax counterpart): R.<relay name>, non-default attributes.
      for (const auto& [k, v] : call->attrs.entries()) {
        std::string s = k + "=";
        literal(s, v);
        args.push_back(s);
      }
      return "R." + std::string(def.name) + "(" + join(args) + ")";
    }
    for (const RelaxAttr& ra : spec->attrs) {
      std::string s;
      if (ra.conv != AttrConv::Positional) s = std::string(ra.relax) + "=";
      if (ra.conv == AttrConv::Fixed || ra.conv == AttrConv::Must) {
        args.push_back(s + std::string(ra.fixed));
        continue;
      }
      AttrValue v = attrOrDefault(def, call->attrs, ra.key);
      if (ra.conv == AttrConv::Plain && v.isNone() && !ra.fixed.empty()) {
        args.push_back(s + std::string(ra.fixed));
        continue;
      }
      switch (ra.conv) {
        case AttrConv::OutDtype:
          if (v.kind() != AttrValue::Kind::String || v.asString().empty()) v = AttrValue::string("void");
          break;
        case AttrConv::OutLayout:
          if (v.kind() != AttrValue::Kind::String || v.asString().empty()) v = attrOrDefault(def, call->attrs, ra.fixed);
          break;
        case AttrConv::Pad4:
          if (v.kind() == AttrValue::Kind::Array && v.asArray().size() == 2) {
            auto a = v.asArray();
            v = AttrValue::array({a[0], a[1], a[0], a[1]});
          }
          break;
        case AttrConv::AxisList:
          if (v.kind() == AttrValue::Kind::Int) v = AttrValue::array({v});
          break;
        case AttrConv::Positional:
          if (v.kind() == AttrValue::Kind::Array) {
            s += "R.shape(";
            dimsLiteral(s, v);
            args.push_back(s + ")");
          } else {
            bool main = opt_.spelling == TvmScriptSpelling::Main;
            std::string num = v.kind() == AttrValue::Kind::Int ? std::to_string(v.asInt()) : attrFloat(v.asFloat());
            std::string typed = (v.kind() == AttrValue::Kind::Int ? "T.int64(" : "T.float32(") + num + ")";
            usedTir = true;
            args.push_back(main ? typed : "R.prim_value(" + typed + ")");
          }
          continue;
        default: break;
      }
      literal(s, v);
      args.push_back(s);
    }
    return "R." + std::string(spec->name) + "(" + join(args) + ")";
  }

  TextWriter& w_;
  const PrintOptions& opt_;
  std::string className_;
  NameTable names_;
  std::unordered_map<const ExprNode*, std::string> bound_;
  std::unordered_map<std::string, int> counters_;
  std::unordered_set<const void*> everBound_;
  std::deque<int> rebindKeys_;
};

int functionPriority(const std::string& name, const Expr& fn) {
  if (name == "main") return 1000;
  return as<PrimFuncNode>(fn) ? 1 : 3;
}

}  // namespace

void printTvmScriptModule(TextWriter& w, const IRModule& mod, const PrintOptions& options) {
  std::vector<std::pair<std::string, Expr>> fns(mod->functions.begin(), mod->functions.end());
  std::stable_sort(fns.begin(), fns.end(), [](const auto& a, const auto& b) {
    int pa = functionPriority(a.first, a.second), pb = functionPriority(b.first, b.second);
    return pa != pb ? pa < pb : a.first < b.first;
  });
  bool anyTir = false, anyRelax = false, relayOrigin = true;
  for (const auto& [name, fn] : fns) {
    (as<PrimFuncNode>(fn) ? anyTir : anyRelax) = true;
    if (functionAttrs(fn).contains(fn_attr::kGlobalSymbol)) relayOrigin = false;
  }
  bool main = options.spelling == TvmScriptSpelling::Main;
  auto header = [&](bool usesT) {
    w.text("# from tvm.script import ir as I");
    w.endLine();
    if (anyTir || usesT) {
      w.text(main ? "# from tvm.script import tirx as T" : "# from tvm.script import tir as T");
      w.endLine();
    }
    if (anyRelax) {
      w.text("# from tvm.script import relax as R");
      w.endLine();
    }
    w.endLine();
  };
  bool usesT = false;
  {
    // A dry run finds whether prim values (T.float32(...)) appear.
    TextWriter dry(nullptr);
    RelaxPrinter p(dry, options, "Module");
    p.relayOrigin = relayOrigin;
    p.vdevices = tvmscript::scriptVirtualDevices(mod);
    for (const auto& [name, fn] : fns)
      if (const auto* f = as<FunctionNode>(fn)) p.printFunction(name, *f, false);
    usesT = p.usedTir;
  }
  header(usesT);
  w.text("@I.ir_module");
  w.endLine();
  w.text("class Module:");
  w.endLine();
  w.indent(kLevel);
  std::vector<VirtualDevice> vdevices = tvmscript::scriptVirtualDevices(mod);
  AttrDict attrs;
  for (const auto& [k, v] : mod->attrs.entries())
    if (!(k == module_attr::kPhase && v.asInt() == 0) && !(k == kVirtualDevicesAttr && !vdevices.empty())) attrs.set(k, v);
  bool first = true;
  if (!attrs.empty()) {
    std::string s = "I.module_attrs(";
    literal(s, AttrValue::dict(attrs));
    w.beginLine();
    w.text(s + ")");
    w.endLine();
    first = false;
  }
  if (std::string infos = tvmscript::globalInfosText(vdevices); !infos.empty()) {
    w.beginLine();
    w.text(infos);
    w.endLine();
    first = false;
  }
  RelaxPrinter printer(w, options, "Module");
  printer.relayOrigin = relayOrigin;
  printer.vdevices = vdevices;
  tvmscript::ScriptPrintContext ctx;
  ctx.spelling = options.spelling;
  for (const auto& [name, fn] : fns) {
    if (!first) w.endLine();
    first = false;
    if (w.ranges()) w.ranges()->functionLines[name] = w.line();
    if (const auto* prim = as<PrimFuncNode>(fn)) tvmscript::printScriptPrimFunc(w, ctx, name, *prim);
    else if (const auto* f = as<FunctionNode>(fn)) printer.printFunction(name, *f, false);
  }
  if (first) {
    // An empty class body is not Python: TVM prints `pass` for a module with
    // nothing in it (found by fuzz/tvmscript_fuzzer).
    w.beginLine();
    w.text("pass");
    w.endLine();
  }
  w.indent(-kLevel);
  if (w.placeholders() > 0 && (!options.metadataSection || summarizePlaceholders(mod).placeholders > 0)) {
    // TVM's printer says so when it leaves the constants' data out (with a
    // metadata statement, only placeholders, which have no data, are left out).
    w.endLine();
    w.text("# Metadata omitted. Use show_meta=True in script() method to show it.");
    w.endLine();
  }
}

void printTvmScriptFunction(TextWriter& w, const IRModule& mod, const std::string& name, const PrintOptions& options) {
  Expr fn = mod->lookup(name);
  if (!fn) return;
  bool relayOrigin = true;
  for (const auto& [n, f] : mod->functions)
    if (functionAttrs(f).contains(fn_attr::kGlobalSymbol)) relayOrigin = false;
  bool main = options.spelling == TvmScriptSpelling::Main;
  if (const auto* prim = as<PrimFuncNode>(fn)) {
    w.text(main ? "# from tvm.script import tirx as T" : "# from tvm.script import tir as T");
    w.endLine();
    w.endLine();
    tvmscript::ScriptPrintContext ctx;
    ctx.spelling = options.spelling;
    tvmscript::printScriptPrimFunc(w, ctx, name, *prim);
    return;
  }
  const auto* f = as<FunctionNode>(fn);
  if (!f) return;
  bool usesT = false;
  {
    TextWriter dry(nullptr);
    RelaxPrinter p(dry, options, "Module");
    p.relayOrigin = relayOrigin;
    p.printFunction(name, *f, false);
    usesT = p.usedTir;
  }
  if (usesT) {
    w.text(main ? "# from tvm.script import tirx as T" : "# from tvm.script import tir as T");
    w.endLine();
  }
  w.text("# from tvm.script import relax as R");
  w.endLine();
  w.endLine();
  RelaxPrinter printer(w, options, "Module");
  printer.relayOrigin = relayOrigin;
  printer.printFunction(name, *f, false);
}

}  // namespace passlab::text

namespace passlab::tvmscript {

std::string scriptQuoted(const std::string& s) { return text::quoted(s); }

}  // namespace passlab::tvmscript

namespace passlab {

std::string relaxTypeText(const Type& t) { return text::typeText(t); }

}  // namespace passlab
