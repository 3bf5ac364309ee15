// LegalizeOps' dispatch on the op table and the loop-building helpers every
// per-family lowering uses.
#include "passes/legalize_lower.h"

#include "core/ir/limits.h"

#include "core/ir/op.h"
#include "core/ir/tir_functor.h"

namespace passlab::legalize {

namespace T = tir;

T::PrimExpr i32(int64_t v) { return T::intImm(DTypeCode::Int32, v); }

T::PrimExpr constOf(DataType d, double v) {
  return d.isFloat() ? T::floatImm(d, v) : T::intImm(d, static_cast<int64_t>(v));
}

T::PrimExpr bin(T::BinaryOp op, T::PrimExpr a, T::PrimExpr b) { return T::binary(op, std::move(a), std::move(b)); }

T::PrimExpr read(const Operand& o, std::vector<T::PrimExpr> indices) {
  if (o.lazy) return o.lazy(indices);
  if (!o.buffer) return o.scalar;
  return T::load(o.buffer, std::move(indices));
}

T::PrimExpr readBroadcast(const Operand& o, const std::vector<T::PrimExpr>& outIndices) {
  if (!o.buffer && !o.lazy) return o.scalar;
  std::vector<T::PrimExpr> idx;
  size_t offset = outIndices.size() - o.shape.size();
  for (size_t d = 0; d < o.shape.size(); ++d) idx.push_back(o.shape[d] == 1 ? i32(0) : outIndices[offset + d]);
  return read(o, std::move(idx));
}

T::PrimExpr castTo(DataType d, T::PrimExpr v) { return v->dtype == d ? v : T::cast(d, std::move(v)); }

DataType accumulatorType(DataType d) {
  return d.code == DTypeCode::Float16 ? DataType(DTypeCode::Float32) : d;
}

namespace {

/// Whether every use of `outer` and `inner` in `s` is a buffer access that
/// indexes them as adjacent axes [.., outer, inner, rest..] of extents
/// `outerExtent` and `innerExtent`, i.e. whether the pair can be replaced by
/// one flat variable without turning contiguous accesses into gathers.
class JointIndexCheck {
 public:
  JointIndexCheck(const T::VarNode* outer, const T::VarNode* inner, int64_t outerExtent, int64_t innerExtent)
      : outer_(outer), inner_(inner), outerExtent_(outerExtent), innerExtent_(innerExtent) {}

  bool holds(const T::Stmt& s) {
    stmt(s);
    return ok_;
  }

 private:
  void access(const T::BufferNode& b, const std::vector<T::PrimExpr>& indices) {
    for (size_t k = 0; k < indices.size(); ++k) {
      const auto* v = T::as<T::VarNode>(indices[k]);
      if (v == outer_) {
        ok_ = ok_ && k + 1 < indices.size() && T::as<T::VarNode>(indices[k + 1]) == inner_ && indices.size() == b.shape.size() &&
              b.shape[k] == outerExtent_ && b.shape[k + 1] == innerExtent_;
        ++k;  // the inner variable is accounted for
      } else if (v != inner_) {
        expr(indices[k]);
      } else {
        ok_ = false;  // inner without outer
      }
    }
  }
  void expr(const T::PrimExpr& e) {
    if (!ok_ || !e) return;
    if (const auto* v = T::as<T::VarNode>(e)) {
      if (v == outer_ || v == inner_) ok_ = false;
    } else if (const auto* l = T::as<T::LoadNode>(e)) {
      access(*l->buffer, l->indices);
    } else {
      T::forEachChild(e, [this](const T::PrimExpr& c) { expr(c); });
    }
  }
  void stmt(const T::Stmt& s) {
    if (!ok_ || !s) return;
    switch (s->kind) {
      case T::StmtKind::Store: {
        const auto& st = static_cast<const T::StoreNode&>(*s);
        access(*st.buffer, st.indices);
        expr(st.value);
        return;
      }
      case T::StmtKind::LetStmt: {
        const auto& l = static_cast<const T::LetStmtNode&>(*s);
        expr(l.value), stmt(l.body);
        return;
      }
      case T::StmtKind::Seq:
        for (const T::Stmt& c : static_cast<const T::SeqNode&>(*s).stmts) stmt(c);
        return;
      case T::StmtKind::Evaluate: expr(static_cast<const T::EvaluateNode&>(*s).value); return;
      default: ok_ = false;  // loops, branches and allocations inside: keep the nest as it is
    }
  }

