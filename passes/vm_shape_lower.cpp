// VMShapeLower (see vm_shape_lower.h).
#include "passes/vm_shape_lower.h"

#include <map>
#include <memory>
#include <unordered_map>

#include "core/analysis/structural_equal.h"
#include "core/analysis/type_infer.h"
#include "core/ir/diagnostic.h"
#include "core/ir/lowering_ops.h"
#include "core/ir/shape_attr.h"
#include "core/ir/tir_functor.h"
#include "core/ir/type_attr.h"
#include "core/pass/registry.h"
#include "core/text/tvmscript.h"
#include "passes/opt_util.h"
#include "passes/relax_bindings.h"

namespace passlab {

namespace {

using relax_bindings::FlatBinding;
using relax_bindings::FlatBody;

// TVM's runtime::vm::MatchShapeCode and MakeShapeCode (core/interp/vm_builtins.cpp runs them).
enum class MatchCode : int64_t { AssertEqualToImm = 0, StoreToHeap = 1, NoOp = 2, AssertEqualToLoad = 3 };
enum class MakeCode : int64_t { UseImm = 0, LoadShape = 1 };

/// One heap slot: a symbolic expression, where it lives, and what computing
/// it waits for (TVM's PrimExprSlot).
struct Slot {
  shape::Dim expr;
  int64_t index = 0;
  /// Slots of expressions that use this one (only for bare variables).
  std::vector<Slot*> users;
  /// Variables of `expr` not known yet.
  int outstanding = 0;
  bool computed = false;
};

/// A shape (or prim value) to match against a pattern (TVM's MatchShapeTodoItem).
struct MatchTodo {
  Expr input;
  std::vector<shape::Dim> pattern;
  std::string errCtx;
};

bool isConstantDim(const shape::Dim& d) { return shape::asConstant(d).has_value(); }

Expr primValue(int64_t v) {
  AttrDict a;
  a.set("value", AttrValue::integer(v));
  return makeOpCall(OpId::RelaxPrimValue, {}, a);
}

Expr strValue(OpId id, std::string v) {
  AttrDict a;
  a.set("value", AttrValue::string(std::move(v)));
  return makeOpCall(id, {}, a);
}

/// R.call_packed(name, args..., sinfo_args=(out,)).
Expr packedCall(const std::string& name, std::vector<Expr> args, const Type& out) {
  AttrDict a;
  a.set("func_name", AttrValue::string(name));
  const auto* tup = as<TupleTypeNode>(out);
  if (tup && tup->fields.empty()) {
    a.set("out_shape", AttrValue::array({}));
    a.set("out_dtype", AttrValue::array({}));
  } else if (!as<ObjectTypeNode>(out)) {
    a.set("out_type", *type_attr::encode(out));
  }
  return makeOpCall(OpId::RelaxCallPacked, std::move(args), a);
}

/// The values of a shape type with known values, static or symbolic.
std::vector<shape::Dim> shapeDims(const ShapeTypeNode& t) {
  std::vector<shape::Dim> dims;
  for (size_t i = 0; t.values && i < t.values->size(); ++i)
    dims.push_back(i < t.symbolic.size() && t.symbolic[i] ? t.symbolic[i] : shape::constant((*t.values)[i]));
  return dims;
}

/// TVM's IsBaseOf on the types passlab has: every value of `derived` is a
/// value of `base`.
bool isBaseOf(const Type& base, const Type& derived) {
  if (as<ObjectTypeNode>(base)) return true;
  if (!derived) return false;
  if (const auto* b = as<TensorTypeNode>(base)) {
    const auto* d = as<TensorTypeNode>(derived);
    if (!d || (!b->unknownDtype && (d->unknownDtype || d->dtype != b->dtype))) return false;
    if (b->unknownRank) return true;
    if (d->unknownRank || d->shape.size() != b->shape.size()) return false;
    for (size_t i = 0; i < b->shape.size(); ++i) {
      shape::Dim bd = shape::dimOf(*b, i);
      if (!bd) continue;  // ndim only
      shape::Dim dd = shape::dimOf(*d, i);
      if (!dd || !shape::equal(bd, dd)) return false;
    }
    return true;
  }
  if (const auto* b = as<ShapeTypeNode>(base)) {
    const auto* d = as<ShapeTypeNode>(derived);
    if (!d) return false;
    if (b->ndim >= 0 && d->ndim != b->ndim) return false;
    if (!b->values) return true;
    if (!d->values) return false;
    std::vector<shape::Dim> bd = shapeDims(*b), dd = shapeDims(*d);
    for (size_t i = 0; i < bd.size(); ++i)
      if (!shape::equal(bd[i], dd[i])) return false;
    return true;
  }
  if (const auto* b = as<PrimTypeNode>(base)) {
    const auto* d = as<PrimTypeNode>(derived);
    if (!d || d->dtype != b->dtype) return false;
    if (b->symbolic) return d->symbolic && shape::equal(b->symbolic, d->symbolic);
    return !b->value || d->value == b->value;
  }
  if (const auto* b = as<TupleTypeNode>(base)) {
    const auto* d = as<TupleTypeNode>(derived);
    if (!d || d->fields.size() != b->fields.size()) return false;
    for (size_t i = 0; i < b->fields.size(); ++i)
      if (!isBaseOf(b->fields[i], d->fields[i])) return false;
    return true;
  }
  if (as<FuncTypeNode>(base)) return as<FuncTypeNode>(derived) != nullptr;
  return typeEqual(base, derived);
}

/// The dims a tensor type pins down: empty when it knows only its rank.
std::vector<shape::Dim> knownDims(const TensorTypeNode& t) {
  if (t.unknownRank) return {};
  std::vector<shape::Dim> dims = shape::dimsOf(t);
  for (const shape::Dim& d : dims)
    if (!d) return {};
  return dims;
}

bool isRelaxShapeExpr(const Expr& e) {
  const auto* c = as<CallNode>(e);
  return c && c->op() && c->op()->id == OpId::RelaxShapeExpr;
}

/// The text of a symbolic R.prim_value(n) (its value attribute), null for
/// anything else (a constant R.prim_value included).
const AttrValue* symbolicPrimValue(const Expr& e) {
  const auto* c = as<CallNode>(e);
  if (!c || !c->op() || c->op()->id != OpId::RelaxPrimValue) return nullptr;
  const AttrValue* v = c->attrs.find("value");
  return v && v->kind() == AttrValue::Kind::String ? v : nullptr;
}

/// The attributes of passlab's VM ops that TVM passes as R.shape values.
constexpr std::string_view kShapeAttrs[] = {"shape", "size"};

class FunctionLowerer {
 public:
  FunctionLowerer(std::string name, const Function& fn, bool emitErrCtx, std::map<std::string, Expr>& newFuncs,
                  const IRModule& mod, std::unordered_multimap<size_t, std::string>& byHash, relax_bindings::NameSupply& names)
      : name_(std::move(name)), fn_(fn), emitErrCtx_(emitErrCtx), newFuncs_(newFuncs), mod_(mod), byHash_(byHash), names_(names) {}

