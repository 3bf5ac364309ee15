// LegalizeOps: groups (one op call, or a fused Primitive function) become PrimFuncs;
// the per-op loop nests come from legalize_lower*.cpp.
#include "passes/legalize_ops.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <unordered_map>

#include "core/interp/kernel_util.h"
#include "core/ir/lowering_ops.h"
#include "core/analysis/type_infer.h"
#include "core/ir/functor.h"
#include "core/pass/registry.h"
#include "core/pass/remark_rules.h"
#include "passes/fuse_ops.h"
#include "passes/legalize_lower.h"
#include "passes/legalize_relax.h"
#include "passes/opt_util.h"

namespace passlab {

namespace {

namespace T = tir;
using legalize::Operand;
using legalize::Unsupported;

constexpr const char* kPass = "LegalizeOps";

/// "nn.conv2d" -> "nn_conv2d": the op's part of a PrimFunc name.
std::string symbolPart(std::string_view opName) {
  std::string s(opName);
  for (char& c : s)
    if (c == '.') c = '_';
  return s;
}

const TensorTypeNode& tensorTypeOrThrow(const Expr& e, const std::string& what) {
  const TensorTypeNode* t = opt_util::tensorTypeOf(e);
  if (!t) throw Unsupported("LegalizeOps: " + what + " has no static tensor type");
  for (int64_t d : t->shape)
    if (d < 0)
      throw Unsupported("LegalizeOps: " + what + " has a dynamic shape" +
                        (t->hasSymbolicDim() ? std::string(" (shape variables lower once bound: BindSymbolicVars before "
                                                           "LegalizeOps, or `run --host --bind NAME=N`)")
                                             : std::string()));
  return *t;
}

/// Turns one group (a single op call or a fused function body) into a PrimFunc.
/// `leaves` maps the nodes that are inputs of the group to the graph-level
/// expressions passed for them at the call.
class GroupLowering {
 public:
  GroupLowering(bool linkParams, bool host, legalize::VectorIsa isa, bool explain = false)
      : linkParams_(linkParams), host_(host), explain_(explain), isa_(std::move(isa)) {}

  /// What each op of the group became, for the `legalize.*` remarks (only
  /// when explaining): the op's node, the rule, and the message without the kernel.
  struct OpNote {
    Expr node;
    RemarkRule rule;
    std::string text;
  };
  /// In evaluation order (a convolution's note is made when its epilogue ends).
  std::vector<OpNote>& notes() {
    std::stable_sort(notes_.begin(), notes_.end(),
                     [&](const OpNote& a, const OpNote& b) { return position_[a.node.get()] < position_[b.node.get()]; });
    return notes_;
  }

  /// Lowers `body`; returns the PrimFunc (without attributes).
  PrimFunc lower(const Expr& body, const std::unordered_map<const ExprNode*, Expr>& leaves) {
    leaves_ = &leaves;
    root_ = body.get();
    tupleResult_ = as<TupleTypeNode>(body->checkedType) != nullptr;
    indexUses(body);
    for (const Expr& e : postOrder_) visit(e);
    std::vector<T::Stmt> all = stmts_;
    std::vector<T::Stmt> copies = bindOutputs(body);
    all.insert(all.end(), copies.begin(), copies.end());
    T::Stmt s = all.size() == 1 ? all[0] : T::seq(all);
    for (size_t i = scratch_.size(); i-- > 0;) s = T::allocate(scratch_[i], s);
    for (size_t i = consts_.size(); i-- > 0;) s = T::allocateConst(consts_[i].first, consts_[i].second, s);
    return makePrimFunc(params_, s);
  }

  /// The group's nodes in post-order (inputs and inner functions not entered),
  /// who reads each value, and which values need a buffer: an elementwise
  /// result with a single elementwise user is computed inline in that user's
  /// loop instead of in a buffer of its own.
  void indexUses(const Expr& body) {
    auto enter = [&](const Expr& e) { return !leaves_->count(e.get()) && e->kind != ExprKind::Function; };
    postOrderVisit(body, [&](const Expr& e) {
      const auto* call = as<CallNode>(e);
      bool elementwise = call && call->op() && legalize::loweringFamily(call->op()->id) == legalize::LoweringFamily::Elementwise &&
                         legalize::readsOperandsOnce(call->op()->id);
      // A split at the root copies each input element once, so its input can be computed inline;
      // inside the group its pieces are views that consumers may read more than once.
      if (call && call->op() && call->op()->id == OpId::Split && e.get() == body.get()) elementwise = true;
      std::vector<Expr> used;
      if (call) used = call->args;
      else if (const auto* tuple = as<TupleNode>(e)) used = tuple->fields;
      for (const Expr& u : used) {
        readers_[u.get()].push_back(e.get());
        if (!elementwise) materialized_.insert(u.get());
      }
      position_[e.get()] = postOrder_.size();
      postOrder_.push_back(e);
    }, enter);
  }

