// StaticPlanBlockMemory (see static_plan_block_memory.h). The three steps of
// TVM's pass: token initialization (which allocations can be planned, and how
// many uses each has), allocation (a pool of free storages per dtype and
// scope, walked in binding order) and the rewrite.
#include "passes/static_plan_block_memory.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <unordered_map>

#include "core/analysis/type_infer.h"
#include "core/ir/functor.h"
#include "core/ir/module.h"
#include "core/ir/shape_attr.h"
#include "core/pass/remark_rules.h"
#include "passes/opt_util.h"
#include "core/pass/registry.h"
#include "passes/relax_bindings.h"

namespace passlab {

namespace {

using relax_bindings::FlatBinding;
using relax_bindings::FlatBody;

/// A storage token (TVM's StorageToken).
struct Token {
  /// The size in bytes; -1 when it is symbolic (then `symBytes` holds it).
  int64_t bytes = 0;
  /// TVM's symbolic size: the constant part times the symbolic dims
  /// (`4 * (m * n)`); null for a static size.
  shape::Dim symBytes;
  DataType dtype;
  std::string scope;
  int refs = 0;
  int block = 0;
  /// Why it is not planned; empty while it is.
  std::string discarded;
  /// The variable of the allocation that made it (for remarks).
  std::string firstVar;
  /// The binding whose use released it last (for remarks).
  std::string freedAfter;
};

/// The tokens an expression holds: none, one, or a tuple of them.
struct Tokens {
  int leaf = -1;
  std::vector<Tokens> fields;
  bool nested = false;
  template <class F>
  void forEach(F&& f) const {
    if (leaf >= 0) f(leaf);
    for (const Tokens& t : fields) t.forEach(f);
  }
};

const OpDef* opOf(const Expr& e) {
  const auto* c = as<CallNode>(e);
  return c ? c->op() : nullptr;
}

bool isAllocTensor(const Expr& e) {
  const OpDef* op = opOf(e);
  return op && op->id == OpId::BuiltinAllocTensor;
}

/// Calls whose arguments TVM counts as uses: a PrimFunc of the module or a packed function.
bool countsUses(const CallNode& call, const IRModule& mod) {
  if (const OpDef* op = call.op()) return op->id == OpId::RelaxCallPacked;
  const auto* g = as<GlobalVarNode>(call.callee);
  return g && as<PrimFuncNode>(mod->lookup(g->name));
}

std::string calleeName(const CallNode& call) {
  if (const OpDef* op = call.op()) return std::string(op->name);
  if (const auto* g = as<GlobalVarNode>(call.callee)) return g->name;
  return "a local function";
}

/// A variable's range for planning: tir_var_lower_bound (0 when absent) up to
/// tir_var_upper_bound, as TVM binds it in the analyzer.
struct VarRange {
  int64_t lo = 0, hi = 0;
};
using RangeEnv = std::map<std::string, VarRange>;

/// The range of `d` when every variable lies in its range (interval
/// arithmetic, TVM's int_set): sums, differences, products, min/max and
/// division by a positive constant; nullopt for anything else, for an
/// unbounded variable, or on overflow.
std::optional<VarRange> rangeOf(const shape::Dim& d, const RangeEnv& env) {
  if (const auto* i = tir::as<tir::IntImmNode>(d)) return VarRange{i->value, i->value};
  if (const auto* v = tir::as<tir::VarNode>(d)) {
    auto it = env.find(v->name);
    return it == env.end() ? std::nullopt : std::optional<VarRange>(it->second);
  }
  const auto* b = tir::as<tir::BinaryNode>(d);
  if (!b) return std::nullopt;
  std::optional<VarRange> x = rangeOf(b->a, env), y = rangeOf(b->b, env);
  if (!x || !y) return std::nullopt;
  auto fits = [](__int128 lo, __int128 hi) -> std::optional<VarRange> {
    if (lo < INT64_MIN || hi > INT64_MAX) return std::nullopt;
    return VarRange{static_cast<int64_t>(lo), static_cast<int64_t>(hi)};
  };
  using W = __int128;
  switch (b->op) {
    case tir::BinaryOp::Add: return fits(W(x->lo) + y->lo, W(x->hi) + y->hi);
    case tir::BinaryOp::Sub: return fits(W(x->lo) - y->hi, W(x->hi) - y->lo);
    case tir::BinaryOp::Mul: {
      W c[] = {W(x->lo) * y->lo, W(x->lo) * y->hi, W(x->hi) * y->lo, W(x->hi) * y->hi};
      return fits(*std::min_element(c, c + 4), *std::max_element(c, c + 4));
    }
    case tir::BinaryOp::Min: return VarRange{std::min(x->lo, y->lo), std::min(x->hi, y->hi)};
    case tir::BinaryOp::Max: return VarRange{std::max(x->lo, y->lo), std::max(x->hi, y->hi)};
    case tir::BinaryOp::FloorDiv: {
      if (y->lo != y->hi || y->lo <= 0) return std::nullopt;
      auto fdiv = [&](int64_t a) { return a / y->lo - ((a % y->lo != 0 && a < 0) ? 1 : 0); };
      return VarRange{fdiv(x->lo), fdiv(x->hi)};
    }
    default: return std::nullopt;
  }
}

class Planner {
 public:
  /// `bounds`: the ranges of the variables the function's tir_var_upper_bound
  /// ({"n": 1024}) bounds, narrowed by its tir_var_lower_bound; TVM's way to
  /// plan symbolic allocations as static ones of their largest size.
  Planner(const IRModule& mod, PassContext& ctx, std::string pass, std::string function, RangeEnv bounds,
          relax_bindings::NameSupply& names)
      : mod_(mod), ctx_(ctx), pass_(std::move(pass)), function_(std::move(function)), bounds_(std::move(bounds)),
        names_(names) {}