  Function run() {
    FlatBody body = relax_bindings::flatten(fn_->body);
    collectScope(body);
    collectSlots(body);
    populateSlotInfo();

    // The parameter section: heap, checks, matches and the first shape functions.
    where_ = FlatBinding{};
    where_.block = body.bindings.empty() ? 0 : body.bindings.front().block - 1;
    if (!body.bindings.empty() && !body.bindings.front().dataflow) where_.block = body.bindings.front().block;
    allocHeap();
    std::vector<MatchTodo> todos;
    size_t numInput = fn_->params.size();
    if (const AttrValue* n = fn_->attrs.find("num_input"); n && n->kind() == AttrValue::Kind::Int)
      numInput = static_cast<size_t>(std::max<int64_t>(0, n->asInt()));
    for (size_t i = 0; i < fn_->params.size(); ++i) {
      const Var& p = fn_->params[i];
      std::string ctx = "ErrorContext(fn=" + name_ + ", loc=param[" + std::to_string(i) + "], param=" + p->name +
                        ", annotation=" + relaxTypeText(p->annotation) + ") ";
      checkMatchCast(p->annotation, p, true, i >= numInput, ctx, todos);
    }
    todos = runMatch(todos, false);
    emitOutstandingCompute();
    runMatch(todos, true);

    for (const FlatBinding& b : body.bindings) {
      where_ = b;
      const auto* call = as<CallNode>(b.value);
      if (call && call->op() && call->op()->id == OpId::MatchCast) {
        Expr value = rewriteOperand(call->args[0]);
        std::string ctx = "ErrorContext(match_cast, struct_info=" + relaxTypeText(b.var->annotation) + ") ";
        std::vector<MatchTodo> cast;
        checkMatchCast(b.var->annotation, value, false, false, ctx, cast);
        cast = runMatch(cast, false);
        emitOutstandingCompute();
        runMatch(cast, true);
        FlatBinding kept = b;
        if (value != call->args[0]) kept.value = makeOpCall(OpId::MatchCast, {value}, call->attrs, call->span);
        out_.push_back(std::move(kept));
        continue;
      }
      FlatBinding kept = b;
      kept.value = rewriteValue(b.value);
      out_.push_back(std::move(kept));
    }

    // The result, then the return section.
    where_ = FlatBinding{};
    where_.block = body.bindings.empty() ? 1 : body.bindings.back().block + 1;
    Expr result = rewriteOperand(body.result);
    if (fn_->retType) {
      std::vector<MatchTodo> ret;
      checkMatchCast(fn_->retType, result, false, false,
                     "ErrorContext(fn=" + name_ + ", loc=return, annotation=" + relaxTypeText(fn_->retType) + ") ", ret);
      runMatch(ret, true);
    }
    FlatBody out;
    out.bindings = std::move(out_);
    out.result = result;
    return makeFunction(fn_->params, relax_bindings::rebuild(out), fn_->retType, fn_->attrs, fn_->span);
  }