  /// The output parameters (after the inputs): the root's own buffer, a lone
  /// split's pieces, or a buffer per result; returns the copies into them of
  /// results that are inputs, constants or one of several results.
  std::vector<T::Stmt> bindOutputs(const Expr& body) {
    std::vector<Expr> outs;
    if (const auto* tuple = as<TupleNode>(body)) outs = tuple->fields;
    else outs = {body};
    std::vector<T::Stmt> copies;
    if (!rootPieces_.empty()) {
      // A lone split writes its pieces straight into the output parameters.
      const auto& fields = static_cast<const TupleTypeNode&>(*body->checkedType).fields;
      for (size_t k = 0; k < rootPieces_.size(); ++k) {
        params_.push_back({T::makeVar(rootPieces_[k]->name, rootPieces_[k]->dtype), rootPieces_[k]});
        outTypes_.push_back(static_cast<const TensorTypeNode*>(fields[k].get()));
      }
      outs.clear();
    }
    for (size_t k = 0; k < outs.size(); ++k) {
      const TensorTypeNode& t = tensorTypeOrThrow(outs[k], "an output");
      bool direct = directOutputs_.count(outs[k].get()) && outs.size() == 1;
      T::Buffer out = direct ? directOutputs_[outs[k].get()] : T::makeBuffer(outName(k, outs.size()), t.dtype, t.shape);
      if (!direct) {
        // The output is an input, a constant or one of several results: copy it.
        const Operand& from = single(outs[k]);
        copies.push_back(legalize::loopNest(t.shape, "ax", [&](const std::vector<T::PrimExpr>& idx) {
          return T::store(out, idx, legalize::read(from, idx));
        }));
      }
      params_.push_back({T::makeVar(out->name, out->dtype), out});
      outTypes_.push_back(&t);
    }
    return copies;
  }

  /// The graph-level arguments of the call_tir, one per input buffer parameter.
  const std::vector<Expr>& callArgs() const { return callArgs_; }
  /// The output types, in parameter order.
  const std::vector<const TensorTypeNode*>& outTypes() const { return outTypes_; }
  /// "nn.conv2d 1x16x56x56, 32x16x1x1 -> 1x32x56x56": an op with its operand and result shapes.
  static std::string opWithShapes(const OpDef& op, const std::vector<Operand>& args, const std::vector<int64_t>& out) {
    std::string text(op.name);
    for (size_t i = 0; i < args.size(); ++i) {
      text += i ? ", " : " ";
      text += args[i].buffer || args[i].lazy ? legalize::shapeText(args[i].shape) : "scalar";
    }
    return text + " → " + legalize::shapeText(out);
  }

  /// The op names of the group in evaluation order.
  const std::vector<std::string>& opNames() const { return opNames_; }
  /// Whether the group's result is a tuple (call_tir then lists every output
  /// shape, even a single one, so graph-level projections of it stay valid).
  bool tupleResult() const { return tupleResult_; }

 private:
  static std::string outName(size_t k, size_t n) { return n == 1 ? "T_out" : "T_out" + std::to_string(k); }

  /// The elementwise op that finishes the chain of single-use elementwise ops
  /// of `producer`'s shape after it (where the epilogue is stored), or null
  /// when the producer's result is needed elsewhere.
  const ExprNode* epilogueEnd(const ExprNode* producer, const std::vector<int64_t>& shape) {
    const ExprNode* cur = producer;
    while (true) {
      // The producer's own value is let-bound, so a user reading it twice (leaky_relu) is fine.
      if (cur == root_ || users(cur) != 1 || (cur != producer && materialized_.count(cur))) return nullptr;
      const ExprNode* next = readers_[cur].front();
      const auto* call = as<CallNode>(next);
      const TensorTypeNode* t = call ? as<TensorTypeNode>(call->checkedType) : nullptr;
      if (!call || !legalize::computedInline(*call) || !t || t->shape != shape)
        return nullptr;
      if (next == root_ || materialized_.count(next)) return next;
      if (users(next) != 1) {
        // Read several times (hard-swish reads x in x * clip(x / 6 + 1 / 2)):
        // the epilogue can still finish the element when the readers close
        // into one elementwise value; the region is computed inline.
        const ExprNode* sink = closeElementwiseRegion(next, shape);
        if (!sink) return next;
        if (sink == root_ || users(sink) != 1 || materialized_.count(sink)) return sink;
        next = sink;
      }
      cur = next;
    }
  }

  /// The elementwise value in which every reader of `start` (and of their
  /// readers) ends: the first node after `start`, in evaluation order, such
  /// that the nodes read from `start` on are all same-shape elementwise ops
  /// computed inline whose readers are inside the region. Null when a reader
  /// is anything else or the region grows past a few ops. The region's nodes
  /// are then computed inline even when read twice (an elementwise op
  /// recomputed: cheaper than a buffer round trip).
  const ExprNode* closeElementwiseRegion(const ExprNode* start, const std::vector<int64_t>& shape) {
    constexpr size_t kMaxRegion = 8;
    std::vector<const ExprNode*> region{start};
    std::set<const ExprNode*> inRegion{start};
    for (size_t i = position_[start] + 1; i < postOrder_.size() && region.size() <= kMaxRegion; ++i) {
      const ExprNode* n = postOrder_[i].get();
      const auto* call = as<CallNode>(postOrder_[i]);
      if (!call) continue;
      bool readsRegion = false;
      for (const Expr& a : call->args) readsRegion = readsRegion || inRegion.count(a.get());
      if (!readsRegion) continue;
      const TensorTypeNode* t = as<TensorTypeNode>(call->checkedType);
      if (!legalize::computedInline(*call) || !t || t->shape != shape || materialized_.count(n)) return nullptr;
      region.push_back(n);
      inRegion.insert(n);
      bool closed = true;
      for (const ExprNode* r : region)
        if (r != n)
          for (const ExprNode* reader : readers_[r]) closed = closed && inRegion.count(reader);
      if (closed) {
        for (const ExprNode* r : region)
          if (r != n) recomputed_.insert(r);
        return n;
      }
    }
    return nullptr;
  }