  const T::VarNode* outer_;
  const T::VarNode* inner_;
  int64_t outerExtent_, innerExtent_;
  bool ok_ = true;
};

}  // namespace

T::Stmt loopNest(const std::vector<int64_t>& shape, const std::string& prefix,
                 const std::function<T::Stmt(const std::vector<T::PrimExpr>&)>& body, NestSchedule schedule) {
  std::vector<T::Var> vars;
  std::vector<T::PrimExpr> idx;
  for (size_t d = 0; d < shape.size(); ++d) {
    vars.push_back(T::makeVar(prefix + std::to_string(d)));
    idx.push_back(vars.back());
  }
  T::Stmt s = body(idx);
  if (schedule.collapseInner && schedule.vectorizeInner && shape.size() >= 2 && shape.back() < 64) {
    // Merge the innermost axis with the ones outside it while the merged
    // extent stays short; each merged axis is recovered with floordiv/floormod,
    // which LLVM folds back into a flat offset for row-major accesses.
    size_t first = shape.size() - 1;
    int64_t merged = shape.back();
    // Each adjacent pair is checked on the body built with separate
    // variables: pairs that hold for every access chain into one run of axes.
    while (first > 0 && merged < 256 && JointIndexCheck(vars[first - 1].get(), vars[first].get(), shape[first - 1], shape[first]).holds(s)) {
      merged *= shape[first - 1];
      --first;
    }
    if (first + 1 < shape.size()) {
      std::vector<int64_t> outerShape(shape.begin(), shape.begin() + static_cast<long>(first));
      outerShape.push_back(merged);
      std::vector<int64_t> tail(shape.begin() + static_cast<long>(first), shape.end());
      NestSchedule flat = schedule;
      flat.collapseInner = false;
      return loopNest(outerShape, prefix, [&](const std::vector<T::PrimExpr>& outer) {
        std::vector<T::PrimExpr> full(outer.begin(), outer.end() - 1);
        for (T::PrimExpr& e : unflattenIndex(outer.back(), tail)) full.push_back(std::move(e));
        return body(full);
      }, flat);
    }
  }
  int parallelDim = -1;
  if (schedule.parallelOuter)
    for (size_t d = 0; d < shape.size(); ++d)
      if (shape[d] > 1) {
        parallelDim = static_cast<int>(d);
        break;
      }
  for (size_t d = shape.size(); d-- > 0;) {
    T::ForKind kind = T::ForKind::Serial;
    if (static_cast<int>(d) == parallelDim) kind = T::ForKind::Parallel;
    else if (schedule.vectorizeInner && d + 1 == shape.size() && shape[d] > 1) kind = T::ForKind::Vectorized;
    s = T::forLoop(vars[d], i32(0), i32(shape[d]), kind, s);
  }
  return s;
}

T::Stmt finishElement(const OpLowering& l, const std::vector<T::PrimExpr>& idx, T::PrimExpr value) {
  value = castTo(l.out->dtype, std::move(value));
  return l.epilogue ? l.epilogue(idx, std::move(value)) : T::store(l.out, idx, std::move(value));
}

NestSchedule elementwiseSchedule(const OpLowering& l) {
  // Merging axes is host-only: LLVM 14's Hexagon backend crashes (unbounded
  // recursion in computeKnownBits) on some of the vectorized floordiv/floormod
  // index arithmetic it leaves (ONNX test_and4d).
  return NestSchedule{l.host && numElements(l.out->shape) >= 1024, true, l.host};
}

const AttrValue& attr(const OpLowering& l, std::string_view key) { return attrOrDefault(l.op, l.call.attrs, key); }

std::vector<int64_t> attrInts(const OpLowering& l, std::string_view key) {
  std::vector<int64_t> out;
  const AttrValue& v = attr(l, key);
  if (v.kind() == AttrValue::Kind::Int) return {v.asInt()};
  if (v.kind() != AttrValue::Kind::Array) return out;
  for (const AttrValue& e : v.asArray()) out.push_back(e.asInt());
  return out;
}

std::vector<size_t> layoutPositions(const OpLowering& l, const std::string& layout, const std::string& want,
                                    const std::string& what) {
  std::vector<size_t> pos;
  for (char c : want) {
    size_t p = layout.find(c);
    if (layout.size() != want.size() || p == std::string::npos)
      throw Unsupported("LegalizeOps: " + std::string(l.op.name) + " " + what + " \"" + layout + "\" is not a permutation of " + want);
    pos.push_back(p);
  }
  return pos;
}

std::vector<T::PrimExpr> unflattenIndex(T::PrimExpr flat, const std::vector<int64_t>& shape) {
  std::vector<T::PrimExpr> idx(shape.size());
  int64_t stride = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    T::PrimExpr q = stride == 1 ? flat : bin(T::BinaryOp::FloorDiv, flat, i32(stride));
    idx[d] = d == 0 ? q : bin(T::BinaryOp::FloorMod, q, i32(shape[d]));
    stride *= shape[d];
  }
  return idx;
}