 private:
  // ---- Slots ---------------------------------------------------------------

  void collectScope(const FlatBody& body) {
    for (const Var& p : fn_->params) shape::collectTypeVars(p->annotation, scope_);
    for (const FlatBinding& b : body.bindings) shape::collectTypeVars(b.var->annotation, scope_);
    shape::collectTypeVars(fn_->retType, scope_);
  }

  void collectDim(const shape::Dim& d) {
    if (!d || isConstantDim(d)) return;
    std::string key = shape::toScript(d);
    if (!slots_.count(key)) {
      auto slot = std::make_unique<Slot>();
      slot->expr = d;
      slot->index = static_cast<int64_t>(order_.size());
      order_.push_back(slot.get());
      slots_.emplace(key, std::move(slot));
    }
    std::vector<tir::Var> vars;
    shape::collectVars(d, vars);
    for (const tir::Var& v : vars)
      if (v != d) collectDim(v);
  }

  void collectType(const Type& t) {
    if (const auto* tt = as<TensorTypeNode>(t)) {
      for (size_t i = 0; i < tt->shape.size(); ++i) collectDim(tt->symbolicDim(i));
    } else if (const auto* sh = as<ShapeTypeNode>(t)) {
      for (const shape::Dim& d : sh->symbolic) collectDim(d);
    } else if (const auto* pr = as<PrimTypeNode>(t)) {
      collectDim(pr->symbolic);
    } else if (const auto* tup = as<TupleTypeNode>(t)) {
      for (const Type& f : tup->fields) collectType(f);
    }
  }

  /// The expression of a symbolic R.prim_value, its text read in the function's scope.
  shape::Dim primDim(const AttrValue& text) const { return attrDims(AttrValue::array({text})).at(0); }

  /// The dims of a shape attribute, symbolic texts read in the function's scope.
  std::vector<shape::Dim> attrDims(const AttrValue& v) const { return shape::dimsOfAttr(v, scope_); }

