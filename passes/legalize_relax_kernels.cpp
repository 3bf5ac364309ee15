// The block-form kernels of Relax-form LegalizeOps: what topi's compute
// definitions become through te.create_prim_func, op by op (TVM's
// python/tvm/relax/transform/legalize_ops/*.py chooses the topi function and
// the PrimFunc's name). Indices are int64, as Relax shapes are.
#include <algorithm>
#include <cctype>
#include <functional>
#include <limits>
#include <map>

#include "core/ir/tir_functor.h"
#include "passes/legalize_relax.h"
#include "passes/legalize_relax_te.h"

namespace passlab::legalize_relax {

namespace {

namespace T = tir;

/// The loads of `e` in order of first access, one per buffer (TVM's block
/// read detector lists each buffer once), leaving out `self`.
class ReadCollector final : public T::StmtExprVisitor {
 public:
  explicit ReadCollector(const T::BufferNode* self) : self_(self) {}
  std::vector<T::BufferRegion> regions;
  using T::StmtExprVisitor::visit;
  void visit(const T::PrimExpr& e) override {
    if (!e) return;
    if (const auto* l = T::as<T::LoadNode>(e); l && l->buffer.get() != self_) {
      bool seen = false;
      for (const T::BufferRegion& r : regions) seen = seen || r.buffer == l->buffer;
      if (!seen) {
        T::BufferRegion r{l->buffer, {}};
        for (const T::PrimExpr& i : l->indices) r.ranges.emplace_back(i, i64(1));
        regions.push_back(std::move(r));
      }
    }
    visitChildren(e);
  }