  /// The rewritten body, or nullopt when nothing was planned.
  std::optional<FlatBody> run(const FlatBody& body) {
    initialize(body);
    if (protos_.empty()) return std::nullopt;
    allocate(body);
    if (storageOf_.empty()) return std::nullopt;
    return rewrite(body);
  }

 private:
  // ---- Step 1: tokens and their uses ------------------------------------------
  Tokens tokensOf(const Expr& e, const std::unordered_map<const ExprNode*, Tokens>& vars) const {
    if (as<VarNode>(e)) {
      auto it = vars.find(e.get());
      return it == vars.end() ? Tokens{} : it->second;
    }
    if (const auto* t = as<TupleNode>(e)) {
      Tokens out;
      out.nested = true;
      for (const Expr& f : t->fields) out.fields.push_back(tokensOf(f, vars));
      return out;
    }
    if (const auto* g = as<TupleGetItemNode>(e)) {
      Tokens t = tokensOf(g->tuple, vars);
      if (t.nested && g->index >= 0 && static_cast<size_t>(g->index) < t.fields.size()) return t.fields[g->index];
      return {};
    }
    return {};
  }

  void discard(const Tokens& t, const std::string& why) {
    t.forEach([&](int id) {
      if (protos_[id].discarded.empty()) protos_[id].discarded = why;
    });
  }

