// The Relax-form kernel of nn.batch_norm: topi.nn.batch_norm through
// te.create_prim_func, one PrimFunc "batch_norm" with the three outputs
// (out, moving_mean, moving_var). TVM's Relax op defaults to training=True:
// the batch's mean and biased variance normalize, and the moving statistics
// move toward them by `momentum`; with training=False the moving statistics
// normalize and come back unchanged (TE folds topi's `moving_mean * 1`, so
// each is a copy).
#include <algorithm>
#include <map>

#include "passes/legalize_relax.h"
#include "passes/legalize_relax_te.h"

namespace passlab::legalize_relax {

namespace {

namespace T = tir;

/// The stages of one PrimFunc in TE's order (post-order from the outputs),
/// each block named after its compute and made unique with _1, _2, ... as
/// te.create_prim_func names them.
class StageList {
 public:
  using Value = std::function<T::PrimExpr(const Exprs&, const Exprs&)>;

  /// Adds a stage writing a new buffer of `shape`; returns the buffer.
  T::Buffer add(const std::string& base, DataType dtype, const std::vector<int64_t>& shape, Value value,
                std::vector<int64_t> reduce = {}) {
    int n = used_[base]++;
    Stage s;
    s.name = n == 0 ? base : base + "_" + std::to_string(n);
    s.out = T::makeBuffer(s.name, dtype, shape);
    s.value = std::move(value);
    s.reduce = std::move(reduce);
    if (!s.reduce.empty()) {
      s.init = dtype.isFloat() ? T::floatImm(dtype, 0) : T::intImm(dtype, 0);
      s.combine = [](T::PrimExpr a, T::PrimExpr b) { return legalize_relax::add(std::move(a), std::move(b)); };
    }
    stages_.push_back(build(s));
    buffers_.push_back(s.out);
    return s.out;
  }

  /// The kernel whose outputs are `outputs` (buffers made here); every other buffer is scratch.
  TupleKernel finish(const std::string& name, const std::vector<T::Buffer>& outputs) {
    std::vector<T::Buffer> scratch;
    for (const T::Buffer& b : buffers_)
      if (std::find(outputs.begin(), outputs.end(), b) == outputs.end()) scratch.push_back(b);
    return TupleKernel{Kernel{name, outputs.front(), root(std::move(stages_), std::move(scratch))},
                       std::vector<T::Buffer>(outputs.begin() + 1, outputs.end())};
  }