 private:
  const T::BufferNode* self_;
};

T::BufferRegion pointRegion(const T::Buffer& b, const Exprs& idx) {
  T::BufferRegion r{b, {}};
  for (const T::PrimExpr& i : idx) r.ranges.emplace_back(i, i64(1));
  return r;
}

}  // namespace

void BlockAxes::add(int64_t extent, T::IterKind kind, const std::string& name) {
  T::Var loop = T::makeVar(name, DTypeCode::Int64);
  T::Var v = T::makeVar("v_" + name, DTypeCode::Int64);
  loops.push_back(loop);
  ivs.push_back({v, i64(0), i64(extent), kind, loop});
  (kind == T::IterKind::Spatial ? spatial : reduce).push_back(v);
}

T::Stmt BlockAxes::wrap(T::Stmt body) const {
  for (size_t i = loops.size(); i-- > 0;) body = T::forLoop(loops[i], i64(0), ivs[i].extent, T::ForKind::Serial, body);
  return body;
}

T::Stmt build(const Stage& s) {
  BlockAxes axes;
  for (size_t d = 0; d < s.out->shape.size(); ++d) axes.add(s.out->shape[d], T::IterKind::Spatial, "i" + std::to_string(d));
  for (size_t d = 0; d < s.reduce.size(); ++d) axes.add(s.reduce[d], T::IterKind::Reduce, "k" + std::to_string(d));
  const Exprs& sp = axes.spatial;
  const Exprs& rd = axes.reduce;
  T::PrimExpr value = s.value(sp, rd);
  ReadCollector reads(s.out.get());
  reads.visit(value);
  T::Stmt init, body;
  if (s.combine) {
    init = T::store(s.out, sp, s.init);
    body = T::store(s.out, sp, s.combine(T::load(s.out, sp), value));
  } else {
    body = T::store(s.out, sp, value);
  }
  return axes.wrap(T::block(s.name, axes.ivs, nullptr, reads.regions, {pointRegion(s.out, sp)}, {}, init, body, s.annotations));
}

T::Stmt root(std::vector<T::Stmt> stages, std::vector<T::Buffer> scratch) {
  T::Stmt body = stages.size() == 1 ? stages[0] : T::seq(std::move(stages));
  return T::block("root", {}, nullptr, {}, {}, std::move(scratch), nullptr, body);
}

Exprs broadcastIndex(const KernelInput& in, const std::vector<int64_t>& outShape, const Exprs& idx) {
  Exprs r;
  if (!in.buffer) return r;
  const auto& shape = in.buffer->shape;
  size_t lead = outShape.size() - shape.size();
  for (size_t d = 0; d < shape.size(); ++d) r.push_back(shape[d] == 1 && outShape[lead + d] != 1 ? i64(0) : idx[lead + d]);
  return r;
}

namespace {

/// `a * k`, or `a` itself when k is 1 (TE folds the constant factor away).
T::PrimExpr scaled(const T::PrimExpr& a, int64_t k) { return k == 1 ? a : mul(a, i64(k)); }

/// Reads an input at `idx`: a load, or the inlined immediate.
T::PrimExpr read(const KernelInput& in, const Exprs& idx) { return in.buffer ? T::load(in.buffer, idx) : in.immediate; }

T::PrimExpr castTo(DataType d, const T::PrimExpr& e) { return e->dtype == d ? e : T::cast(d, e); }

std::optional<T::BinaryOp> binaryOf(OpId id) {
  switch (id) {
    case OpId::Add: return T::BinaryOp::Add;
    case OpId::Subtract: return T::BinaryOp::Sub;
    case OpId::Multiply: return T::BinaryOp::Mul;
    case OpId::Divide: return T::BinaryOp::Div;
    case OpId::Maximum: return T::BinaryOp::Max;
    case OpId::Minimum: return T::BinaryOp::Min;
    default: return std::nullopt;
  }
}

/// Padding as (top, left, bottom, right) from the 1-, 2- or 4-element forms.
std::array<int64_t, 4> pad4(const std::vector<int64_t>& p) {
  if (p.size() == 1) return {p[0], p[0], p[0], p[0]};
  if (p.size() == 2) return {p[0], p[1], p[0], p[1]};
  if (p.size() == 4) return {p[0], p[1], p[2], p[3]};
  return {0, 0, 0, 0};
}

std::vector<int64_t> pair(const std::vector<int64_t>& v) {
  if (v.size() == 1) return {v[0], v[0]};
  return v;
}

/// topi.nn.pad over the spatial dimensions `h` and `w` of a 4-d tensor: the
/// stage "pad_temp" (a copy when nothing is padded, as conv2d always pads).
T::Stmt padStage(const KernelInput& data, const T::Buffer& padded, const std::array<int64_t, 4>& p, T::PrimExpr padValue,
                 size_t h = 2, size_t w = 3) {
  Stage s;
  s.name = "pad_temp";
  s.out = padded;
  const auto& shape = data.buffer->shape;
  s.value = [&, padValue, h, w](const Exprs& v, const Exprs&) {
    Exprs idx = v;
    T::PrimExpr cond;
    auto all = [&](T::PrimExpr c) { cond = cond ? T::binary(T::BinaryOp::And, cond, c) : c; };
    const size_t dims[2] = {h, w};
    for (int k = 0; k < 2; ++k) {
      const size_t d = dims[k];
      int64_t before = p[static_cast<size_t>(k)], after = p[static_cast<size_t>(k) + 2];
      if (before != 0) {
        all(T::binary(T::BinaryOp::LE, i64(before), v[d]));
        idx[d] = sub(v[d], i64(before));
      }
      if (after != 0) all(T::binary(T::BinaryOp::LT, v[d], i64(shape[d] + before)));
    }
    T::PrimExpr x = T::load(data.buffer, idx);
    return cond ? T::call(x->dtype, "if_then_else", {cond, x, padValue}) : x;
  };
  return build(s);
}

/// The permutation of `layout` that `of` is (each letter of `of` found), or
/// empty when it is not one.
std::vector<size_t> letters(const std::string& layout, const std::string& of) {
  std::vector<size_t> pos;
  if (layout.size() != of.size()) return {};
  for (char c : of) {
    size_t at = layout.find(c);
    if (at == std::string::npos) return {};
    pos.push_back(at);
  }
  return pos;
}

/// topi.nn.conv for 2-d data in any permutation of NCHW with a kernel in any
/// permutation of OIHW, grouped or not: "pad_temp", then "conv2d_<layout>"
/// ("group_conv2d_<layout>" with groups), the reduction axes in the data
/// layout's order of C, H and W.
std::optional<Kernel> conv2d(const CallNode& call, const std::vector<KernelInput>& in, const TensorTypeNode& out) {
  const OpDef& op = *call.op();
  auto str = [&](const char* k) { return attrOrDefault(op, call.attrs, k).asString(); };
  const std::string layout = str("data_layout");
  std::vector<size_t> d = letters(layout, "NCHW"), k = letters(str("kernel_layout"), "OIHW");
  const int64_t groups = attrOrDefault(op, call.attrs, "groups").asInt();
  std::string outLayout = str("out_layout");
  if (d.empty() || k.empty() || groups < 1 || (!outLayout.empty() && outLayout != layout)) return std::nullopt;
  if (!in[0].buffer || !in[1].buffer || in[0].buffer->shape.size() != 4 || in[1].buffer->shape.size() != 4) return std::nullopt;
  std::array<int64_t, 4> p = pad4(attrOrDefault(op, call.attrs, "padding").asInts());
  std::vector<int64_t> stride = pair(attrOrDefault(op, call.attrs, "strides").asInts());
  std::vector<int64_t> dil = pair(attrOrDefault(op, call.attrs, "dilation").asInts());
  const auto& ds = in[0].buffer->shape;
  const auto& ws = in[1].buffer->shape;
  const int64_t inChannels = ds[d[1]], filters = ws[k[0]];
  if (inChannels % groups != 0 || filters % groups != 0 || ws[k[1]] != inChannels / groups) return std::nullopt;
  std::vector<int64_t> paddedShape = ds;
  paddedShape[d[2]] += p[0] + p[2];
  paddedShape[d[3]] += p[1] + p[3];
  T::Buffer padded = T::makeBuffer("pad_temp", in[0].buffer->dtype, paddedShape);
  T::Stmt pad = padStage(in[0], padded, p, T::floatImm(in[0].buffer->dtype, 0), d[2], d[3]);
  // The reduction axes rc, ry, rx ordered as C, H and W appear in the data layout.
  std::vector<int> order = {0, 1, 2};
  const size_t at[3] = {d[1], d[2], d[3]};
  std::sort(order.begin(), order.end(), [&](int a, int b) { return at[a] < at[b]; });
  const int64_t extents[3] = {inChannels / groups, ws[k[2]], ws[k[3]]};
  std::string lower = layout;
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  Stage s;
  s.name = (groups > 1 ? "group_conv2d_" : "conv2d_") + lower;
  s.out = T::makeBuffer(s.name, out.dtype, out.shape);
  for (int o : order) s.reduce.push_back(extents[o]);
  const int64_t perGroupIn = inChannels / groups, perGroupOut = filters / groups;
  s.value = [&](const Exprs& v, const Exprs& r) {
    T::PrimExpr red[3];
    for (size_t i = 0; i < 3; ++i) red[order[i]] = r[i];
    const T::PrimExpr& ff = v[d[1]];
    // TE folds `ff // 1` and `* 1`: a depthwise convolution reads channel ff + rc.
    T::PrimExpr channel = red[0];
    if (groups > 1) {
      T::PrimExpr group = perGroupOut == 1 ? ff : T::binary(T::BinaryOp::FloorDiv, ff, i64(perGroupOut));
      channel = add(scaled(group, perGroupIn), red[0]);
    }
    Exprs xi(4), wi(4);
    xi[d[0]] = v[d[0]];
    xi[d[1]] = channel;
    xi[d[2]] = add(scaled(v[d[2]], stride[0]), scaled(red[1], dil[0]));
    xi[d[3]] = add(scaled(v[d[3]], stride[1]), scaled(red[2], dil[1]));
    wi[k[0]] = ff;
    wi[k[1]] = red[0];
    wi[k[2]] = red[1];
    wi[k[3]] = red[2];
    return mul(castTo(out.dtype, T::load(padded, xi)), castTo(out.dtype, T::load(in[1].buffer, wi)));
  };
  s.init = T::floatImm(out.dtype, 0);
  s.combine = [](T::PrimExpr a, T::PrimExpr b) { return add(std::move(a), std::move(b)); };
  return Kernel{"conv2d", s.out, root({pad, build(s)}, {padded})};
}

/// topi.nn.adaptive_pool (avg) to a 1×1 output (global average pooling):
/// "adaptive_pool_sum" over the whole H×W, then "adaptive_pool_avg".
std::optional<Kernel> globalAvgPool2d(const CallNode& call, const KernelInput& x, const TensorTypeNode& out) {
  std::vector<size_t> d = letters(attrOrDefault(*call.op(), call.attrs, "layout").asString(), "NCHW");
  if (d.empty() || !x.buffer || x.buffer->shape.size() != 4 || !out.dtype.isFloat()) return std::nullopt;
  const auto& shape = x.buffer->shape;
  T::Buffer sum = T::makeBuffer("adaptive_pool_sum", out.dtype, out.shape);
  Stage s;
  s.name = sum->name;
  s.out = sum;
  s.reduce = {shape[d[2]], shape[d[3]]};
  s.value = [&](const Exprs& v, const Exprs& r) {
    Exprs idx = v;
    idx[d[2]] = r[0];
    idx[d[3]] = r[1];
    return T::load(x.buffer, idx);
  };
  s.init = T::floatImm(out.dtype, 0);
  s.combine = [](T::PrimExpr a, T::PrimExpr b) { return add(std::move(a), std::move(b)); };
  Stage avg;
  avg.name = "adaptive_pool_avg";
  avg.out = T::makeBuffer(avg.name, out.dtype, out.shape);
  const double count = static_cast<double>(shape[d[2]] * shape[d[3]]);
  avg.value = [&](const Exprs& v, const Exprs&) { return T::binary(T::BinaryOp::Div, T::load(sum, v), T::floatImm(out.dtype, count)); };
  avg.annotations.set("schedule_rule", AttrValue::string("meta_schedule.adaptive_pool_avg"));
  return Kernel{"adaptive_avg_pool2d", avg.out, root({build(s), build(avg)}, {sum})};
}

/// topi.nn.pool2d (avg): "pool_sum" over the window, then "pool_avg" dividing
/// by the window size (count_include_pad) or by the elements inside the input.
std::optional<Kernel> avgPool2d(const CallNode& call, const KernelInput& x, const TensorTypeNode& out) {
  const OpDef& op = *call.op();
  std::vector<size_t> d = letters(attrOrDefault(op, call.attrs, "layout").asString(), "NCHW");
  if (d.empty() || attrOrDefault(op, call.attrs, "ceil_mode").asBool() || !x.buffer || x.buffer->shape.size() != 4 || !out.dtype.isFloat())
    return std::nullopt;
  std::array<int64_t, 4> p = pad4(attrOrDefault(op, call.attrs, "padding").asInts());
  std::vector<int64_t> pool = pair(attrOrDefault(op, call.attrs, "pool_size").asInts());
  std::vector<int64_t> stride = pair(attrOrDefault(op, call.attrs, "strides").asInts());
  std::vector<int64_t> dil = pair(attrOrDefault(op, call.attrs, "dilation").asInts());
  const bool includePad = attrOrDefault(op, call.attrs, "count_include_pad").asBool();
  std::vector<T::Stmt> stages;
  std::vector<T::Buffer> scratch;
  T::Buffer src = x.buffer;
  const bool padded = p[0] || p[1] || p[2] || p[3];
  if (padded) {
    std::vector<int64_t> shape = src->shape;
    shape[d[2]] += p[0] + p[2];
    shape[d[3]] += p[1] + p[3];
    T::Buffer padBuf = T::makeBuffer("pad_temp", src->dtype, shape);
    stages.push_back(padStage(x, padBuf, p, T::floatImm(src->dtype, 0), d[2], d[3]));
    scratch.push_back(padBuf);
    src = padBuf;
  }
  T::Buffer sum = T::makeBuffer("pool_sum", out.dtype, out.shape);
  Stage s;
  s.name = sum->name;
  s.out = sum;
  s.reduce = {pool[0], pool[1]};
  s.value = [&](const Exprs& v, const Exprs& r) {
    Exprs idx = v;
    idx[d[2]] = add(scaled(v[d[2]], stride[0]), scaled(r[0], dil[0]));
    idx[d[3]] = add(scaled(v[d[3]], stride[1]), scaled(r[1], dil[1]));
    return T::load(src, idx);
  };
  s.init = T::floatImm(out.dtype, 0);
  s.combine = [](T::PrimExpr a, T::PrimExpr b) { return add(std::move(a), std::move(b)); };
  stages.push_back(build(s));
  scratch.push_back(sum);
  const auto& shape = x.buffer->shape;
  Stage avg;
  avg.name = "pool_avg";
  avg.out = T::makeBuffer(avg.name, out.dtype, out.shape);
  avg.value = [&](const Exprs& v, const Exprs&) -> T::PrimExpr {
    if (includePad || !padded)
      return T::binary(T::BinaryOp::Div, T::load(sum, v), T::floatImm(out.dtype, static_cast<double>(pool[0] * pool[1])));
    // The window clipped to the input: (min(end, extent) - max(start, 0)) per axis.
    auto count = [&](size_t axis, int64_t s0, int64_t k, int64_t dl, int64_t before, int64_t extent) {
      T::PrimExpr start = sub(scaled(v[axis], s0), i64(before));
      T::PrimExpr end = add(start, i64((k - 1) * dl + 1));
      return sub(T::binary(T::BinaryOp::Min, end, i64(extent)), T::binary(T::BinaryOp::Max, start, i64(0)));
    };
    T::PrimExpr n = mul(count(d[2], stride[0], pool[0], dil[0], p[0], shape[d[2]]), count(d[3], stride[1], pool[1], dil[1], p[1], shape[d[3]]));
    return T::binary(T::BinaryOp::Div, T::load(sum, v), T::cast(out.dtype, T::binary(T::BinaryOp::Max, n, i64(1))));
  };
  avg.annotations.set("schedule_rule", AttrValue::string("meta_schedule.pool_avg"));
  stages.push_back(build(avg));
  return Kernel{"avg_pool2d", avg.out, root(std::move(stages), std::move(scratch))};
}

std::optional<Kernel> maxPool2d(const CallNode& call, const std::vector<KernelInput>& in, const TensorTypeNode& out) {
  const OpDef& op = *call.op();
  if (attrOrDefault(op, call.attrs, "layout").asString() != "NCHW" || attrOrDefault(op, call.attrs, "ceil_mode").asBool()) return std::nullopt;
  if (!in[0].buffer || in[0].buffer->shape.size() != 4 || !out.dtype.isFloat()) return std::nullopt;
  std::array<int64_t, 4> p = pad4(attrOrDefault(op, call.attrs, "padding").asInts());
  std::vector<int64_t> pool = pair(attrOrDefault(op, call.attrs, "pool_size").asInts());
  std::vector<int64_t> stride = pair(attrOrDefault(op, call.attrs, "strides").asInts());
  std::vector<int64_t> dil = pair(attrOrDefault(op, call.attrs, "dilation").asInts());
  double lowest = out.dtype == DataType(DTypeCode::Float16) ? -65504.0 : out.dtype == DataType(DTypeCode::Float64)
                                                                           ? std::numeric_limits<double>::lowest()
                                                                           : static_cast<double>(std::numeric_limits<float>::lowest());
  T::PrimExpr minValue = T::floatImm(out.dtype, lowest);
  std::vector<T::Stmt> stages;
  std::vector<T::Buffer> scratch;
  T::Buffer src = in[0].buffer;
  if (p[0] || p[1] || p[2] || p[3]) {
    const auto& ds = src->shape;
    T::Buffer padded = T::makeBuffer("pad_temp", src->dtype, {ds[0], ds[1], ds[2] + p[0] + p[2], ds[3] + p[1] + p[3]});
    stages.push_back(padStage(in[0], padded, p, minValue));
    scratch.push_back(padded);
    src = padded;
  }
  Stage s;
  s.name = "pool_max";
  s.out = T::makeBuffer("pool_max", out.dtype, out.shape);
  s.reduce = {pool[0], pool[1]};
  s.value = [&](const Exprs& v, const Exprs& r) {
    return T::load(src, {v[0], v[1], add(scaled(v[2], stride[0]), scaled(r[0], dil[0])), add(scaled(v[3], stride[1]), scaled(r[1], dil[1]))});
  };
  s.init = minValue;
  s.combine = [](T::PrimExpr a, T::PrimExpr b) { return T::binary(T::BinaryOp::Max, std::move(a), std::move(b)); };
  s.annotations.set("schedule_rule", AttrValue::string("meta_schedule.pool_max"));
  stages.push_back(build(s));
  return Kernel{"max_pool2d", s.out, root(std::move(stages), std::move(scratch))};
}

std::optional<Kernel> matmul(const std::vector<KernelInput>& in, const TensorTypeNode& out) {
  if (!in[0].buffer || !in[1].buffer) return std::nullopt;
  const auto& a = in[0].buffer->shape;
  const auto& b = in[1].buffer->shape;
  // Batch dimensions broadcast like an elementwise op; vectors are not handled here.
  if (a.size() < 2 || b.size() < 2 || out.shape.size() != std::max(a.size(), b.size())) return std::nullopt;
  Stage s;
  s.name = "matmul";
  s.out = T::makeBuffer("matmul", out.dtype, out.shape);
  s.reduce = {a.back()};
  size_t n = out.shape.size();
  s.value = [&, n](const Exprs& v, const Exprs& r) {
    std::vector<int64_t> batch(out.shape.begin(), out.shape.end() - 2);
    Exprs vb(v.begin(), v.end() - 2);
    auto batchIdx = [&](const std::vector<int64_t>& shape) {
      Exprs idx;
      size_t lead = batch.size() - (shape.size() - 2);
      for (size_t d = 0; d + 2 < shape.size(); ++d) idx.push_back(shape[d] == 1 && batch[lead + d] != 1 ? i64(0) : vb[lead + d]);
      return idx;
    };
    Exprs ia = batchIdx(a), ib = batchIdx(b);
    ia.push_back(v[n - 2]);
    ia.push_back(r[0]);
    ib.push_back(r[0]);
    ib.push_back(v[n - 1]);
    return mul(castTo(out.dtype, T::load(in[0].buffer, ia)), castTo(out.dtype, T::load(in[1].buffer, ib)));
  };
  s.init = T::floatImm(out.dtype, 0);
  if (!out.dtype.isFloat()) s.init = T::intImm(out.dtype, 0);
  s.combine = [](T::PrimExpr x, T::PrimExpr y) { return add(std::move(x), std::move(y)); };
  return Kernel{"matmul", s.out, root({build(s)}, {})};
}

std::optional<Kernel> reshape(const std::vector<KernelInput>& in, const TensorTypeNode& out) {
  if (!in[0].buffer) return std::nullopt;
  const auto& shape = in[0].buffer->shape;
  Stage s;
  s.name = "T_reshape";
  s.out = T::makeBuffer("T_reshape", out.dtype, out.shape);
  // topi.reshape: the output's flat position unravelled over the input's shape.
  s.value = [&](const Exprs& v, const Exprs&) { return T::load(in[0].buffer, reshapeIndex(out.shape, v, shape)); };
  return Kernel{"reshape", s.out, root({build(s)}, {})};
}

std::optional<Kernel> transpose(const CallNode& call, const std::vector<KernelInput>& in, const TensorTypeNode& out) {
  if (!in[0].buffer) return std::nullopt;
  size_t n = in[0].buffer->shape.size();
  std::vector<int64_t> axes = attrOrDefault(*call.op(), call.attrs, "axes").asInts();
  if (axes.empty())
    for (size_t d = n; d-- > 0;) axes.push_back(static_cast<int64_t>(d));
  if (axes.size() != n) return std::nullopt;
  Stage s;
  s.name = "T_transpose";
  s.out = T::makeBuffer("T_transpose", out.dtype, out.shape);
  s.value = [&](const Exprs& v, const Exprs&) {
    Exprs idx(n);
    for (size_t d = 0; d < n; ++d) idx[static_cast<size_t>((axes[d] + static_cast<int64_t>(n)) % static_cast<int64_t>(n))] = v[d];
    return T::load(in[0].buffer, idx);
  };
  return Kernel{"transpose", s.out, root({build(s)}, {})};
}

/// topi.nn.softmax: the maximum along the axis, exp of the difference, its
/// sum along the axis, the quotient (four stages; the first three scratch).
std::optional<Kernel> softmax(const CallNode& call, const KernelInput& x, const TensorTypeNode& out) {
  if (!x.buffer || !out.dtype.isFloat()) return std::nullopt;
  const auto& shape = x.buffer->shape;
  const int64_t rank = static_cast<int64_t>(shape.size());
  int64_t axis = attrOrDefault(*call.op(), call.attrs, "axis").asInt();
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) return std::nullopt;
  const size_t a = static_cast<size_t>(axis);
  std::vector<int64_t> reduced;
  for (size_t d = 0; d < shape.size(); ++d)
    if (d != a) reduced.push_back(shape[d]);
  auto withAxis = [a](const Exprs& v, const T::PrimExpr& k) {
    Exprs idx(v.begin(), v.end());
    idx.insert(idx.begin() + static_cast<std::ptrdiff_t>(a), k);
    return idx;
  };
  auto withoutAxis = [a](const Exprs& v) {
    Exprs idx(v.begin(), v.end());
    idx.erase(idx.begin() + static_cast<std::ptrdiff_t>(a));
    return idx;
  };
  T::Buffer maxelem = T::makeBuffer("T_softmax_maxelem", out.dtype, reduced);
  T::Buffer expb = T::makeBuffer("T_softmax_exp", out.dtype, shape);
  T::Buffer expsum = T::makeBuffer("T_softmax_expsum", out.dtype, reduced);
  T::Buffer norm = T::makeBuffer("T_softmax_norm", out.dtype, out.shape);
  std::vector<T::Stmt> stages;
  {
    Stage s;
    s.name = maxelem->name;
    s.out = maxelem;
    s.reduce = {shape[a]};
    s.value = [&](const Exprs& v, const Exprs& r) { return T::load(x.buffer, withAxis(v, r[0])); };
    s.init = T::floatImm(out.dtype, out.dtype == DataType(DTypeCode::Float16) ? -65504.0 : static_cast<double>(std::numeric_limits<float>::lowest()));
    s.combine = [](T::PrimExpr p, T::PrimExpr q) { return T::binary(T::BinaryOp::Max, std::move(p), std::move(q)); };
    stages.push_back(build(s));
  }
  {
    Stage s;
    s.name = expb->name;
    s.out = expb;
    s.value = [&](const Exprs& v, const Exprs&) {
      return T::call(out.dtype, "exp", {sub(T::load(x.buffer, v), T::load(maxelem, withoutAxis(v)))});
    };
    stages.push_back(build(s));
  }
  {
    Stage s;
    s.name = expsum->name;
    s.out = expsum;
    s.reduce = {shape[a]};
    s.value = [&](const Exprs& v, const Exprs& r) { return T::load(expb, withAxis(v, r[0])); };
    s.init = T::floatImm(out.dtype, 0);
    s.combine = [](T::PrimExpr p, T::PrimExpr q) { return add(std::move(p), std::move(q)); };
    stages.push_back(build(s));
  }
  {
    Stage s;
    s.name = norm->name;
    s.out = norm;
    s.value = [&](const Exprs& v, const Exprs&) {
      return T::binary(T::BinaryOp::Div, T::load(expb, v), T::load(expsum, withoutAxis(v)));
    };
    s.annotations.set("axis", AttrValue::integer(axis));
    stages.push_back(build(s));
  }
  return Kernel{"softmax", norm, root(std::move(stages), {maxelem, expb, expsum})};
}

/// Unary ops through topi's elementwise computes: (PrimFunc name, block name,
/// the element).
std::optional<Kernel> unary(OpId id, const KernelInput& x, const TensorTypeNode& out) {
  std::string name, block = "compute";
  std::function<T::PrimExpr(T::PrimExpr)> f;
  auto intrinsic = [&](const char* fn) {
    name = std::string("tir_") + fn;  // TVM's prefix keeps kernels apart from libc's exp, sqrt, ...
    f = [fn](T::PrimExpr e) { return T::call(e->dtype, fn, {e}); };
  };
  switch (id) {
    case OpId::Relu:
      name = "relu";
      f = [](T::PrimExpr e) { return T::binary(T::BinaryOp::Max, e, e->dtype.isFloat() ? T::floatImm(e->dtype, 0) : T::intImm(e->dtype, 0)); };
      break;
    case OpId::Exp: intrinsic("exp"); break;
    case OpId::Sqrt: intrinsic("sqrt"); break;
    case OpId::Tanh: intrinsic("tanh"); break;
    case OpId::Sigmoid: intrinsic("sigmoid"); break;
    case OpId::Log: intrinsic("log"); break;
    default: return std::nullopt;
  }
  if (!out.dtype.isFloat()) return std::nullopt;
  Stage s;
  s.name = block;
  s.out = T::makeBuffer(block, out.dtype, out.shape);
  s.value = [&](const Exprs& v, const Exprs&) { return f(read(x, v)); };
  return Kernel{name, s.out, root({build(s)}, {})};
}

/// A chain of elementwise topi stages over one input (TE's names: a stage's
/// block is named after its compute, made unique with _1, _2, ...); every
/// stage but the last writes a scratch buffer.
struct ElementwiseChain {
  const TensorTypeNode& out;
  std::vector<T::Stmt> stages;
  std::vector<T::Buffer> scratch;
  std::map<std::string, int> used;