tir::Stmt reductionTile(const std::string& name, DataType accType, int64_t mr, int64_t nr, int64_t kVec, int64_t K,
                        const std::function<tir::PrimExpr(int64_t, int64_t, const tir::PrimExpr&)>& term,
                        const std::function<tir::Stmt(int64_t, int64_t, const tir::PrimExpr&)>& finish) {
  namespace T = tir;
  const int64_t blocks = K / kVec, tail = K % kVec;
  auto acc = T::makeBuffer(name + "_acc", accType, {mr * nr, kVec});
  auto tailAcc = T::makeBuffer(name + "_tail", accType, {mr * nr});
  // sums[q(, lane)] += term(mi, nj, k) for every output of the tile.
  auto accumulate = [&](const T::Buffer& sums, const T::PrimExpr& k, const T::PrimExpr* lane) {
    std::vector<T::Stmt> updates;
    for (int64_t mi = 0; mi < mr; ++mi)
      for (int64_t nj = 0; nj < nr; ++nj) {
        std::vector<T::PrimExpr> at{i32(mi * nr + nj)};
        if (lane) at.push_back(*lane);
        updates.push_back(T::store(sums, at, add(T::load(sums, at), term(mi, nj, k))));
      }
    return T::seq(std::move(updates));
  };
  std::vector<T::Stmt> body, zero;
  T::Var z = T::makeVar("lane");
  for (int64_t q = 0; q < mr * nr; ++q) zero.push_back(T::store(acc, {i32(q), z}, constOf(accType, 0)));
  body.push_back(T::forLoop(z, i32(0), i32(kVec), T::ForKind::Vectorized, T::seq(std::move(zero))));
  if (blocks > 0) {
    T::Var ko = T::makeVar("ko"), ki = T::makeVar("ki");
    T::PrimExpr lane = ki;
    body.push_back(T::forLoop(ko, i32(0), i32(blocks), T::ForKind::Serial,
                              T::forLoop(ki, i32(0), i32(kVec), T::ForKind::Vectorized, accumulate(acc, add(mul(ko, i32(kVec)), ki), &lane))));
  }
  if (tail > 0) {
    T::Var kt = T::makeVar("kt");
    for (int64_t q = 0; q < mr * nr; ++q) body.push_back(T::store(tailAcc, {i32(q)}, constOf(accType, 0)));
    body.push_back(T::forLoop(kt, i32(0), i32(tail), T::ForKind::Serial, accumulate(tailAcc, add(i32(blocks * kVec), kt), nullptr)));
  }
  for (int64_t mi = 0; mi < mr; ++mi)
    for (int64_t nj = 0; nj < nr; ++nj) {
      T::PrimExpr q = i32(mi * nr + nj);
      T::PrimExpr total = T::load(acc, {q, i32(0)});
      for (int64_t lane = 1; lane < kVec; ++lane) total = add(total, T::load(acc, {q, i32(lane)}));
      if (tail > 0) total = add(total, T::load(tailAcc, {q}));
      body.push_back(finish(mi, nj, total));
    }
  return T::allocate(acc, tail > 0 ? T::allocate(tailAcc, T::seq(std::move(body))) : T::seq(std::move(body)));
}

int64_t isaVectorForSums(const VectorIsa& isa, int64_t K) { return isa.floats < 16 || (K % 16 != 0 && K % 8 == 0) ? 8 : 16; }

