// AnnotateTIROpPattern (see annotate_tir_op_pattern.h).
#include "passes/annotate_tir_op_pattern.h"

#include <algorithm>
#include <map>
#include <unordered_set>

#include "core/analysis/structural_equal.h"
#include "core/ir/tir_functor.h"
#include "core/pass/registry.h"

namespace passlab {

namespace {

namespace T = tir;

constexpr int kElemWise = static_cast<int>(FusionPattern::ElemWise);
constexpr int kBroadcast = static_cast<int>(FusionPattern::Broadcast);
constexpr int kInjective = static_cast<int>(FusionPattern::Injective);
constexpr int kCommReduce = static_cast<int>(FusionPattern::CommReduce);
constexpr int kOutEWiseFusable = static_cast<int>(FusionPattern::OutEWiseFusable);
constexpr int kOpaque = static_cast<int>(FusionPattern::Opaque);

bool isElemwise(const T::StoreNode& store, const T::LoadNode& load) {
  if (store.indices.size() != load.indices.size()) return false;
  for (size_t i = 0; i < store.indices.size(); ++i)
    if (!structuralEqual(store.indices[i], load.indices[i])) return false;
  return true;
}

bool isZero(const T::PrimExpr& e) {
  const auto* i = T::as<T::IntImmNode>(e);
  return i && i->value == 0;
}

/// The load's indices appear among the store's, in order (unit dimensions read at 0 skipped).
bool isBroadcast(const T::StoreNode& store, const T::LoadNode& load) {
  size_t j = 0;
  for (size_t i = 0; i < load.indices.size(); ++i) {
    if (load.buffer->shape[i] == 1 && isZero(load.indices[i])) continue;
    while (j < store.indices.size() && store.indices[j] != load.indices[i]) ++j;
    if (j == store.indices.size()) return false;
  }
  return true;
}

/// Collects the variables of an expression.
class VarCollector final : public T::StmtExprVisitor {
 public:
  std::unordered_set<const T::VarNode*> vars;
  using T::StmtExprVisitor::visit;
  void visit(const T::PrimExpr& e) override {
    if (!e) return;
    if (const auto* v = T::as<T::VarNode>(e)) vars.insert(v);
    visitChildren(e);
  }
};

/// The store's indices are variables and the load's indices use no others.
bool isInjective(const T::StoreNode& store, const T::LoadNode& load) {
  std::unordered_set<const T::VarNode*> storeVars;
  for (const T::PrimExpr& i : store.indices) {
    const auto* v = T::as<T::VarNode>(i);
    if (!v) return false;
    storeVars.insert(v);
  }
  VarCollector c;
  for (const T::PrimExpr& i : load.indices) c.visit(i);
  for (const T::VarNode* v : c.vars)
    if (!storeVars.count(v)) return false;
  return true;
}

/// `C[...] = C[...] + A[...] * B[...]`: a multiply-add update.
bool isFma(const T::StoreNode& store) {
  const auto* add = T::as<T::BinaryNode>(store.value);
  if (!add || add->op != T::BinaryOp::Add) return false;
  const auto* self = T::as<T::LoadNode>(add->a);
  const auto* product = T::as<T::BinaryNode>(add->b);
  return self && self->buffer == store.buffer && product && product->op == T::BinaryOp::Mul;
}

/// Every index is a reduction variable alone or mentions none.
bool isPureReduce(const std::unordered_set<const T::VarNode*>& reduceVars, const T::LoadNode& load) {
  for (const T::PrimExpr& i : load.indices) {
    if (const auto* v = T::as<T::VarNode>(i); v && reduceVars.count(v)) continue;
    VarCollector c;
    c.visit(i);
    for (const T::VarNode* v : c.vars)
      if (reduceVars.count(v)) return false;
  }
  return true;
}

class PatternAnalyzer final : public T::StmtExprVisitor {
 public:
  explicit PatternAnalyzer(const PrimFuncNode& fn) {
    for (const T::Param& p : fn.params)
      if (p.buffer) params_.insert(p.buffer.get());
  }
  int kind = kElemWise;
  bool sawBlock = false;