  /// Adds a stage computing `f(v)`; returns its buffer.
  T::Buffer stage(const std::string& name, const std::function<T::PrimExpr(const Exprs&)>& f) {
    int n = used[name]++;
    Stage s;
    s.name = n == 0 ? name : name + "_" + std::to_string(n);
    s.out = T::makeBuffer(s.name, out.dtype, out.shape);
    s.value = [&](const Exprs& v, const Exprs&) { return f(v); };
    stages.push_back(build(s));
    scratch.push_back(s.out);
    return s.out;
  }

  Kernel finish(const std::string& name) {
    T::Buffer result = scratch.back();
    scratch.pop_back();
    return Kernel{name, result, root(std::move(stages), std::move(scratch))};
  }
};

/// TVM's gelu legalization: x * (0.5 + erf(x * sqrt(1/2)) * 0.5), each step a topi stage.
std::optional<Kernel> gelu(const KernelInput& x, const TensorTypeNode& out) {
  if (!x.buffer || !out.dtype.isFloat() || out.dtype == DataType(DTypeCode::Float16)) return std::nullopt;
  ElementwiseChain c{out, {}, {}, {}};
  const DataType d = out.dtype;
  T::Buffer scaledIn = c.stage("T_multiply", [&](const Exprs& v) { return mul(T::load(x.buffer, v), T::floatImm(d, 0.70710678118654757)); });
  T::Buffer erf = c.stage("compute", [&](const Exprs& v) { return T::call(d, "erf", {T::load(scaledIn, v)}); });
  T::Buffer half = c.stage("T_multiply", [&](const Exprs& v) { return mul(T::load(erf, v), T::floatImm(d, 0.5)); });
  T::Buffer sum = c.stage("T_add", [&](const Exprs& v) { return add(T::floatImm(d, 0.5), T::load(half, v)); });
  c.stage("T_multiply", [&](const Exprs& v) { return mul(T::load(x.buffer, v), T::load(sum, v)); });
  return c.finish("gelu");
}

/// TVM's silu legalization: topi.multiply(x, topi.sigmoid(x)).
std::optional<Kernel> silu(const KernelInput& x, const TensorTypeNode& out) {
  if (!x.buffer || !out.dtype.isFloat()) return std::nullopt;
  ElementwiseChain c{out, {}, {}, {}};
  T::Buffer sig = c.stage("compute", [&](const Exprs& v) { return T::call(out.dtype, "sigmoid", {T::load(x.buffer, v)}); });
  c.stage("T_multiply", [&](const Exprs& v) { return mul(T::load(x.buffer, v), T::load(sig, v)); });
  return c.finish("silu");
}

/// topi.clip: max(min(x, a_max), a_min) in one "compute" stage.
std::optional<Kernel> clip(const CallNode& call, const KernelInput& x, const TensorTypeNode& out) {
  if (!x.buffer || !out.dtype.isFloat()) return std::nullopt;
  const double lo = attrOrDefault(*call.op(), call.attrs, "a_min").asFloat();
  const double hi = attrOrDefault(*call.op(), call.attrs, "a_max").asFloat();
  Stage s;
  s.name = "compute";
  s.out = T::makeBuffer(s.name, out.dtype, out.shape);
  s.value = [&](const Exprs& v, const Exprs&) {
    return T::binary(T::BinaryOp::Max, T::binary(T::BinaryOp::Min, T::load(x.buffer, v), T::floatImm(out.dtype, hi)), T::floatImm(out.dtype, lo));
  };
  return Kernel{"clip", s.out, root({build(s)}, {})};
}

/// nn.bias_add (passlab's Relay op, which TVM's Relax has not: its importers
/// write R.add of a reshaped bias): topi.nn.bias_add's add, the bias read
/// along `axis`, in one "T_add" stage.
std::optional<Kernel> biasAdd(const CallNode& call, const std::vector<KernelInput>& in, const TensorTypeNode& out) {
  if (!in[0].buffer || !in[1].buffer || in[1].buffer->shape.size() != 1) return std::nullopt;
  const int64_t rank = static_cast<int64_t>(out.shape.size());
  int64_t axis = attrOrDefault(*call.op(), call.attrs, "axis").asInt();
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) return std::nullopt;
  Stage s;
  s.name = "T_add";
  s.out = T::makeBuffer(s.name, out.dtype, out.shape);
  s.value = [&, axis](const Exprs& v, const Exprs&) {
    return add(T::load(in[0].buffer, v), T::load(in[1].buffer, {v[static_cast<size_t>(axis)]}));
  };
  return Kernel{"bias_add", s.out, root({build(s)}, {})};
}