  /// dense on the host whose weight is a constant [N, K] used only here, with
  /// several rows of data: the constant is passed transposed, [K, N] (computed
  /// once, here), so the kernel accumulates whole rows of N in registers
  /// instead of one dot product per output (TVM's dense_pack packs its weight
  /// the same way). A single row keeps [N, K]: each output reads one
  /// contiguous weight row, which is as good.
  bool transposeConstantWeight(const CallNode& call) {
    if (call.args.size() != 2) return false;
    const Expr& w = call.args[1];
    const TensorTypeNode* data = as<TensorTypeNode>(call.args[0]->checkedType);
    if (!data || data->shape.empty() || users(w.get()) != 1) return false;
    int64_t rows = 1;
    for (size_t d = 0; d + 1 < data->shape.size(); ++d) rows *= data->shape[d];
    if (rows < 4) return false;
    auto leaf = leaves_->find(w.get());
    const auto* constant = as<ConstantNode>(leaf != leaves_->end() ? leaf->second : w);
    auto found = operands_.find(w.get());
    if (!constant || constant->data.ndim() != 2 || found == operands_.end() || found->second.size() != 1 || !found->second[0].buffer)
      return false;
    NDArray to = kernels::transposeArray(constant->data, {1, 0});
    Operand& operand = found->second[0];
    T::Buffer old = operand.buffer, transposed = T::makeBuffer(old->name, old->dtype, to.shape());
    bool replaced = false;
    for (size_t i = 0; i < params_.size() && i < callArgs_.size(); ++i)
      if (params_[i].buffer == old) {
        params_[i] = {T::makeVar(transposed->name, transposed->dtype), transposed};
        callArgs_[i] = makeConstant(to, constant->span);
        replaced = true;
      }
    for (auto& [buffer, data] : consts_)
      if (buffer == old) buffer = transposed, data = to, replaced = true;
    if (!replaced) return false;
    operand = bufferOperand(transposed);
    return true;
  }

  /// How many times the group reads `e` (an op reading it twice counts twice).
  size_t users(const ExprNode* e) const {
    auto it = readers_.find(e);
    return it == readers_.end() ? 0 : it->second.size();
  }

  const Operand& single(const Expr& e) {
    auto it = operands_.find(e.get());
    if (it == operands_.end() || it->second.size() != 1) throw Unsupported("LegalizeOps: a group output is not a tensor");
    return it->second[0];
  }

  Operand bufferOperand(const T::Buffer& b) { return Operand{b, nullptr, b->shape, b->dtype, {}}; }

  /// The operands of `e`, once its inputs have theirs (called in post-order).
  void visit(const Expr& e) {
    if (operands_.count(e.get())) return;
    if (auto leaf = leaves_->find(e.get()); leaf != leaves_->end()) return lowerInput(e, leaf->second);
    switch (e->kind) {
      case ExprKind::Constant: return lowerConstant(e);
      case ExprKind::Tuple: {
        std::vector<Operand> fields;
        for (const Expr& f : static_cast<const TupleNode&>(*e).fields) {
          const std::vector<Operand>& ops = operands_.at(f.get());
          fields.insert(fields.end(), ops.begin(), ops.end());
        }
        operands_[e.get()] = fields;
        return;
      }
      case ExprKind::Op: return;
      case ExprKind::Call: return lowerCall(e, static_cast<const CallNode&>(*e));
      case ExprKind::Let: throw Unsupported("LegalizeOps: a fused function with a let binding has no lowering");
      case ExprKind::TupleGetItem: {
        // A projection of a split (or of a tuple of tensors): one piece's operand.
        const auto& item = static_cast<const TupleGetItemNode&>(*e);
        const auto* tupleType = as<TupleTypeNode>(item.tuple->checkedType);
        const std::vector<Operand>& whole = operands_.at(item.tuple.get());
        if (!tupleType || whole.size() != tupleType->fields.size() || item.index < 0 || static_cast<size_t>(item.index) >= whole.size())
          throw Unsupported("LegalizeOps: a fused function projects a tuple that is not a tuple of tensors");
        operands_[e.get()] = {whole[static_cast<size_t>(item.index)]};
        return;
      }
      case ExprKind::Var: throw Unsupported("LegalizeOps: a fused function uses a variable bound outside it");
      default: throw Unsupported("LegalizeOps: a fused function holds a node LegalizeOps cannot lower");
    }
  }

  /// An input of the group: a buffer parameter passed `arg` at the call (one
  /// per field for a tuple).
  void lowerInput(const Expr& e, const Expr& arg) {
    if (const auto* tuple = as<TupleTypeNode>(e->checkedType)) {
      // A tuple input (a lifted group's parameter holding a split's pieces):
      // one buffer per field, each passed as a projection of the argument.
      std::vector<Operand> fields;
      for (size_t k = 0; k < tuple->fields.size(); ++k) {
        const auto* t = as<TensorTypeNode>(tuple->fields[k]);
        if (!t) throw Unsupported("LegalizeOps: an input is a tuple holding something other than tensors");
        fields.push_back(inputBuffer(t->dtype, t->shape, makeTupleGetItem(arg, static_cast<int>(k))));
      }
      operands_[e.get()] = fields;
      return;
    }
    const TensorTypeNode& t = tensorTypeOrThrow(e, "an input");
    operands_[e.get()] = {inputBuffer(t.dtype, t.shape, arg)};
  }