  /// R.shape values and the shape attributes of the VM ops in `e` (the value
  /// itself and its direct operands: the body is in normal form).
  void collectValue(const Expr& e) {
    const auto* call = as<CallNode>(e);
    if (const auto* t = as<TupleNode>(e))
      for (const Expr& f : t->fields) collectValue(f);
    if (!call) return;
    if (isRelaxShapeExpr(e)) {
      for (const shape::Dim& d : attrDims(*call->attrs.find("values"))) collectDim(d);
      return;
    }
    if (const AttrValue* v = symbolicPrimValue(e)) {
      collectDim(primDim(*v));
      return;
    }
    if (call->op() && isLoweringBuiltin(call->op()->id))
      for (std::string_view key : kShapeAttrs)
        if (const AttrValue* v = call->attrs.find(key); v && shape::attrHasSymbolic(*v))
          for (const shape::Dim& d : attrDims(*v)) collectDim(d);
    for (const Expr& a : call->args) collectValue(a);
  }

  void collectSlots(const FlatBody& body) {
    for (const Var& p : fn_->params) collectType(p->annotation);
    for (const FlatBinding& b : body.bindings) {
      if (as<FunctionNode>(b.value))
        throwError(b.span, "VMShapeLower works on lifted functions only: run LambdaLifting (TVM's LambdaLift) first",
                   "vm-shape-lower.nested-function");
      const auto* call = as<CallNode>(b.value);
      if (call && call->op() && call->op()->id == OpId::MatchCast) collectType(b.var->annotation);
      collectValue(b.value);
    }
    collectValue(body.result);
    collectType(fn_->retType);
  }

  Slot* slotOf(const shape::Dim& d) const {
    auto it = slots_.find(shape::toScript(d));
    return it == slots_.end() ? nullptr : it->second.get();
  }

  void populateSlotInfo() {
    for (Slot* slot : order_) {
      if (as<tir::VarNode>(slot->expr)) continue;
      std::vector<tir::Var> vars;
      shape::collectVars(slot->expr, vars);
      for (const tir::Var& v : vars) slotOf(v)->users.push_back(slot);
      slot->outstanding = static_cast<int>(vars.size());
    }
  }

  // ---- Emitting ------------------------------------------------------------

  /// Binds `value` to a new variable named from `hint` by the pass's name
  /// supply (TVM's builder_->Emit); the heap's name is given as is, as TVM does.
  Var emit(const std::string& hint, Type type, Expr value) {
    std::string name = hint == "shape_heap" ? hint : names_.fresh(hint);
    FlatBinding b = relax_bindings::bindingLike(where_, name, std::move(type), std::move(value));
    Var v = b.var;
    out_.push_back(std::move(b));
    return v;
  }

  void emitCheck(const std::string& builtin, std::vector<Expr> args) { emit("_", unitType(), packedCall(builtin, std::move(args), unitType())); }

  Expr errCtx(const std::string& ctx) const { return strValue(OpId::RelaxStrImm, emitErrCtx_ ? ctx : ""); }

  void allocHeap() {
    if (order_.empty()) {
      heap_ = emit("shape_heap", objectType(), makeOpCall(OpId::RelaxNullValue, {}));
      return;
    }
    Type heapType = tensorType({kDynamicDim}, DataType(DTypeCode::Int64));
    AttrDict a;
    a.set("func_name", AttrValue::string("vm.builtin.alloc_shape_heap"));
    a.set("out_type", *type_attr::encode(heapType));
    heap_ = emit("shape_heap", heapType,
                 makeOpCall(OpId::RelaxCallBuiltinWithCtx, {primValue(static_cast<int64_t>(order_.size()))}, a));
  }

  /// The type of an operand, for the ones made here as well.
  Type typeOf(const Expr& e) const {
    if (auto it = madeTypes_.find(e.get()); it != madeTypes_.end()) return it->second;
    if (const auto* v = as<VarNode>(e); v && v->annotation) return v->annotation;
    return e->checkedType;
  }