/// nn.dense (x · wᵀ): topi.nn.dense's "T_matmul_NT" reduction.
std::optional<Kernel> dense(const std::vector<KernelInput>& in, const TensorTypeNode& out) {
  if (!in[0].buffer || !in[1].buffer || in[0].buffer->shape.size() != 2 || in[1].buffer->shape.size() != 2 || out.shape.size() != 2)
    return std::nullopt;
  Stage s;
  s.name = "T_matmul_NT";
  s.out = T::makeBuffer(s.name, out.dtype, out.shape);
  s.reduce = {in[0].buffer->shape[1]};
  s.value = [&](const Exprs& v, const Exprs& r) {
    return mul(castTo(out.dtype, T::load(in[0].buffer, {v[0], r[0]})), castTo(out.dtype, T::load(in[1].buffer, {v[1], r[0]})));
  };
  s.init = out.dtype.isFloat() ? T::floatImm(out.dtype, 0) : T::intImm(out.dtype, 0);
  s.combine = [](T::PrimExpr a, T::PrimExpr b) { return add(std::move(a), std::move(b)); };
  return Kernel{"dense", s.out, root({build(s)}, {})};
}

}  // namespace

bool kernelDependsOnInputNames(const CallNode& call) {
  const OpDef* op = call.op();
  if (!op) return false;
  // group_norm's tuple reduction is "<x>_red_temp" (passes/legalize_relax_group_norm.cpp);
  // batch_norm's training form reduces its input, "<x>_red" (passes/legalize_relax_norm.cpp).
  if (op->id == OpId::GroupNorm) return true;
  return op->id == OpId::BatchNorm && attrOrDefault(*op, call.attrs, "training").asBool();
}