  /// A new buffer parameter `pN`, passed `arg` at the call.
  Operand inputBuffer(DataType dtype, const std::vector<int64_t>& shape, const Expr& arg) {
    T::Buffer b = T::makeBuffer("p" + std::to_string(callArgs_.size()), dtype, shape);
    params_.push_back({T::makeVar(b->name, b->dtype), b});
    callArgs_.push_back(arg);
    return bufferOperand(b);
  }

  /// A scalar constant is an immediate; a tensor is linked in (link-params) or a parameter.
  void lowerConstant(const Expr& e) {
    const NDArray& data = static_cast<const ConstantNode&>(*e).data;
    if (data.ndim() == 0) {
      DataType d = data.dtype();
      T::PrimExpr imm = d.isFloat() ? T::floatImm(d, data.getAsDouble(0)) : T::intImm(d, data.getAsInt(0));
      operands_[e.get()] = {Operand{nullptr, imm, {}, d, {}}};
    } else if (linkParams_) {
      T::Buffer b = T::makeBuffer("c" + std::to_string(consts_.size()), data.dtype(), data.shape());
      consts_.emplace_back(b, data);
      operands_[e.get()] = {bufferOperand(b)};
    } else {
      operands_[e.get()] = {inputBuffer(data.dtype(), data.shape(), e)};
    }
  }

  /// An op call: folded into its producer's epilogue, computed inline by its
  /// readers, or stored into a buffer of its own (the output at the root).
  void lowerCall(const Expr& e, const CallNode& call) {
    const OpDef* op = call.op();
    if (!op) throw Unsupported("LegalizeOps: a fused function calls something other than an op");
    if (isLoweringBuiltin(op->id)) throw Unsupported("LegalizeOps: op '" + std::string(op->name) + "' inside a fused function");
    opNames_.push_back(symbolPart(op->name));
    if (op->id == OpId::Split) return lowerSplit(e, call, *op);
    const TensorTypeNode* t = opt_util::tensorTypeOf(e);
    if (!t && as<TupleTypeNode>(e->checkedType))
      throw Unsupported("LegalizeOps: op '" + std::string(op->name) +
                        "' returns a tuple, which the Relay form lowers only once SimplifyInference has unpacked it "
                        "(relay.default runs it first); a Relax module (TVMScript) lowers it directly");
    if (!t) throw Unsupported("LegalizeOps: op '" + std::string(op->name) + "' has an unknown result type");
    (void)tensorTypeOrThrow(e, "the result of op '" + std::string(op->name) + "'");
    bool weightTransposed = op->id == OpId::Dense && host_ && transposeConstantWeight(call);
    std::vector<Operand> args;
    for (const Expr& a : call.args) {
      const std::vector<Operand>& ops = operands_.at(a.get());
      args.insert(args.end(), ops.begin(), ops.end());
    }
    if (deferToEpilogue(e, call, *op, *t, args, weightTransposed)) return;
    bool inlineIt = e.get() != root_ && (users(e.get()) == 1 || recomputed_.count(e.get())) && !materialized_.count(e.get()) &&
                    legalize::computedInline(call);
    if (inlineIt) {
      if (explain_) {
        const auto& readers = readers_[e.get()];
        const ExprNode* r = readers.empty() ? nullptr : readers.front();
        const auto* readerCall = r && r->kind == ExprKind::Call ? static_cast<const CallNode*>(r) : nullptr;
        std::string reader = readerCall && readerCall->op() ? std::string(readerCall->op()->name) : "its reader";
        notes_.push_back({e, RemarkRule::LegalizeInline,
                          opWithShapes(*op, args, t->shape) + ": computed where " + reader +
                              " reads it (elementwise, read once): no loop nest or buffer of its own"});
      }
      // Nothing is stored: readers evaluate the op where they need it.
      T::Buffer out = T::makeBuffer("T_" + symbolPart(op->name), t->dtype, t->shape);
      auto lowering = std::make_shared<legalize::OpLowering>(legalize::OpLowering{call, *op, std::move(args), out, host_, {}, false, isa_});
      Operand lazy{nullptr, nullptr, t->shape, t->dtype,
                   [lowering](const std::vector<T::PrimExpr>& idx) { return legalize::elementwiseValue(*lowering, idx); }};
      operands_[e.get()] = {lazy};
      return;
    }
    lowerStored(e, call, *op, *t, std::move(args), weightTransposed);
  }

  /// A convolution or matmul followed by elementwise ops (up to epilogueEnd):
  /// lowered when the last of them is, with them as its epilogue. False when
  /// `e` is not one.
  bool deferToEpilogue(const Expr& e, const CallNode& call, const OpDef& op, const TensorTypeNode& t, std::vector<Operand>& args,
                       bool weightTransposed) {
    legalize::LoweringFamily family = legalize::loweringFamily(op.id);
    if (family != legalize::LoweringFamily::Conv2D && family != legalize::LoweringFamily::Conv2DTranspose &&
        family != legalize::LoweringFamily::Matmul)
      return false;
    const ExprNode* end = epilogueEnd(e.get(), t.shape);
    if (!end) return false;
    // The elementwise ops after it run on each finished element: readers
    // of its result see the let-bound value of the element being finished.
    // A lowering may finish elements in several loop nests (conv2d_transpose
    // has one per stride phase); each binds a variable of its own, which
    // the readers see through `value` while that nest's epilogue is built.
    auto value = std::make_shared<T::Var>(T::makeVar(symbolPart(op.name.substr(op.name.rfind('.') + 1)) + "_value", t.dtype));
    T::Buffer unused = T::makeBuffer("T_" + symbolPart(op.name), t.dtype, t.shape);
    pending_[end] = {std::make_shared<legalize::OpLowering>(legalize::OpLowering{call, op, std::move(args), unused, host_, {}, weightTransposed, isa_}),
                     value, e};
    Operand lazy{nullptr, nullptr, t.shape, t.dtype, [value](const std::vector<T::PrimExpr>&) -> T::PrimExpr { return *value; }};
    operands_[e.get()] = {lazy};
    return true;
  }