T::PrimExpr add(T::PrimExpr a, T::PrimExpr b) { return bin(T::BinaryOp::Add, std::move(a), std::move(b)); }
T::PrimExpr mul(T::PrimExpr a, T::PrimExpr b) { return bin(T::BinaryOp::Mul, std::move(a), std::move(b)); }

T::Stmt overlappingTiles(int64_t total, int64_t width, int64_t vectorFloats, T::ForKind kind, const std::function<T::Stmt(const T::PrimExpr&, int64_t)>& tile) {
  std::vector<T::Stmt> parts;
  const int64_t full = total / width, rest = total % width;
  if (full > 0) {
    T::Var po = T::makeVar("po");
    parts.push_back(T::forLoop(po, i32(0), i32(full), kind, tile(mul(po, i32(width)), width)));
  }
  if (rest > 0) {
    int64_t last = std::min(width, (rest + vectorFloats - 1) / vectorFloats * vectorFloats);
    parts.push_back(total >= last ? tile(i32(total - last), last) : tile(i32(0), total));
  }
  return T::seq(std::move(parts));
}

std::vector<T::Stmt> laneSums(const T::Buffer& sums, DataType accType, int64_t length,
                              const std::function<T::PrimExpr(const T::PrimExpr&)>& term, T::PrimExpr& total) {
  const int64_t blocks = length / kLanes, tail = length % kLanes;
  std::vector<T::Stmt> out;
  T::Var z = T::makeVar("lane");
  out.push_back(T::forLoop(z, i32(0), i32(kLanes), T::ForKind::Vectorized, T::store(sums, {z}, constOf(accType, 0))));
  if (blocks > 0) {
    T::Var ko = T::makeVar("ko"), ki = T::makeVar("ki");
    out.push_back(T::forLoop(ko, i32(0), i32(blocks), T::ForKind::Serial,
                             T::forLoop(ki, i32(0), i32(kLanes), T::ForKind::Vectorized,
                                        T::store(sums, {ki}, add(T::load(sums, {ki}), term(add(mul(ko, i32(kLanes)), ki)))))));
  }
  if (tail > 0) {
    T::Var kt = T::makeVar("kt");
    out.push_back(T::forLoop(kt, i32(0), i32(tail), T::ForKind::Serial,
                             T::store(sums, {kt}, add(T::load(sums, {kt}), term(add(i32(blocks * kLanes), kt))))));
  }
  total = T::load(sums, {i32(0)});
  for (int64_t q = 1; q < kLanes; ++q) total = add(total, T::load(sums, {i32(q)}));
  return out;
}

ConvLayouts convLayouts(const OpLowering& l) {
  const Operand& data = l.args.at(0);
  const Operand& weight = l.args.at(1);
  if (!data.buffer || !weight.buffer || data.shape.size() != 4 || weight.shape.size() != 4)
    throw Unsupported("LegalizeOps: " + std::string(l.op.name) + " expects 4-d data and weight");
  std::string dataLayout = attr(l, "data_layout").asString(), outLayout = attr(l, "out_layout").asString();
  if (outLayout.empty()) outLayout = dataLayout;
  return {layoutPositions(l, dataLayout, "NCHW", "data_layout"), layoutPositions(l, attr(l, "kernel_layout").asString(), "OIHW", "kernel_layout"),
          layoutPositions(l, outLayout, "NCHW", "out_layout")};
}

std::array<int64_t, 4> padding4(const OpLowering& l) {
  std::vector<int64_t> p = attrInts(l, "padding");
  for (int64_t v : p)
    if (v < 0) throw Unsupported("LegalizeOps: " + std::string(l.op.name) + " padding must be non-negative");
  if (p.size() == 1) return {p[0], p[0], p[0], p[0]};
  if (p.size() == 2) return {p[0], p[1], p[0], p[1]};
  if (p.size() == 4) return {p[0], p[1], p[2], p[3]};
  throw Unsupported("LegalizeOps: " + std::string(l.op.name) + " padding must have 1, 2 or 4 values");
}

int64_t numElements(const std::vector<int64_t>& shape) {
  std::optional<int64_t> n = limits::checkedElementCount(shape);
  if (!n) throw Unsupported("LegalizeOps: " + limits::tooManyElementsMessage(shape));
  return *n;
}