  void initialize(const FlatBody& body) {
    std::unordered_map<const ExprNode*, Tokens>& vars = initVars_;
    for (size_t i = 0; i < body.bindings.size(); ++i) {
      const FlatBinding& b = body.bindings[i];
      const Expr& v = b.value;
      if (isAllocTensor(v)) {
        const auto* tt = as<TensorTypeNode>(v->checkedType);
        if (!tt) continue;
        const auto* call = as<CallNode>(v);
        Token t;
        std::optional<int64_t> bounded = tt->hasSymbolicDim() ? upperBoundBytes(*tt) : std::nullopt;
        if (bounded) {
          t.bytes = *bounded;  // planned as a static token of the largest size (TVM's upper bound)
        } else if (tt->hasSymbolicDim()) {
          // TVM's token size: the static dims fold into the constant, the
          // symbolic ones multiply in order; `?` cannot be sized at all.
          int64_t coeff = tt->dtype.bytes();
          shape::Dim size;
          bool unknown = false;
          for (size_t d = 0; d < tt->shape.size(); ++d) {
            shape::Dim dim = tt->symbolicDim(d);
            if (dim) size = size ? tir::binary(tir::BinaryOp::Mul, size, dim) : dim;
            else if (tt->shape[d] == kDynamicDim) unknown = true;
            else coeff *= tt->shape[d];
          }
          if (unknown) continue;
          t.bytes = -1;
          t.symBytes = coeff == 1 ? size : tir::binary(tir::BinaryOp::Mul, shape::constant(coeff), size);
        } else if (tt->hasDynamicDim()) {
          continue;  // `?`: not planned
        } else {
          t.bytes = tt->numElements() * tt->dtype.bytes();
        }
        t.dtype = tt->dtype;
        t.scope = opt_util::callAttr(*call, "storage_scope").asString();
        t.block = b.block;
        t.firstVar = b.var->name;
        protoOf_[i] = static_cast<int>(protos_.size());
        protos_.push_back(std::move(t));
        vars[b.var.get()] = Tokens{protoOf_[i], {}, false};
        continue;
      }
      if (const auto* call = as<CallNode>(v)) {
        const OpDef* op = call->op();
        if (op && op->id == OpId::Reshape) {
          vars[b.var.get()] = tokensOf(call->args[0], vars);
        } else if (op && op->id == OpId::MatchCast) {
          // TVM's match_cast binding is no call: its variable holds no token.
        } else if (countsUses(*call, mod_)) {
          for (const Expr& a : call->args)
            tokensOf(a, vars).forEach([&](int id) {
              if (protos_[id].block != b.block) {
                if (protos_[id].discarded.empty()) protos_[id].discarded = "used in another block (by " + b.var->name + ")";
              } else {
                ++protos_[id].refs;
              }
            });
        } else {
          for (const Expr& a : call->args)
            discard(tokensOf(a, vars), "used by " + calleeName(*call) + " (in " + b.var->name + "), not a PrimFunc or packed call");
        }
        continue;
      }
      if (as<VarNode>(v) || as<TupleNode>(v) || as<TupleGetItemNode>(v)) {
        vars[b.var.get()] = tokensOf(v, vars);
        continue;
      }
      if (as<IfNode>(v) || as<FunctionNode>(v)) {
        std::string where = as<IfNode>(v) ? "used in an if (" + b.var->name + ")" : "used in a nested function";
        postOrderVisit(v, [&](const Expr& e) {
          if (as<VarNode>(e)) discard(tokensOf(e, vars), where);
        });
      }
    }
    discard(tokensOf(body.result, vars), "returned by the function");
  }

  /// The bytes of `t` with every symbolic dim at its largest value over the
  /// ranges of its variables; nullopt when a dim has no finite upper bound.
  std::optional<int64_t> upperBoundBytes(const TensorTypeNode& t) const {
    if (bounds_.empty()) return std::nullopt;
    int64_t bytes = t.dtype.bytes();
    for (size_t d = 0; d < t.shape.size(); ++d) {
      shape::Dim dim = shape::dimOf(t, d);
      if (!dim) return std::nullopt;
      std::optional<int64_t> v = shape::asConstant(dim);
      if (!v) {
        std::optional<VarRange> r = rangeOf(dim, bounds_);
        if (!r) return std::nullopt;
        v = r->hi;
      }
      if (!v || *v < 0 || (*v > 0 && bytes > INT64_MAX / *v)) return std::nullopt;
      bytes *= *v;
    }
    return bytes;
  }