  /// The op's loop nest storing into the output (at the root) or a scratch
  /// buffer; the epilogue of a pending producer, when `e` ends one.
  void lowerStored(const Expr& e, const CallNode& call, const OpDef& op, const TensorTypeNode& t, std::vector<Operand> args,
                   bool weightTransposed) {
    T::Buffer out;
    if (e.get() == root_) {
      out = T::makeBuffer("T_out", t.dtype, t.shape);
      directOutputs_[e.get()] = out;
    } else {
      out = T::makeBuffer("T_" + symbolPart(op.name.substr(op.name.rfind('.') + 1)), t.dtype, t.shape);
      scratch_.push_back(out);
    }
    legalize::OpLowering l{call, op, std::move(args), out, host_, {}, weightTransposed, isa_};
    legalize::ScheduleChoice choice;
    if (explain_) l.choice = &choice;
    if (auto p = pending_.find(e.get()); p != pending_.end()) {
      legalize::OpLowering producer = *p->second.lowering;
      producer.choice = l.choice;
      std::shared_ptr<T::Var> value = p->second.value;
      producer.epilogue = [&l, value](const std::vector<T::PrimExpr>& idx, T::PrimExpr v) {
        // A fresh variable per nest: no variable is bound twice.
        T::Var var = *value = T::makeVar((*value)->name, (*value)->dtype);
        return T::letStmt(var, std::move(v), T::store(l.out, idx, legalize::elementwiseValue(l, idx)));
      };
      stmts_.push_back(legalize::lowerOpCall(producer));
      if (explain_) {
        noteSchedule(p->second.node, producer, choice,
                     "; epilogue: the elementwise ops up to " + std::string(op.name) + " applied to each output in registers before its store");
        notes_.push_back({e, RemarkRule::LegalizeInline,
                          opWithShapes(op, l.args, t.shape) + ": stored by " + std::string(producer.op.name) +
                              "'s loop nest as the last op of its epilogue: no loop nest or buffer of its own"});
      }
    } else {
      stmts_.push_back(legalize::lowerOpCall(l));
      if (explain_) noteSchedule(e, l, choice, "");
    }
    operands_[e.get()] = {bufferOperand(out)};
  }

  /// The note of an op that got a loop nest: its schedule and the vector unit it is shaped for.
  void noteSchedule(const Expr& node, const legalize::OpLowering& l, const legalize::ScheduleChoice& choice, const std::string& extra) {
    if (!choice.set) return;
    notes_.push_back({node, choice.rule,
                      opWithShapes(l.op, l.args, l.out->shape) + ": " + choice.what + extra + "; vector unit " + isa_.describe() +
                          ". Why: " + choice.why});
  }

  /// split: as the group's root it writes one output parameter per piece;
  /// inside a group each piece is a view of the input read in place (the
  /// input is materialized, since split is no elementwise user), so no piece is copied.
  void lowerSplit(const Expr& e, const CallNode& call, const OpDef& op) {
    const auto* tupleType = as<TupleTypeNode>(call.checkedType);
    if (!tupleType || tupleType->fields.empty()) throw Unsupported("LegalizeOps: op 'split' has no tuple result type");
    std::vector<Operand> args;
    for (const Expr& a : call.args) {
      const std::vector<Operand>& ops = operands_.at(a.get());
      args.insert(args.end(), ops.begin(), ops.end());
    }
    if (args.size() != 1) throw Unsupported("LegalizeOps: op 'split' takes one tensor");
    legalize::OpLowering l{call, op, args, nullptr, host_, {}, false, isa_};
    size_t rank = args[0].shape.size();
    int64_t axis = legalize::attr(l, "axis").asInt();
    if (axis < 0) axis += static_cast<int64_t>(rank);
    if (axis < 0 || axis >= static_cast<int64_t>(rank)) throw Unsupported("LegalizeOps: split axis out of range");
    std::vector<T::Buffer> pieces;
    std::vector<Operand> results;
    int64_t offset = 0;
    for (size_t k = 0; k < tupleType->fields.size(); ++k) {
      const auto* t = as<TensorTypeNode>(tupleType->fields[k]);
      if (!t || t->shape.size() != rank) throw Unsupported("LegalizeOps: a piece of split is not a tensor of the input's rank");
      for (int64_t d : t->shape)
        if (d < 0) throw Unsupported("LegalizeOps: the result of op 'split' has a dynamic shape");
      pieces.push_back(T::makeBuffer(outName(k, tupleType->fields.size()), t->dtype, t->shape));
      Operand in = args[0];
      size_t a = static_cast<size_t>(axis);
      results.push_back(Operand{nullptr, nullptr, t->shape, t->dtype, [in, a, offset](const std::vector<T::PrimExpr>& idx) {
                                  std::vector<T::PrimExpr> src = idx;
                                  if (const auto* c = T::as<T::IntImmNode>(idx[a]); c && offset) src[a] = legalize::i32(c->value + offset);
                                  else if (offset) src[a] = legalize::bin(T::BinaryOp::Add, idx[a], legalize::i32(offset));
                                  return legalize::read(in, src);
                                }});
      offset += t->shape[static_cast<size_t>(axis)];
    }
    if (e.get() == root_) {
      l.out = pieces[0];
      legalize::ScheduleChoice choice;
      if (explain_) l.choice = &choice;
      stmts_.push_back(legalize::lowerSplit(l, pieces));
      if (explain_) {
        legalize::describeLoopNest(l, stmts_.back());
        noteSchedule(e, l, choice, "");
      }
      rootPieces_ = pieces;
    } else if (explain_) {
      notes_.push_back({e, RemarkRule::LegalizeInline,
                        std::string(op.name) + " " + legalize::shapeText(args[0].shape) +
                            ": its pieces are views its readers read in place: no loop nest or buffer of its own"});
    }
    operands_[e.get()] = std::move(results);
  }