std::optional<Kernel> buildKernel(const CallNode& call, const std::vector<KernelInput>& in, const TensorTypeNode& out) {
  const OpDef* op = call.op();
  if (!op) return std::nullopt;
  if (std::optional<T::BinaryOp> b = binaryOf(op->id); b && in.size() == 2) {
    std::string name(op->name);
    Stage s;
    s.name = "T_" + name;
    s.out = T::makeBuffer(s.name, out.dtype, out.shape);
    T::BinaryOp bop = *b;
    s.value = [&](const Exprs& v, const Exprs&) {
      return T::binary(bop, read(in[0], broadcastIndex(in[0], out.shape, v)), read(in[1], broadcastIndex(in[1], out.shape, v)));
    };
    return Kernel{name, s.out, root({build(s)}, {})};
  }
  switch (op->id) {
    case OpId::Conv2D: return in.size() == 2 ? conv2d(call, in, out) : std::nullopt;
    case OpId::MaxPool2D: return in.size() == 1 ? maxPool2d(call, in, out) : std::nullopt;
    case OpId::Matmul: return in.size() == 2 ? matmul(in, out) : std::nullopt;
    case OpId::Reshape: return in.size() == 1 ? reshape(in, out) : std::nullopt;
    case OpId::GroupNorm: return groupNorm(call, in, out);
    case OpId::Transpose: return in.size() == 1 ? transpose(call, in, out) : std::nullopt;
    case OpId::Softmax: return in.size() == 1 ? softmax(call, in[0], out) : std::nullopt;
    case OpId::GlobalAvgPool2D: return in.size() == 1 ? globalAvgPool2d(call, in[0], out) : std::nullopt;
    case OpId::AvgPool2D: return in.size() == 1 ? avgPool2d(call, in[0], out) : std::nullopt;
    case OpId::Gelu: return in.size() == 1 ? gelu(in[0], out) : std::nullopt;
    case OpId::Silu: return in.size() == 1 ? silu(in[0], out) : std::nullopt;
    case OpId::Clip: return in.size() == 1 ? clip(call, in[0], out) : std::nullopt;
    case OpId::BiasAdd: return in.size() == 2 ? biasAdd(call, in, out) : std::nullopt;
    case OpId::Dense: return in.size() == 2 ? dense(in, out) : std::nullopt;
    default: return in.size() == 1 ? unary(op->id, in[0], out) : std::nullopt;
  }
}

}  // namespace passlab::legalize_relax