  // ---- Step 2: allocation in binding order --------------------------------------
  using PoolKey = std::pair<std::string, int>;
  PoolKey keyOf(const Token& t) const { return {t.scope, static_cast<int>(t.dtype.code)}; }

  std::optional<int> requestReuse(const Token& proto) {
    if (proto.refs == 0) return std::nullopt;
    auto& pool = pool_[keyOf(proto)];
    int64_t size = proto.bytes;
    if (proto.symBytes) {
      // A symbolic size reuses only a free storage of the same size (TVM: a
      // provably equal one).
      auto [from, to] = pool.equal_range(-1);
      for (auto it = from; it != to; ++it)
        if (shape::equal(storages_[it->second].symBytes, proto.symBytes)) {
          int id = it->second;
          pool.erase(it);
          storages_[id].refs = proto.refs;
          return id;
        }
      return std::nullopt;
    }
    auto begin = pool.lower_bound(size / kMatchRange);
    auto mid = pool.lower_bound(size);
    auto end = pool.upper_bound(size * kMatchRange);
    if (mid != end) {
      int id = mid->second;
      pool.erase(mid);
      storages_[id].refs = proto.refs;
      return id;
    }
    if (mid != begin) {
      --mid;
      int id = mid->second;
      pool.erase(mid);
      storages_[id].bytes = size;
      storages_[id].refs = proto.refs;
      return id;
    }
    return std::nullopt;
  }

  /// Why a new storage was needed (a remark), when a storage existed to reuse.
  void explainNewStorage(const Token& proto, const Expr& node) {
    if (!ctx_.remarksEnabled() || storages_.empty()) return;
    auto bytes = [](int64_t n) { return n < 0 ? std::string("a symbolic size") : std::to_string(n) + " bytes"; };
    const auto& same = pool_[keyOf(proto)];
    if (!same.empty()) {
      std::string sizes;
      for (const auto& [size, id] : same) sizes += (sizes.empty() ? "" : ", ") + bytes(size);
      ctx_.remark(makeRemark(pass_, RemarkRule::MemPlanSizeDiffers, function_, {node},
                             "not reused: sizes differ (" + bytes(proto.bytes) + " needed; free " +
                                 std::string(proto.dtype.name()) + " storage of " + sizes + " is outside the 16x range)"));
      return;
    }
    std::string others;
    for (const auto& [key, pool] : pool_)
      for (const auto& [size, id] : pool)
        others += (others.empty() ? "" : ", ") + std::string(storages_[id].dtype.name()) +
                  (storages_[id].scope == proto.scope ? "" : " in " + storages_[id].scope) + " (" + bytes(size) + ")";
    if (!others.empty()) {
      ctx_.remark(makeRemark(pass_, RemarkRule::MemPlanDtypeDiffers, function_, {node},
                             "not reused: dtype differs (" + std::string(proto.dtype.name()) + " needed; free storage: " +
                                 others + ")"));
      return;
    }
    std::string live;
    for (const Token& s : storages_)
      if (s.refs > 0) live += (live.empty() ? "" : ", ") + s.firstVar + "'s storage";
    ctx_.remark(makeRemark(pass_, RemarkRule::MemPlanStillLive, function_, {node},
                           "not reused: still live (" + (live.empty() ? std::string("every storage") : live) +
                               " is used after this allocation)"));
  }

  void release(const Tokens& t, const std::string& at) {
    t.forEach([&](int id) {
      Token& s = storages_[id];
      if (s.refs <= 0) return;
      if (--s.refs == 0) {
        s.freedAfter = at;
        pool_[keyOf(s)].insert({s.bytes, id});
      }
    });
  }