  /// `e` as a call operand: a tuple projection or call made here is bound to
  /// a variable on first use, as TVM's normalizer does.
  Expr operand(const Expr& e) {
    if (!as<TupleGetItemNode>(e) && !as<CallNode>(e)) return e;
    if (const auto* c = as<CallNode>(e); c && c->op() &&
                                         (c->op()->id == OpId::RelaxPrimValue || c->op()->id == OpId::RelaxShapeExpr ||
                                          c->op()->id == OpId::RelaxStrImm || c->op()->id == OpId::RelaxDataTypeImm))
      return e;
    if (auto it = boundOperands_.find(e.get()); it != boundOperands_.end()) return it->second;
    // A projection of a projection: the inner one is bound first (normal form).
    Expr value = e;
    if (const auto* g = as<TupleGetItemNode>(e)) {
      Expr inner = operand(g->tuple);
      if (inner != g->tuple) value = makeTupleGetItem(inner, g->index);
    } else if (const auto* c = as<CallNode>(e); c && !c->args.empty()) {
      std::vector<Expr> args = c->args;
      args[0] = operand(args[0]);
      if (args[0] != c->args[0]) value = makeCall(c->callee, std::move(args), c->attrs, c->span);
    }
    Var v = emit("gv", typeOf(e), value);
    boundOperands_.emplace(e.get(), v);
    return v;
  }

  Expr tupleField(const Expr& value, size_t i, const Type& fieldType) {
    if (const auto* t = as<TupleNode>(value)) return t->fields[i];
    Expr item;
    if (const auto* vt = as<TupleTypeNode>(typeOf(value))) {
      item = makeTupleGetItem(value, static_cast<int>(i));
      madeTypes_[item.get()] = i < vt->fields.size() ? vt->fields[i] : fieldType;
    } else {
      item = packedCall("vm.builtin.tuple_getitem", {value, primValue(static_cast<int64_t>(i))}, objectType());
      madeTypes_[item.get()] = objectType();
    }
    made_.push_back(item);
    return item;
  }

  // ---- Checks (TVM's CheckMatchCast) ----------------------------------------

  void checkMatchCast(const Type& type, const Expr& value, bool always, bool dynamicOnly, const std::string& ctx,
                      std::vector<MatchTodo>& todos) {
    if (!type) return;
    Type valueType = typeOf(value);
    if (!always && isBaseOf(type, valueType)) return;
    if (as<ObjectTypeNode>(type)) return;
    if (const auto* pr = as<PrimTypeNode>(type)) {
      if (always || !isBaseOf(primType(pr->dtype), valueType))
        emitCheck("vm.builtin.check_prim_value_info",
                  {operand(value), strValue(OpId::RelaxDataTypeImm, std::string(pr->dtype.name())), errCtx(ctx)});
      if (pr->value) todos.push_back({value, {shape::constant(*pr->value)}, ctx});
      // R.Prim(value=n): n is matched into (or checked against) its heap slot.
      if (pr->symbolic) todos.push_back({value, {pr->symbolic}, ctx});
      return;
    }
    if (const auto* sh = as<ShapeTypeNode>(type)) {
      if (always || !isBaseOf(shapeTypeOfRank(sh->ndim), valueType))
        emitCheck("vm.builtin.check_shape_info", {operand(value), primValue(sh->ndim), errCtx(ctx)});
      if (sh->values) todos.push_back({value, shapeDims(*sh), ctx});
      return;
    }
    if (const auto* tt = as<TensorTypeNode>(type)) {
      std::vector<shape::Dim> dims = knownDims(*tt);
      bool allStatic = true;
      for (const shape::Dim& d : dims) allStatic = allStatic && isConstantDim(d);
      if (dynamicOnly && allStatic) return;
      int64_t ndim = tt->unknownRank ? -1 : static_cast<int64_t>(tt->shape.size());
      std::optional<DataType> dtype;
      if (!tt->unknownDtype) dtype = tt->dtype;
      if (always || !isBaseOf(tensorTypeOf(dtype, ndim), valueType))
        // The void dtype is R.dtype(""), which checks nothing (TVM's releases).
        emitCheck("vm.builtin.check_tensor_info",
                  {operand(value), primValue(ndim), strValue(OpId::RelaxDataTypeImm, dtype ? std::string(dtype->name()) : ""),
                   errCtx(ctx)});
      if (!dims.empty() || ndim == 0) todos.push_back({value, std::move(dims), ctx});
      return;
    }
    if (const auto* tup = as<TupleTypeNode>(type)) {
      const auto* valueTuple = as<TupleTypeNode>(valueType);
      if (valueTuple && valueTuple->fields.size() != tup->fields.size())
        throwError(value->span, ctx + "during match-cast we find tuple size mismatch", "vm-shape-lower.tuple-size");
      if (always || !valueTuple)
        emitCheck("vm.builtin.check_tuple_info",
                  {operand(value), primValue(static_cast<int64_t>(tup->fields.size())), errCtx(ctx)});
      for (size_t i = 0; i < tup->fields.size(); ++i)
        checkMatchCast(tup->fields[i], tupleField(value, i, tup->fields[i]), always, dynamicOnly, ctx, todos);
      return;
    }
    if (as<FuncTypeNode>(type)) {
      if (!always && as<FuncTypeNode>(valueType)) return;
      emitCheck("vm.builtin.check_func_info", {operand(value), errCtx(ctx)});
    }
  }