 private:
  std::vector<T::Stmt> stages_;
  std::vector<T::Buffer> buffers_;
  std::map<std::string, int> used_;
};

/// A load of `b` broadcast to an output of `shape` at `v`.
T::PrimExpr broadcastLoad(const T::Buffer& b, const std::vector<int64_t>& shape, const Exprs& v) {
  return T::load(b, broadcastIndex(KernelInput{b, nullptr}, shape, v));
}

std::optional<TupleKernel> batchNorm(const CallNode& call, const std::vector<KernelInput>& in, const std::vector<const TensorTypeNode*>& outs) {
  const OpDef& op = *call.op();
  if (in.size() != 5 || outs.size() != 3) return std::nullopt;
  for (const KernelInput& i : in)
    if (!i.buffer) return std::nullopt;
  const T::Buffer& x = in[0].buffer;
  const DataType dt = x->dtype;
  const std::vector<int64_t> shape = x->shape;
  const int64_t rank = static_cast<int64_t>(shape.size());
  int64_t axis = attrOrDefault(op, call.attrs, "axis").asInt();
  if (axis < 0) axis += rank;
  const bool training = attrOrDefault(op, call.attrs, "training").asBool();
  if (!dt.isFloat() || axis < 0 || axis >= rank || (training && rank < 2)) return std::nullopt;
  const size_t a = static_cast<size_t>(axis);
  const int64_t channels = shape[a];
  for (size_t i = 1; i < 5; ++i)
    if (in[i].buffer->shape != std::vector<int64_t>{channels} || in[i].buffer->dtype != dt) return std::nullopt;
  const double epsilon = attrOrDefault(op, call.attrs, "epsilon").asFloat();
  const double momentum = attrOrDefault(op, call.attrs, "momentum").asFloat();
  // topi reshapes each per-channel vector to [1, .., C, .., 1].
  std::vector<int64_t> alongAxis(shape.size(), 1);
  alongAxis[a] = channels;
  const std::vector<int64_t> perChannel{channels};

  StageList st;
  // topi.reshape of a [C] vector: the flat output index modulo C, as TVM's
  // simplifier leaves it (the terms before the axis are multiples of C).
  auto reshape = [&](const T::Buffer& vec) {
    return st.add("T_reshape", dt, alongAxis, [&, vec](const Exprs& v, const Exprs&) {
      if (channels == 1) return T::load(vec, {i64(0)});
      T::PrimExpr flat;
      for (size_t d = a; d < v.size(); ++d) flat = flat ? add(flat, v[d]) : v[d];
      return T::load(vec, {T::binary(T::BinaryOp::FloorMod, flat, i64(channels))});
    });
  };
  auto subtract = [&](const T::Buffer& rs) {
    return st.add("T_subtract", dt, shape, [&, rs](const Exprs& v, const Exprs&) { return sub(T::load(x, v), broadcastLoad(rs, shape, v)); });
  };
  // topi.sum over every axis but `axis`, then the division by their element count.
  double count = 1;
  std::vector<int64_t> reduced;
  for (size_t d = 0; d < shape.size(); ++d)
    if (d != a) {
      reduced.push_back(shape[d]);
      count *= static_cast<double>(shape[d]);
    }
  auto meanOf = [&](const T::Buffer& src) {
    T::Buffer sum = st.add(src->name + "_red", dt, perChannel, [&, src](const Exprs& v, const Exprs& r) {
      Exprs idx;
      for (size_t d = 0, k = 0; d < shape.size(); ++d) idx.push_back(d == a ? v[0] : r[k++]);
      return T::load(src, idx);
    }, reduced);
    return st.add("T_divide", dt, perChannel,
                  [&, sum](const Exprs& v, const Exprs&) { return T::binary(T::BinaryOp::Div, T::load(sum, v), T::floatImm(dt, count)); });
  };

  T::Buffer centered, spreadRs, batchMean, batchVar;
  if (training) {
    batchMean = meanOf(x);
    T::Buffer meanRs = reshape(batchMean);
    centered = subtract(meanRs);
    T::Buffer d1 = subtract(meanRs);
    T::Buffer d2 = subtract(meanRs);
    T::Buffer squares = st.add("T_multiply", dt, shape, [&, d1, d2](const Exprs& v, const Exprs&) { return mul(T::load(d1, v), T::load(d2, v)); });
    batchVar = meanOf(squares);
    spreadRs = reshape(batchVar);
  } else {
    centered = subtract(reshape(in[3].buffer));
    spreadRs = reshape(in[4].buffer);
  }
  T::Buffer shifted = st.add("T_add", dt, alongAxis, [&, spreadRs](const Exprs& v, const Exprs&) { return add(T::load(spreadRs, v), T::floatImm(dt, epsilon)); });
  T::Buffer root = st.add("compute", dt, alongAxis, [&, shifted](const Exprs& v, const Exprs&) { return T::call(dt, "sqrt", {T::load(shifted, v)}); });
  T::Buffer out = st.add("T_divide", dt, shape, [&, centered, root](const Exprs& v, const Exprs&) {
    return T::binary(T::BinaryOp::Div, T::load(centered, v), broadcastLoad(root, shape, v));
  });
  if (attrOrDefault(op, call.attrs, "scale").asBool()) {
    T::Buffer g = reshape(in[1].buffer);
    T::Buffer prev = out;
    out = st.add("T_multiply", dt, shape, [&, g, prev](const Exprs& v, const Exprs&) { return mul(T::load(prev, v), broadcastLoad(g, shape, v)); });
  }
  if (attrOrDefault(op, call.attrs, "center").asBool()) {
    T::Buffer b = reshape(in[2].buffer);
    T::Buffer prev = out;
    out = st.add("T_add", dt, shape, [&, b, prev](const Exprs& v, const Exprs&) { return add(T::load(prev, v), broadcastLoad(b, shape, v)); });
  }
  std::vector<T::Buffer> outputs{out};
  for (size_t i : {size_t(3), size_t(4)}) {
    const T::Buffer& moving = in[i].buffer;
    if (!training) {
      outputs.push_back(st.add("T_multiply", dt, perChannel, [&, moving](const Exprs& v, const Exprs&) { return T::load(moving, v); }));
      continue;
    }
    const T::Buffer& batch = i == 3 ? batchMean : batchVar;
    T::Buffer kept = st.add("T_multiply", dt, perChannel, [&, moving](const Exprs& v, const Exprs&) { return mul(T::floatImm(dt, 1 - momentum), T::load(moving, v)); });
    T::Buffer moved = st.add("T_multiply", dt, perChannel, [&, batch](const Exprs& v, const Exprs&) { return mul(T::floatImm(dt, momentum), T::load(batch, v)); });
    outputs.push_back(st.add("T_add", dt, perChannel, [&, kept, moved](const Exprs& v, const Exprs&) { return add(T::load(kept, v), T::load(moved, v)); }));
  }
  for (size_t i = 0; i < 3; ++i)
    if (outputs[i]->shape != outs[i]->shape || outs[i]->dtype != dt) return std::nullopt;
  return st.finish("batch_norm", outputs);
}

}  // namespace

std::optional<TupleKernel> buildTupleKernel(const CallNode& call, const std::vector<KernelInput>& in,
                                       const std::vector<const TensorTypeNode*>& outs) {
  const OpDef* op = call.op();
  if (op && op->id == OpId::BatchNorm) return batchNorm(call, in, outs);
  return std::nullopt;
}

}  // namespace passlab::legalize_relax
