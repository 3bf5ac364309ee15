// The block-form kernels of Relax-form LegalizeOps: what topi's compute
// definitions become through te.create_prim_func, op by op (TVM's
// python/tvm/relax/transform/legalize_ops/*.py chooses the topi function and
// the PrimFunc's name). Indices are int64, as Relax shapes are.
#include <functional>
#include <limits>

#include "core/ir/tir_functor.h"
#include "passes/legalize_relax.h"

namespace passlab::legalize_relax {

namespace {

namespace T = tir;
using Exprs = std::vector<T::PrimExpr>;

T::PrimExpr i64(int64_t v) { return T::intImm(DTypeCode::Int64, v); }
T::PrimExpr add(T::PrimExpr a, T::PrimExpr b) { return T::binary(T::BinaryOp::Add, std::move(a), std::move(b)); }
T::PrimExpr sub(T::PrimExpr a, T::PrimExpr b) { return T::binary(T::BinaryOp::Sub, std::move(a), std::move(b)); }
T::PrimExpr mul(T::PrimExpr a, T::PrimExpr b) { return T::binary(T::BinaryOp::Mul, std::move(a), std::move(b)); }
/// `a * k`, or `a` itself when k is 1 (TE folds the constant factor away).
T::PrimExpr scaled(const T::PrimExpr& a, int64_t k) { return k == 1 ? a : mul(a, i64(k)); }

/// Reads an input at `idx`: a load, or the inlined immediate.
T::PrimExpr read(const KernelInput& in, const Exprs& idx) { return in.buffer ? T::load(in.buffer, idx) : in.immediate; }

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

/// One computation stage, as te.compute writes it: a loop per axis (spatial
/// then reduce), a block binding one iteration variable per loop, reads and
/// writes at points, and for a reduction the init and the update.
struct Stage {
  std::string name;
  T::Buffer out;
  std::vector<int64_t> reduce;
  /// The value at the spatial and reduce iteration variables.
  std::function<T::PrimExpr(const Exprs&, const Exprs&)> value;
  /// For a reduction: the initial value and how an element is combined.
  T::PrimExpr init;
  std::function<T::PrimExpr(T::PrimExpr, T::PrimExpr)> combine;
  AttrDict annotations;
};

T::Stmt build(const Stage& s) {
  std::vector<T::Var> loops;
  std::vector<T::BlockIterVar> ivs;
  Exprs sp, rd;
  auto axis = [&](int64_t extent, T::IterKind kind, const std::string& name) {
    T::Var loop = T::makeVar(name, DTypeCode::Int64);
    T::Var v = T::makeVar("v_" + name, DTypeCode::Int64);
    loops.push_back(loop);
    ivs.push_back({v, i64(0), i64(extent), kind, loop});
    (kind == T::IterKind::Spatial ? sp : rd).push_back(v);
  };
  for (size_t d = 0; d < s.out->shape.size(); ++d) axis(s.out->shape[d], T::IterKind::Spatial, "i" + std::to_string(d));
  for (size_t d = 0; d < s.reduce.size(); ++d) axis(s.reduce[d], T::IterKind::Reduce, "k" + std::to_string(d));
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
  T::Stmt stmt = T::block(s.name, ivs, nullptr, reads.regions, {pointRegion(s.out, sp)}, {}, init, body, s.annotations);
  for (size_t i = loops.size(); i-- > 0;) stmt = T::forLoop(loops[i], i64(0), ivs[i].extent, T::ForKind::Serial, stmt);
  return stmt;
}

/// The implicit root block TVM's printer leaves out, holding the scratch buffers.
T::Stmt root(std::vector<T::Stmt> stages, std::vector<T::Buffer> scratch) {
  T::Stmt body = stages.size() == 1 ? stages[0] : T::seq(std::move(stages));
  return T::block("root", {}, nullptr, {}, {}, std::move(scratch), nullptr, body);
}

T::PrimExpr castTo(DataType d, const T::PrimExpr& e) { return e->dtype == d ? e : T::cast(d, e); }

/// The element index of `in` for output index `out` under numpy broadcasting:
/// a dimension of extent 1 against a larger one reads index 0.
Exprs broadcastIndex(const KernelInput& in, const std::vector<int64_t>& outShape, const Exprs& idx) {
  Exprs r;
  if (!in.buffer) return r;
  const auto& shape = in.buffer->shape;
  size_t lead = outShape.size() - shape.size();
  for (size_t d = 0; d < shape.size(); ++d) r.push_back(shape[d] == 1 && outShape[lead + d] != 1 ? i64(0) : idx[lead + d]);
  return r;
}

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

/// topi.nn.pad over the spatial dimensions 2 and 3 of an NCHW tensor: the
/// stage "pad_temp" (a copy when nothing is padded, as conv2d always pads).
T::Stmt padStage(const KernelInput& data, const T::Buffer& padded, const std::array<int64_t, 4>& p, T::PrimExpr padValue) {
  Stage s;
  s.name = "pad_temp";
  s.out = padded;
  const auto& shape = data.buffer->shape;
  s.value = [&, padValue](const Exprs& v, const Exprs&) {
    Exprs idx = v;
    T::PrimExpr cond;
    auto all = [&](T::PrimExpr c) { cond = cond ? T::binary(T::BinaryOp::And, cond, c) : c; };
    for (int d = 2; d < 4; ++d) {
      int64_t before = p[d - 2], after = p[d];
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

std::optional<Kernel> conv2d(const CallNode& call, const std::vector<KernelInput>& in, const TensorTypeNode& out) {
  const OpDef& op = *call.op();
  auto str = [&](const char* k) { return attrOrDefault(op, call.attrs, k).asString(); };
  if (str("data_layout") != "NCHW" || str("kernel_layout") != "OIHW" || attrOrDefault(op, call.attrs, "groups").asInt() != 1) return std::nullopt;
  std::string outLayout = str("out_layout");
  if (!outLayout.empty() && outLayout != "NCHW") return std::nullopt;
  if (!in[0].buffer || !in[1].buffer || in[0].buffer->shape.size() != 4) return std::nullopt;
  std::array<int64_t, 4> p = pad4(attrOrDefault(op, call.attrs, "padding").asInts());
  std::vector<int64_t> stride = pair(attrOrDefault(op, call.attrs, "strides").asInts());
  std::vector<int64_t> dil = pair(attrOrDefault(op, call.attrs, "dilation").asInts());
  const auto& ds = in[0].buffer->shape;
  const auto& ws = in[1].buffer->shape;
  T::Buffer padded = T::makeBuffer("pad_temp", in[0].buffer->dtype, {ds[0], ds[1], ds[2] + p[0] + p[2], ds[3] + p[1] + p[3]});
  T::Stmt pad = padStage(in[0], padded, p, T::floatImm(in[0].buffer->dtype, 0));
  Stage s;
  s.name = "conv2d_nchw";
  s.out = T::makeBuffer("conv2d_nchw", out.dtype, out.shape);
  s.reduce = {ws[1], ws[2], ws[3]};
  s.value = [&](const Exprs& v, const Exprs& r) {
    T::PrimExpr x = T::load(padded, {v[0], r[0], add(scaled(v[2], stride[0]), scaled(r[1], dil[0])), add(scaled(v[3], stride[1]), scaled(r[2], dil[1]))});
    T::PrimExpr w = T::load(in[1].buffer, {v[1], r[0], r[1], r[2]});
    return mul(castTo(out.dtype, x), castTo(out.dtype, w));
  };
  s.init = T::floatImm(out.dtype, 0);
  s.combine = [](T::PrimExpr a, T::PrimExpr b) { return add(std::move(a), std::move(b)); };
  return Kernel{"conv2d", s.out, root({pad, build(s)}, {padded})};
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
  s.value = [&](const Exprs& v, const Exprs&) {
    // The flat position in the output (Horner's form), then each input index
    // as topi writes it: flat % (extent of the trailing dims) // (their stride).
    T::PrimExpr flat;
    for (size_t d = 0; d < v.size(); ++d) flat = flat ? add(mul(flat, i64(out.shape[d])), v[d]) : v[d];
    if (!flat) flat = i64(0);
    Exprs idx;
    int64_t trailing = 1;
    std::vector<int64_t> strides(shape.size());
    for (size_t d = shape.size(); d-- > 0;) {
      strides[d] = trailing;
      trailing *= shape[d];
    }
    for (size_t d = 0; d < shape.size(); ++d) {
      if (shape[d] == 1) {
        idx.push_back(i64(0));
        continue;
      }
      T::PrimExpr e = T::binary(T::BinaryOp::FloorMod, flat, i64(strides[d] * shape[d]));
      if (strides[d] != 1) e = T::binary(T::BinaryOp::FloorDiv, e, i64(strides[d]));
      idx.push_back(e);
    }
    return T::load(in[0].buffer, idx);
  };
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

}  // namespace

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
    case OpId::Transpose: return in.size() == 1 ? transpose(call, in, out) : std::nullopt;
    case OpId::Softmax: return in.size() == 1 ? softmax(call, in[0], out) : std::nullopt;
    default: return in.size() == 1 ? unary(op->id, in[0], out) : std::nullopt;
  }
}

}  // namespace passlab::legalize_relax