  void allocate(const FlatBody& body) {
    std::unordered_map<const ExprNode*, Tokens> vars;
    for (size_t i = 0; i < body.bindings.size(); ++i) {
      const FlatBinding& b = body.bindings[i];
      const Expr& v = b.value;
      if (isAllocTensor(v)) {
        auto it = protoOf_.find(i);
        if (it == protoOf_.end()) continue;
        const Token& proto = protos_[it->second];
        if (!proto.discarded.empty()) {
          if (ctx_.remarksEnabled())
            ctx_.remark(makeRemark(pass_, RemarkRule::MemPlanNotPlanned, function_, {v},
                                   "not planned: " + b.var->name + " is " + proto.discarded));
          continue;
        }
        std::optional<int> reused = requestReuse(proto);
        int id;
        if (reused) {
          id = *reused;
          if (ctx_.remarksEnabled())
            ctx_.remark(makeRemark(pass_, RemarkRule::MemPlanReused, function_, {v},
                                   b.var->name + " reuses the storage of " + storages_[id].firstVar + " (free after " +
                                       storages_[id].freedAfter + ")"));
        } else {
          explainNewStorage(proto, v);
          id = static_cast<int>(storages_.size());
          storages_.push_back(proto);
        }
        storageOf_[i] = id;
        vars[b.var.get()] = Tokens{id, {}, false};
        continue;
      }
      if (const auto* call = as<CallNode>(v)) {
        const OpDef* op = call->op();
        if (op && op->id == OpId::Reshape) {
          vars[b.var.get()] = tokensOf(call->args[0], vars);
        } else if (!(op && op->id == OpId::MatchCast)) {
          for (const Expr& a : call->args) release(tokensOf(a, vars), b.var->name);
        }
        continue;
      }
      if (as<VarNode>(v) || as<TupleNode>(v) || as<TupleGetItemNode>(v)) vars[b.var.get()] = tokensOf(v, vars);
    }
  }

  // ---- Step 3: the rewrite ----------------------------------------------------------
  FlatBody rewrite(const FlatBody& body) {
    FlatBody out;
    out.result = body.result;
    std::unordered_map<int, Var> storageVar;
    for (size_t i = 0; i < body.bindings.size(); ++i) {
      const FlatBinding& b = body.bindings[i];
      auto it = storageOf_.find(i);
      if (it == storageOf_.end()) {
        out.bindings.push_back(b);
        continue;
      }
      const auto* call = as<CallNode>(b.value);
      const Token& s = storages_[it->second];
      const AttrValue& device = opt_util::callAttr(*call, "runtime_device_index");
      auto sv = storageVar.find(it->second);
      if (sv == storageVar.end()) {
        AttrDict attrs;
        attrs.set("size", s.symBytes ? shape::toAttrList({s.symBytes}) : AttrValue::ints({s.bytes}));
        attrs.set("virtual_device_index", device);
        attrs.set("storage_scope", AttrValue::string(s.scope));
        attrs.set("dtype", AttrValue::string(std::string(s.dtype.name())));
        FlatBinding st = relax_bindings::bindingLike(b, names_, "storage", objectType(),
                                                     makeOpCall(OpId::RelaxMemAllocStorage, {}, attrs, call->span));
        sv = storageVar.emplace(it->second, st.var).first;
        out.bindings.push_back(std::move(st));
      }
      AttrDict attrs;
      attrs.set("offset", AttrValue::integer(0));
      attrs.set("shape", opt_util::callAttr(*call, "shape"));
      attrs.set("dtype", opt_util::callAttr(*call, "dtype"));
      attrs.set("runtime_device_ind", device);
      FlatBinding rebound = b;
      rebound.value = makeOpCall(OpId::RelaxMemAllocTensor, {sv->second}, attrs, call->span);
      out.bindings.push_back(std::move(rebound));
    }
    return out;
  }