  bool linkParams_;
  bool host_;
  bool explain_;
  legalize::VectorIsa isa_;
  std::vector<OpNote> notes_;
  bool tupleResult_ = false;
  /// The pieces of a split that is the group's root: the group's outputs.
  std::vector<T::Buffer> rootPieces_;
  const std::unordered_map<const ExprNode*, Expr>* leaves_ = nullptr;
  const ExprNode* root_ = nullptr;
  std::unordered_map<const ExprNode*, std::vector<Operand>> operands_;
  std::unordered_map<const ExprNode*, T::Buffer> directOutputs_;
  /// Every reader of each value (a value read twice by one op appears twice).
  std::unordered_map<const ExprNode*, std::vector<const ExprNode*>> readers_;
  /// The group's nodes in evaluation order, and each node's position.
  std::vector<Expr> postOrder_;
  std::unordered_map<const ExprNode*, size_t> position_;
  /// Elementwise nodes inside an epilogue region: computed inline although read more than once.
  std::set<const ExprNode*> recomputed_;
  /// A conv2d/matmul waiting for the end of its epilogue chain, and the variable its element is bound to.
  struct Pending {
    std::shared_ptr<legalize::OpLowering> lowering;
    /// The variable of the element being finished (replaced for each nest that finishes elements).
    std::shared_ptr<T::Var> value;
    /// The conv2d/matmul call itself (for its remark).
    Expr node;
  };
  std::unordered_map<const ExprNode*, Pending> pending_;
  std::set<const ExprNode*> materialized_;
  std::vector<T::Param> params_;
  std::vector<Expr> callArgs_;
  std::vector<const TensorTypeNode*> outTypes_;
  std::vector<std::string> opNames_;
  std::vector<T::Stmt> stmts_;
  std::vector<T::Buffer> scratch_;
  std::vector<std::pair<T::Buffer, NDArray>> consts_;
};

/// Rewrites one graph-level function's body; collects the PrimFuncs and the
/// diagnostics of calls it could not lower.
class Legalizer : public ExprMutator {
 public:
  /// `remarks`: the context to explain each kernel's schedule to (null: remarks off).
  Legalizer(const IRModule& mod, std::map<std::string, Expr>& newFuncs, std::vector<Diagnostic>& diags, bool linkParams, bool host,
            legalize::VectorIsa isa, bool callLowered, PassContext* remarks)
      : mod_(mod), newFuncs_(newFuncs), diags_(diags), linkParams_(linkParams), host_(host), isa_(std::move(isa)), callLowered_(callLowered),
        remarks_(remarks) {}

  void setFunction(const std::string& name) { function_ = name; }

 protected:
  std::optional<Expr> preVisit(const Expr& e) override {
    // Function literals (fused groups, external functions) are lowered whole at their call, or kept.
    if (e->kind == ExprKind::Function) return e;
    return std::nullopt;
  }

  Expr rewrite(const Expr& original, const Expr& rebuilt) override {
    const auto* call = as<CallNode>(rebuilt);
    if (!call) return rebuilt;
    const auto* orig = static_cast<const CallNode*>(original.get());
    if (const OpDef* op = call->op()) {
      if (op->id == OpId::OnDevice) return call->args[0];
      if (isLoweringBuiltin(op->id)) return rebuilt;
      std::unordered_map<const ExprNode*, Expr> leaves;
      for (size_t i = 0; i < orig->args.size(); ++i) {
        const Expr& a = orig->args[i];
        if (const auto* tuple = as<TupleNode>(a); tuple && as<TupleNode>(call->args[i])) {
          const auto& newFields = static_cast<const TupleNode&>(*call->args[i]).fields;
          for (size_t k = 0; k < tuple->fields.size(); ++k)
            if (tuple->fields[k]->kind != ExprKind::Constant) leaves[tuple->fields[k].get()] = newFields[k];
        } else if (a->kind != ExprKind::Constant) {
          leaves[a.get()] = call->args[i];
        }
      }
      return lowerGroup(original, original, leaves, orig->span, function_);
    }
    // A fused group is a Primitive function literal, or (after LambdaLifting)
    // a global one: either way its whole body becomes one PrimFunc.
    const auto* fn = as<FunctionNode>(call->callee);
    std::string holder = function_;  // the function whose body holds the group's nodes
    if (const auto* global = as<GlobalVarNode>(call->callee)) {
      holder = global->name;
      Expr callee = mod_->lookup(global->name);
      fn = as<FunctionNode>(callee);
      // Its parameters carry the types the group's inputs are lowered with.
      if (fn) opt_util::ensureTyped(std::static_pointer_cast<const FunctionNode>(callee), mod_);
    }
    if (fn && as<GlobalVarNode>(call->callee) && fn->attrs.getBool(fn_attr::kExtern))
      return makeOpCall(OpId::CallLowered, {call->callee, makeTuple(call->args)}, {}, orig->span);
    if (!fn || !opt_util::isPrimitive(*fn) || fn->attrs.contains(fn_attr::kCompiler)) return rebuilt;
    std::unordered_map<const ExprNode*, Expr> leaves;
    for (size_t i = 0; i < fn->params.size() && i < call->args.size(); ++i) leaves[fn->params[i].get()] = call->args[i];
    return lowerGroup(original, fn->body, leaves, orig->span, holder);
  }