  // ---- Matching and computing (TVM's RunMatch, EmitOutstandingPrimExprCompute) --

  std::pair<MatchCode, int64_t> matchArgs(const shape::Dim& d, bool requireComputed, const Expr& at) {
    if (std::optional<int64_t> c = shape::asConstant(d)) return {MatchCode::AssertEqualToImm, *c};
    Slot* slot = slotOf(d);
    if (!slot) throwError(at->span, "VMShapeLower: no shape heap slot for " + shape::toScript(d), "vm-shape-lower.internal");
    if (slot->computed) return {MatchCode::AssertEqualToLoad, slot->index};
    if (requireComputed)
      throwError(at->span, "VMShapeLower: the shape expression " + shape::toScript(d) + " in @" + name_ +
                               " cannot be computed from the shape variables matched before it",
                 "vm-shape-lower.not-computed");
    if (as<tir::VarNode>(d)) {
      slot->computed = true;
      ready_.push_back(slot);
      return {MatchCode::StoreToHeap, slot->index};
    }
    return {MatchCode::NoOp, 0};
  }

  std::vector<MatchTodo> runMatch(const std::vector<MatchTodo>& todos, bool requireComputed) {
    std::vector<MatchTodo> outstanding;
    for (const MatchTodo& item : todos) {
      bool allNoOp = true;
      bool anyNoOp = false;
      bool prim = as<PrimTypeNode>(typeOf(item.input)) != nullptr;
      std::vector<Expr> args{operand(item.input), heap_};
      if (!prim) args.push_back(primValue(static_cast<int64_t>(item.pattern.size())));
      for (const shape::Dim& d : item.pattern) {
        auto [code, value] = matchArgs(d, requireComputed, item.input);
        allNoOp = allNoOp && code == MatchCode::NoOp;
        anyNoOp = anyNoOp || code == MatchCode::NoOp;
        args.push_back(primValue(static_cast<int64_t>(code)));
        args.push_back(primValue(value));
      }
      if (anyNoOp) outstanding.push_back(item);
      args.push_back(errCtx(item.errCtx));
      if (!allNoOp) emit("_", unitType(), packedCall(prim ? "vm.builtin.match_prim_value" : "vm.builtin.match_shape", std::move(args), unitType()));
    }
    return outstanding;
  }

  void emitOutstandingCompute() {
    std::vector<Slot*> toCompute;
    for (Slot* ready : ready_)
      for (Slot* user : ready->users)
        if (--user->outstanding == 0) toCompute.push_back(user);
    ready_.clear();
    if (toCompute.empty()) return;
    const DataType i64(DTypeCode::Int64);
    tir::Buffer heap = tir::makeBuffer("H", i64, {static_cast<int64_t>(order_.size())});
    std::vector<tir::Stmt> stores;
    for (Slot* slot : toCompute) {
      slot->computed = true;
      std::vector<tir::Var> vars;
      shape::collectVars(slot->expr, vars);
      std::vector<std::pair<const tir::VarNode*, tir::PrimExpr>> map;
      for (const tir::Var& v : vars) map.emplace_back(v.get(), tir::load(heap, {tir::intImm(i64, slotOf(v)->index)}));
      stores.push_back(tir::store(heap, {tir::intImm(i64, slot->index)}, tir::substitute(slot->expr, map)));
    }
    AttrDict attrs;
    attrs.set("tir.is_host_func", AttrValue::boolean(true));
    tir::Stmt body = stores.size() == 1 ? stores[0] : tir::seq(std::move(stores));
    std::string fn = addFunction(makePrimFunc({{tir::makeVar("H", i64), heap}}, body, std::move(attrs)));
    emit("_", unitType(), makeCall(makeGlobalVar(fn), {heap_}));
  }