  static constexpr int64_t kMatchRange = 16;
  const IRModule& mod_;
  PassContext& ctx_;
  std::string pass_, function_;
  RangeEnv bounds_;
  relax_bindings::NameSupply& names_;
  std::vector<Token> protos_;
  std::unordered_map<size_t, int> protoOf_;
  std::unordered_map<const ExprNode*, Tokens> initVars_;
  std::vector<Token> storages_;
  std::unordered_map<size_t, int> storageOf_;
  std::map<PoolKey, std::multimap<int64_t, int>> pool_;
};

/// What StaticPlanBlockMemory is: its entry in the registry and in docs/passes.md.
const PassRegistration& staticPlanBlockMemoryDeclaration() {
  static const PassRegistration declaration = [] {
    PassRegistration r;
    r.info.name = "StaticPlanBlockMemory";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {Phase::Lowering};
    r.info.description =
        "TVM's static memory planning: R.builtin.alloc_tensor calls share storages (per dtype and scope; static sizes "
        "within 16x, symbolic ones only when equal, such as 4 * (m * n), or as static ones of their largest size under the "
        "function's tir_var_upper_bound, from its tir_var_lower_bound) once earlier tensors are past their last use; "
        "planned ones become R.memory.alloc_storage + R.memory.alloc_tensor. Remarks (memplan.*) say why an allocation did or did not reuse a storage.";
    r.info.guarantees = "Every planned allocation lives in a storage no live tensor uses; returned tensors are not planned.";
    r.create = [](const AttrDict&) { return createStaticPlanBlockMemoryPass(); };
        return r;
  }();
  return declaration;
}

const PassRegistrar kStaticPlanBlockMemoryRegistrar(staticPlanBlockMemoryDeclaration);

/// The ranges of the variables `f`'s tir_var_upper_bound bounds, each from its
/// tir_var_lower_bound (0 when absent). As in TVM, a lower bound alone gives
/// no size to plan with, so only bounded variables get a range.
RangeEnv boundsOf(const Function& f) {
  auto read = [&](const char* attr, bool positive) {
    std::map<std::string, int64_t> out;
    const AttrValue* b = f->attrs.find(attr);
    if (!b || b->kind() != AttrValue::Kind::Dict) return out;
    for (const auto& [var, v] : b->asDict().entries()) {
      if (v.kind() != AttrValue::Kind::Int || (positive && v.asInt() <= 0))
        throwError(f->span, std::string("StaticPlanBlockMemory: the ") + attr + " of " + var + " must be " +
                                (positive ? "a positive integer" : "an integer") + ", got " + v.toString(),
                   "memplan.bound");
      out[var] = v.asInt();
    }
    return out;
  };
  std::map<std::string, int64_t> upper = read("tir_var_upper_bound", true), lower = read("tir_var_lower_bound", false);
  RangeEnv env;
  for (const auto& [var, hi] : upper) {
    auto lo = lower.find(var);
    VarRange r{lo == lower.end() ? 0 : lo->second, hi};
    if (r.lo > r.hi)
      throwError(f->span, "StaticPlanBlockMemory: the tir_var_lower_bound of " + var + " (" + std::to_string(r.lo) +
                              ") exceeds its tir_var_upper_bound (" + std::to_string(r.hi) + ")", "memplan.bound");
    env[var] = r;
  }
  return env;
}

class StaticPlanBlockMemoryPass final : public Pass {
 public:
  const PassInfo& info() const override { return staticPlanBlockMemoryDeclaration().info; }

  IRModule run(const IRModule& mod, PassContext& ctx) const override {
    relax_bindings::NameSupply names;  // one per run, as TVM's BlockBuilder has
    IRModule out = opt_util::mapFunctions(mod, ctx, info().name, [&](const Function& f, const std::string& name) {
      opt_util::ensureTyped(f, mod);
      Planner planner(mod, ctx, info().name, name, boundsOf(f), names);
      std::optional<FlatBody> body = planner.run(relax_bindings::flatten(f->body));
      if (!body) return f;
      return makeFunction(f->params, relax_bindings::rebuild(*body), f->retType, f->attrs, f->span);
    });
    return out == mod ? mod : inferTypes(out);
  }
};

}  // namespace

PassPtr createStaticPlanBlockMemoryPass() { return std::make_shared<StaticPlanBlockMemoryPass>(); }

}  // namespace passlab