 private:
  /// `holder`: the global function whose body holds the group's nodes (a lifted group's own), named by its remarks.
  Expr lowerGroup(const Expr& original, const Expr& body, const std::unordered_map<const ExprNode*, Expr>& leaves, const Span& span,
                  const std::string& holder) {
    GroupLowering group(linkParams_, host_, isa_, remarks_ != nullptr);
    PrimFunc prim;
    try {
      prim = group.lower(body, leaves);
    } catch (const Unsupported& e) {
      Diagnostic d;
      d.span = span;
      d.message = e.what();
      d.rule = "legalize.unsupported-op";
      d.function = function_;
      diags_.push_back(std::move(d));
      return original;
    }
    std::string name = uniqueName(group.opNames(), body.get() != original.get());
    // Remarks name the kernel first: the profile table lists kernels, and
    // `remarks LegalizeOps @NAME` finds these by it.
    for (GroupLowering::OpNote& note : group.notes()) {
      Remark r = makeRemark(kPass, note.rule, holder, {note.node}, "@" + name + ": " + note.text);
      r.kernel = name;
      remarks_->remark(std::move(r));
    }
    AttrDict attrs;
    attrs.set(fn_attr::kGlobalSymbol, AttrValue::string(name));
    newFuncs_[name] = makePrimFunc(prim->params, prim->body, attrs);
    std::vector<AttrValue> shapes, dtypes;
    for (const TensorTypeNode* t : group.outTypes()) {
      shapes.push_back(AttrValue::ints(t->shape));
      dtypes.push_back(AttrValue::string(std::string(t->dtype.name())));
    }
    bool single = shapes.size() == 1 && !group.tupleResult();
    // call_lowered returns one output as itself, so a one-element tuple result keeps call_tir.
    if (callLowered_ && (single || shapes.size() > 1))
      return makeOpCall(OpId::CallLowered, {makeGlobalVar(name), makeTuple(group.callArgs())}, {}, span);
    AttrDict callAttrs;
    callAttrs.set("out_shape", single ? shapes[0] : AttrValue::array(shapes));
    callAttrs.set("out_dtype", single ? dtypes[0] : AttrValue::array(dtypes));
    return makeOpCall(OpId::CallTir, {makeGlobalVar(name), makeTuple(group.callArgs())}, callAttrs, span);
  }

  std::string uniqueName(const std::vector<std::string>& ops, bool fused) {
    std::string base = fused ? "fused" : "";
    for (const std::string& op : ops) {
      if (base.size() > 48) break;  // TVM's long fused names are unreadable; the group is in the trace
      base += (base.empty() ? "" : "_") + op;
    }
    if (base.empty()) base = "fused";
    std::string name = base;
    for (int k = 1; mod_->lookup(name) || newFuncs_.count(name) || isMathLibrarySymbol(name); ++k) name = base + "_" + std::to_string(k);
    return name;
  }

  /// The name becomes the kernel's symbol; a float64 exp/log/floor... is a
  /// call to the C library's function of that very name, so a kernel called
  /// `exp` would call itself (the JIT resolves libm's `exp` to it) and one
  /// called `sqrt` or `floor` clashes with the Hexagon runtime's when linked.
  static bool isMathLibrarySymbol(const std::string& name) {
    static const std::set<std::string> kNames = [] {
      // C library functions that are not TIR intrinsics, then the intrinsics that are.
      std::set<std::string> names = {"expm1", "log10", "log1p", "fmod", "atan2", "rint", "fmin", "fmax", "main", "memcpy", "memset"};
      const std::pair<const char*, bool> intrinsics[] = {
#define PASSLAB_FLOAT_UNARY(name, reference, lowering, llvmId, oneInstruction, libmvec, libm) {#name, libm},
#define PASSLAB_FLOAT_BINARY(name, lowering, llvmId, oneInstruction, libmvec, libm) {#name, libm},
#include "core/ir/float_intrinsics.def"
      };
      for (const auto& [intrinsic, libm] : intrinsics)
        if (libm) names.insert(intrinsic);
      return names;
    }();
    return kNames.count(name) > 0;
  }