  using T::StmtExprVisitor::visit;
  void visit(const T::PrimExpr& e) override {
    if (!e) return;
    if (const auto* l = T::as<T::LoadNode>(e)) loads_.push_back(l);
    visitChildren(e);
  }
  void visit(const T::Stmt& s) override {
    if (!s) return;
    if (const auto* st = T::as<T::StoreNode>(s)) store_ = st;
    const auto* block = T::as<T::BlockNode>(s);
    if (!block) return visitChildren(s);
    if (block->name == "root" && block->iterVars.empty()) return visit(block->body);
    sawBlock = true;
    loads_.clear();
    store_ = nullptr;
    visit(block->body);
    if (!store_) {
      kind = kOpaque;
      return;
    }
    int pattern = kElemWise;
    bool hasElemwise = false;
    for (const T::LoadNode* load : loads_) {
      if (isElemwise(*store_, *load)) {
        hasElemwise = true;
      } else if (isBroadcast(*store_, *load)) {
        pattern = std::max(pattern, kBroadcast);
      } else if (isInjective(*store_, *load)) {
        pattern = std::max(pattern, kInjective);
      } else {
        pattern = kOpaque;
        break;
      }
    }
    if (pattern == kBroadcast && hasElemwise) pattern = kElemWise;
    if (pattern != kOpaque) {
      // A reduction then an injective block writing the output (softmax).
      bool output = params_.count(store_->buffer.get()) > 0;
      kind = output && kind == kCommReduce ? kOutEWiseFusable : std::max(kind, pattern);
      return;
    }
    std::unordered_set<const T::VarNode*> reduceVars;
    for (const T::BlockIterVar& iv : block->iterVars)
      if (iv.iterKind == T::IterKind::Reduce) reduceVars.insert(iv.var.get());
    if (reduceVars.empty()) {
      kind = kOpaque;
      return;
    }
    if (isFma(*store_)) {
      kind = std::max(kind, kOutEWiseFusable);
      return;
    }
    for (const T::LoadNode* load : loads_) {
      if (!isPureReduce(reduceVars, *load)) {
        kind = std::max(kind, kOutEWiseFusable);
        return;
      }
    }
    kind = std::max(kind, kCommReduce);
  }

 private:
  std::unordered_set<const T::BufferNode*> params_;
  std::vector<const T::LoadNode*> loads_;
  const T::StoreNode* store_ = nullptr;
};

/// What AnnotateTIROpPattern is: name, phases, options, config keys and docs (its entry in
/// the registry and in docs/passes.md).
const PassRegistration& annotateTirOpPatternDeclaration() {
  static const PassRegistration declaration = [] {
    PassRegistration r;
    r.info.name = "AnnotateTIROpPattern";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {Phase::Ingestion, Phase::Optimization, Phase::Lowering};
    r.info.description =
        "Sets op_pattern on every PrimFunc that has none: the fusion pattern its block-form body shows (TVM's "
        "AnalyzeOpPatternKind: elementwise, broadcast, injective, comm-reduce, out-ewise-fusable, opaque).";
    r.info.guarantees = "Every PrimFunc has an integer op_pattern attribute; nothing else changes.";
    r.create = [](const AttrDict&) { return createAnnotateTIROpPatternPass(); };
    return r;
  }();
  return declaration;
}

const PassRegistrar kAnnotateTirOpPatternRegistrar(annotateTirOpPatternDeclaration);

class AnnotateTIROpPatternPass final : public Pass {
 public:
  const PassInfo& info() const override { return annotateTirOpPatternDeclaration().info; }

  IRModule run(const IRModule& mod, PassContext&) const override {
    IRModule out = mod;
    for (const auto& [name, fn] : mod->functions) {
      const auto* prim = as<PrimFuncNode>(fn);
      if (!prim || prim->attrs.contains("op_pattern")) continue;
      // Keys in sorted order, as TVM's attribute map prints and compares them.
      std::map<std::string, AttrValue> sorted;
      for (const auto& [k, v] : prim->attrs.entries()) sorted.emplace(k, v);
      sorted.emplace("op_pattern", AttrValue::integer(static_cast<int64_t>(analyzeOpPattern(*prim))));
      AttrDict attrs;
      for (const auto& [k, v] : sorted) attrs.set(k, v);
      out = withFunction(out, name, makePrimFunc(prim->params, prim->body, std::move(attrs), prim->span));
    }
    return out;
  }
};

}  // namespace

FusionPattern analyzeOpPattern(const PrimFuncNode& fn) {
  PatternAnalyzer a(fn);
  a.visit(fn.body);
  if (!a.sawBlock) return FusionPattern::Opaque;
  return static_cast<FusionPattern>(a.kind);
}

PassPtr createAnnotateTIROpPatternPass() { return std::make_shared<AnnotateTIROpPatternPass>(); }

}  // namespace passlab