  /// TVM's BlockBuilder::AddFunction: a structurally equal function already
  /// added is reused; otherwise "shape_func", made unique with 1, 2, ...
  std::string addFunction(const PrimFunc& fn) {
    const size_t hash = structuralHash(fn);
    auto [first, last] = byHash_.equal_range(hash);
    for (auto it = first; it != last; ++it)
      if (structuralEqual(newFuncs_.at(it->second), fn)) return it->second;
    std::string name = "shape_func";
    for (int k = 1; mod_->lookup(name) || newFuncs_.count(name); ++k) name = "shape_func" + std::to_string(k);
    newFuncs_[name] = fn;
    byHash_.emplace(hash, name);
    return name;
  }

  // ---- Values --------------------------------------------------------------

  /// The heap slot of a symbolic expression that must be computed by now
  /// (TVM's MakeSymbolicShapeArg): (LoadShape, index), or (UseImm, value).
  std::pair<MakeCode, int64_t> makeArg(const shape::Dim& d, const CallNode& at, const char* what) {
    if (std::optional<int64_t> c = shape::asConstant(d)) return {MakeCode::UseImm, *c};
    Slot* slot = d ? slotOf(d) : nullptr;
    if (!slot || !slot->computed)
      throwError(at.span, "VMShapeLower: " + (d ? shape::toScript(d) : std::string("?")) + " in @" + name_ +
                              " has not been computed before this " + what,
                 "vm-shape-lower.not-computed");
    return {MakeCode::LoadShape, slot->index};
  }

  /// A symbolic R.prim_value(n) as vm.builtin.make_prim_value (TVM's
  /// VisitExpr_(PrimValueNode)): the value loaded from n's heap slot.
  Expr makePrimValue(const Expr& e, const AttrValue& text) {
    const auto* call = as<CallNode>(e);
    shape::Dim d = primDim(text);
    auto [code, value] = makeArg(d, *call, "R.prim_value");
    Type out = call->checkedType ? call->checkedType : primTypeOf(d);
    Expr made = packedCall("vm.builtin.make_prim_value", {heap_, primValue(static_cast<int64_t>(code)), primValue(value)}, out);
    madeTypes_[made.get()] = out;
    made_.push_back(made);
    return made;
  }

  /// A symbolic R.shape value as vm.builtin.make_shape, a symbolic
  /// R.prim_value as vm.builtin.make_prim_value; anything else as it is.
  Expr makeShape(const Expr& e) {
    if (const AttrValue* text = symbolicPrimValue(e)) return makePrimValue(e, *text);
    if (!isRelaxShapeExpr(e)) return e;
    const auto* call = as<CallNode>(e);
    const AttrValue& values = *call->attrs.find("values");
    if (!shape::attrHasSymbolic(values)) return e;
    std::vector<shape::Dim> dims = attrDims(values);
    std::vector<Expr> args{heap_, primValue(static_cast<int64_t>(dims.size()))};
    for (const shape::Dim& d : dims) {
      auto [code, value] = makeArg(d, *call, "R.shape");
      args.push_back(primValue(static_cast<int64_t>(code)));
      args.push_back(primValue(value));
    }
    Type out = shapeTypeOfRank(static_cast<int64_t>(dims.size()));
    Expr made = packedCall("vm.builtin.make_shape", std::move(args), out);
    madeTypes_[made.get()] = out;
    made_.push_back(made);
    return made;
  }

  /// A binding's value with its symbolic R.shape and R.prim_value operands made (and bound).
  Expr rewriteValue(const Expr& value) {
    if (isRelaxShapeExpr(value) || symbolicPrimValue(value)) return makeShape(value);
    const auto* call = as<CallNode>(value);
    if (!call) return value;
    std::vector<Expr> args = call->args;
    bool changed = false;
    for (Expr& a : args) {
      Expr made = makeShape(a);
      if (made != a) {
        a = operand(made);
        changed = true;
      }
    }
    if (!changed) return value;
    return makeCall(call->callee, std::move(args), call->attrs, call->span);
  }