LoweringFamily loweringFamily(OpId id) {
  switch (id) {
    case OpId::Add:
    case OpId::Subtract:
    case OpId::Multiply:
    case OpId::Divide:
    case OpId::Power:
    case OpId::Mod:
    case OpId::FloorMod:
    case OpId::Maximum:
    case OpId::Minimum:
    case OpId::Equal:
    case OpId::Less:
    case OpId::Greater:
    case OpId::Where:
    case OpId::Negative:
    case OpId::Abs:
    // The float-math category of ops.def.
#define PASSLAB_OP(id, name, pattern)
#define PASSLAB_FLOAT_MATH_OP(id, name, intrinsic) case OpId::id:
#include "core/ir/ops.def"
#undef PASSLAB_OP
    case OpId::Clip:
    case OpId::Round:
    case OpId::Floor:
    case OpId::Ceil:
    case OpId::Relu:
    case OpId::LeakyRelu:
    case OpId::Gelu:
    case OpId::Silu:
    case OpId::Cast:
    case OpId::BiasAdd:
    case OpId::Zeros:
    case OpId::Ones:
    case OpId::Full: return LoweringFamily::Elementwise;

    case OpId::Conv2D: return LoweringFamily::Conv2D;
    case OpId::Conv2DTranspose: return LoweringFamily::Conv2DTranspose;
    case OpId::Resize2D: return LoweringFamily::Resize;
    case OpId::Dense:
    case OpId::Matmul:
    case OpId::BatchMatmul: return LoweringFamily::Matmul;
    case OpId::MaxPool2D:
    case OpId::AvgPool2D:
    case OpId::GlobalAvgPool2D: return LoweringFamily::Pool;
    case OpId::Softmax: return LoweringFamily::Softmax;

    case OpId::Reshape:
    case OpId::Squeeze:
    case OpId::ExpandDims:
    case OpId::Transpose:
    case OpId::LayoutTransform:
    case OpId::Concatenate:
    case OpId::StridedSlice:
    case OpId::Pad:
    case OpId::Take: return LoweringFamily::Transform;
    case OpId::Split: return LoweringFamily::Split;

    case OpId::Mean:
    case OpId::Sum:
    case OpId::Max:
    case OpId::Min:
    case OpId::Prod:
    case OpId::ArgMax:
    case OpId::ArgMin: return LoweringFamily::Reduce;

    // No lowering: normalizations are rewritten by SimplifyInference first;
    // shape_of and later-phase ops are not kernels here.
    case OpId::BatchNorm:
    case OpId::LayerNorm:
    case OpId::GroupNorm:
    case OpId::ShapeOf:
    case OpId::OnDevice:
    // The lowering ops of ops.def: what lowering produces.
#define PASSLAB_OP(id, name, pattern)
#define PASSLAB_LOWERING_OP(id, name, pattern) case OpId::id:
#include "core/ir/ops.def"
#undef PASSLAB_OP
      break;
  }
  return LoweringFamily::None;
}

namespace {

T::Stmt lowerFamily(const OpLowering& l) {
  switch (loweringFamily(l.op.id)) {
    case LoweringFamily::Elementwise: return lowerElementwise(l);
    case LoweringFamily::Transform: return lowerTransform(l);
    case LoweringFamily::Reduce: return lowerReduce(l);
    case LoweringFamily::Softmax: return lowerSoftmax(l);
    case LoweringFamily::Conv2D: return lowerConv2D(l);
    case LoweringFamily::Conv2DTranspose: return lowerConv2DTranspose(l);
    case LoweringFamily::Resize: return lowerResize2D(l);
    case LoweringFamily::Matmul: return lowerMatmul(l);
    case LoweringFamily::Pool: return lowerPool(l);
    case LoweringFamily::Split: throw Unsupported("LegalizeOps: op 'split' is lowered with the buffers of all its pieces (lowerSplit)");
    case LoweringFamily::None: break;
  }
  return nullptr;
}

}  // namespace

T::Stmt lowerOpCall(const OpLowering& l) {
  if (T::Stmt nest = lowerFamily(l)) {
    describeLoopNest(l, nest);
    return nest;
  }
  std::string hint = l.op.id == OpId::BatchNorm || l.op.id == OpId::LayerNorm || l.op.id == OpId::GroupNorm
                         ? " (run SimplifyInference first)"
                         : "";
  throw Unsupported("LegalizeOps has no lowering for op '" + std::string(l.op.name) + "'" + hint);
}

}  // namespace passlab::legalize