  IRModule mod_;
  std::map<std::string, Expr>& newFuncs_;
  std::vector<Diagnostic>& diags_;
  bool linkParams_;
  bool host_;
  legalize::VectorIsa isa_;
  bool callLowered_;
  PassContext* remarks_;
  std::string function_;
};

/// A global fused group (LambdaLifting lifts FuseOps' Primitive functions).
bool isLiftedGroup(const FunctionNode& fn) { return opt_util::isPrimitive(fn) && !fn.attrs.contains(fn_attr::kCompiler); }

/// `mod` without the lifted groups no function calls any more: each became a
/// PrimFunc at its calls, as TVM's FuseTIR replaces the Primitive functions.
IRModule dropUncalledGroups(IRModule mod) {
  std::set<std::string> called;
  for (const auto& [name, fn] : mod->functions)
    postOrderVisit(fn, [&](const Expr& e) {
      if (const auto* g = as<GlobalVarNode>(e)) called.insert(g->name);
    });
  std::vector<std::string> uncalled;
  for (const auto& [name, fn] : mod->functions)
    if (const auto* f = as<FunctionNode>(fn); f && isLiftedGroup(*f) && !called.count(name)) uncalled.push_back(name);
  for (const std::string& name : uncalled) mod = withoutFunction(mod, name);
  return mod;
}

/// What LegalizeOps is: name, phases, options, config keys and docs (its entry in
/// the registry and in docs/passes.md).
const PassRegistration& legalizeOpsDeclaration() {
  static const PassRegistration declaration = [] {
    using Kind = AttrValue::Kind;
    PassRegistration r;
    r.info.name = kPass;
    r.info.optLevel = 0;
    r.info.required = {"InferType"};
    // Ingestion too: TVM's Relax pipelines legalize first (relax.transform.LegalizeOps
    // on a module as written), and a Relay module without fused functions is lowered op by op.
    r.info.acceptedPhases = {Phase::Ingestion, Phase::Optimization};
    r.info.phaseAfter = Phase::Lowering;
    r.info.description =
        "Lowers every op call, and every fused Primitive function as a whole, to a PrimFunc (a loop nest over buffers, "
        "scheduled for the target) called through call_tir; link_params embeds constants in the PrimFuncs. Moves the "
        "module from phase 0 or 1 to phase 2 (a Relax module is legalized as written, as TVM's Relax pipelines do).";
    r.info.guarantees =
        "No op call remains outside skipped functions except the lowering builtins; every PrimFunc computes what the "
        "reference kernel computes; with link_params every non-scalar constant of a lowered call is an allocate_const "
        "with its exact bits, without it a call_tir argument; no on_device remains; every call of an Extern function "
        "is a call_lowered; the module is in phase 2.";
    r.configKeys = {{kLegalizeCallFormKey, Kind::String, AttrValue::string("call_tir"),
                     "how lowered PrimFuncs are called: \"call_tir\" (Relax's destination-passing call, out_shape and "
                     "out_dtype given) or \"call_lowered\" (TVM Relay's TE-compiler form; outputs from the PrimFunc's "
                     "signature)"}};
    r.create = [](const AttrDict&) { return createLegalizeOpsPass(); };
    return r;
  }();
  return declaration;
}

const PassRegistrar kLegalizeOpsRegistrar(legalizeOpsDeclaration);

class LegalizeOpsPass final : public Pass {
 public:
  const PassInfo& info() const override { return legalizeOpsDeclaration().info; }

  IRModule run(const IRModule& mod, PassContext& ctx) const override {
    bool linkParams = resolveLinkParams(mod, ctx, kPass);
    std::string kind;
    if (std::optional<AttrValue> k = ctx.targetAttr("kind", kPass)) kind = k->asString();
    else if (std::optional<AttrValue> t = ctx.moduleAttr(mod, module_attr::kTarget, "", kPass); t && t->kind() == AttrValue::Kind::String)
      kind = t->asString().substr(0, t->asString().find(' '));
    bool host = kind != "hexagon";
    legalize::VectorIsa isa = legalize::scheduleIsa(mod, ctx, kind);
    std::map<std::string, Expr> newFuncs;
    std::vector<Diagnostic> diags;
    std::string callForm = ctx.config(kLegalizeCallFormKey, kPass).asString();
    if (callForm != "call_tir" && callForm != "call_lowered") {
      Diagnostic d;
      d.rule = "legalize.config";
      d.message = std::string(kLegalizeCallFormKey) + " must be \"call_tir\" or \"call_lowered\", got \"" + callForm + "\"";
      throw DiagnosticError(std::move(d));
    }
    Legalizer legalizer(mod, newFuncs, diags, linkParams, host, isa, callForm == "call_lowered", ctx.remarksEnabled() ? &ctx : nullptr);
    IRModule out = opt_util::mapFunctions(mod, ctx, kPass, [&](const Function& fn, const std::string& name) -> Function {
      // A lifted fused group is lowered whole where it is called, not op by op.
      if (isLiftedGroup(*fn)) return fn;
      opt_util::ensureTyped(fn, mod);
      legalizer.setFunction(name);
      // A Relax function gets TVM's block-form kernels; what they lack, the lowering below takes.
      RelaxLegalizeRemarks remarks{ctx, kPass, name};
      Expr relax = legalizeInRelaxForm(mod, *fn)
                       ? legalizeRelaxBody(fn->body, mod, newFuncs, ctx.remarksEnabled() ? &remarks : nullptr)
                       : fn->body;
      Expr body = legalizer.mutate(relax);
      if (body == fn->body) return fn;
      return makeFunction(fn->params, body, fn->retType, fn->attrs, fn->span);
    }, [](const FunctionNode& fn) { return defaultFunctionSkipReason(fn); });
    if (!diags.empty()) throw DiagnosticError(std::move(diags));
    out = dropUncalledGroups(out);
    if (newFuncs.empty() && out == mod && mod->phase() == 2) return mod;  // nothing left to lower
    // One copy of the module for all the new PrimFuncs (a model adds hundreds).
    auto lowered = std::make_shared<IRModuleNode>(*out);
    for (auto& [name, prim] : newFuncs) lowered->functions[name] = std::move(prim);
    lowered->attrs.set(module_attr::kPhase, AttrValue::integer(2));
    return inferTypes(lowered);
  }
};

}  // namespace

PassPtr createLegalizeOpsPass() { return std::make_shared<LegalizeOpsPass>(); }

}  // namespace passlab