  /// An operand (the match_cast's value, the result, a result tuple's
  /// fields): made and bound.
  Expr rewriteOperand(const Expr& e) {
    if (const auto* t = as<TupleNode>(e)) {
      std::vector<Expr> fields;
      bool changed = false;
      for (const Expr& f : t->fields) {
        fields.push_back(rewriteOperand(f));
        changed = changed || fields.back() != f;
      }
      return changed ? makeTuple(std::move(fields), t->span) : e;
    }
    Expr made = makeShape(e);
    return made == e ? e : operand(made);
  }

  std::string name_;
  Function fn_;
  bool emitErrCtx_;
  std::map<std::string, Expr>& newFuncs_;
  IRModule mod_;
  std::unordered_multimap<size_t, std::string>& byHash_;
  relax_bindings::NameSupply& names_;

  std::vector<tir::Var> scope_;
  std::map<std::string, std::unique_ptr<Slot>> slots_;
  std::vector<Slot*> order_;
  std::vector<Slot*> ready_;
  Expr heap_;
  FlatBinding where_;
  std::vector<FlatBinding> out_;
  std::unordered_map<const ExprNode*, Expr> boundOperands_;
  std::unordered_map<const ExprNode*, Type> madeTypes_;
  /// Keeps the nodes madeTypes_ and boundOperands_ key on alive.
  std::vector<Expr> made_;
};

/// What VMShapeLower is: its entry in the registry and in docs/passes.md.
const PassRegistration& vmShapeLowerDeclaration() {
  static const PassRegistration declaration = [] {
    PassRegistration r;
    r.info.name = "VMShapeLower";
    r.info.optLevel = 0;
    // TVM runs it last; its tests run it on modules as written (a nested function is refused by the pass).
    r.info.acceptedPhases = {Phase::Ingestion, Phase::Optimization, Phase::Lowering, Phase::Build};
    r.info.description =
        "TVM's VMShapeLower: a shape heap per Relax function, checks of parameters, match_casts and results against "
        "their types (vm.builtin.check_*_info), symbolic shapes matched into the heap (vm.builtin.match_shape), "
        "expressions over them computed by private host PrimFuncs shape_func, symbolic R.shape values built by "
        "vm.builtin.make_shape and symbolic R.prim_value values by vm.builtin.make_prim_value (R.Prim(value=n) "
        "parameters and casts are matched by vm.builtin.match_prim_value).";
    r.info.guarantees = "No symbolic R.shape or R.prim_value value remains in Relax functions outside skipped ones; every parameter is checked.";
    r.options = {{"emit_err_ctx", AttrValue::Kind::Bool, AttrValue::boolean(true),
                  "give each check TVM's ErrorContext(...) text (false: \"\", as TVM's tests run it)"}};
    r.create = [](const AttrDict& options) { return createVMShapeLowerPass(options.getBool("emit_err_ctx", true)); };
    return r;
  }();
  return declaration;
}

const PassRegistrar kVMShapeLowerRegistrar(vmShapeLowerDeclaration);

class VMShapeLowerPass final : public Pass {
 public:
  explicit VMShapeLowerPass(bool emitErrCtx) : emitErrCtx_(emitErrCtx) {}

  const PassInfo& info() const override { return vmShapeLowerDeclaration().info; }

  IRModule run(const IRModule& mod, PassContext& ctx) const override {
    std::map<std::string, Expr> newFuncs;
    std::unordered_multimap<size_t, std::string> byHash;
    relax_bindings::NameSupply names;
    IRModule out = opt_util::mapFunctions(mod, ctx, info().name, [&](const Function& f, const std::string& name) {
      opt_util::ensureTyped(f, mod);
      return FunctionLowerer(name, f, emitErrCtx_, newFuncs, mod, byHash, names).run();
    });
    for (const auto& [name, fn] : newFuncs) out = withFunction(out, name, fn);
    return out == mod ? mod : inferTypes(out);
  }

 private:
  bool emitErrCtx_;
};

}  // namespace

PassPtr createVMShapeLowerPass(bool emitErrorContext) { return std::make_shared<VMShapeLowerPass>(emitErrorContext); }

}  // namespace passlab
