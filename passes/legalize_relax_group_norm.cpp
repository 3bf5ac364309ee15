// The Relax-form kernel of nn.group_norm (topi.nn.group_norm through
// te.create_prim_func), and the index arithmetic of topi.reshape as TVM's
// simplifier leaves it, which group_norm's reshapes and the reshape kernel share.
#include <algorithm>
#include <limits>

#include "passes/legalize_relax.h"
#include "passes/legalize_relax_te.h"

namespace passlab::legalize_relax {

namespace {

namespace T = tir;

// ---- TVM's canonical form of index arithmetic (arith/canonical_simplify.cc) ---
// A term is ((index % upper) // lower) * scale; a sum keeps its terms sorted by
// scale, then lower, then upper factor, largest first (a stable sort, so ties
// keep their order). Division and modulo by a constant drop or divide the
// terms the constant divides and fold the rest into one term. topi.reshape's
// indices are simplified twice (rewrite, then canonical), which merges a lone
// term's factors: ((x // 2) // 2) is x // 4, as TVM prints it.

constexpr int64_t kNoUpper = std::numeric_limits<int64_t>::max();

struct Term {
  T::PrimExpr index;
  int64_t lower = 1;
  int64_t upper = kNoUpper;
  int64_t scale = 1;
};
using Sum = std::vector<Term>;

T::PrimExpr normalize(const Term& t) {
  T::PrimExpr r = t.index;
  if (t.upper != kNoUpper) r = T::binary(T::BinaryOp::FloorMod, r, i64(t.upper));
  if (t.lower != 1) r = T::binary(T::BinaryOp::FloorDiv, r, i64(t.lower));
  if (t.scale != 1) r = mul(r, i64(t.scale));
  return r;
}

void sortSum(Sum& s) {
  s.erase(std::remove_if(s.begin(), s.end(), [](const Term& t) { return t.scale == 0; }), s.end());
  std::stable_sort(s.begin(), s.end(), [](const Term& a, const Term& b) {
    if (a.scale != b.scale) return a.scale > b.scale;
    if (a.lower != b.lower) return a.lower > b.lower;
    return a.upper > b.upper;
  });
}

T::PrimExpr normalize(const Sum& s) {
  T::PrimExpr r;
  for (const Term& t : s) r = r ? add(r, normalize(t)) : normalize(t);
  return r ? r : i64(0);
}

/// TVM's ToSplitExpr: a lone term stays itself; a sum becomes one term over it.
Term asTerm(const Sum& s) {
  if (s.size() == 1) return s[0];
  return Term{normalize(s)};
}

/// TVM's SplitDivConst (floor division).
Term divTerm(Term t, int64_t d) {
  if (t.scale % d == 0) {
    t.scale /= d;
    return t;
  }
  if (d % t.scale == 0) {
    const int64_t scaled = d / t.scale;
    if (t.upper == kNoUpper || t.upper % (t.lower * scaled) == 0) {
      t.scale = 1;
      t.lower *= scaled;
      return t;
    }
    if (t.upper <= t.lower * scaled) return Term{i64(0), 1, kNoUpper, 0};
    t.index = T::binary(T::BinaryOp::FloorMod, t.index, i64(t.upper));
    t.upper = kNoUpper;
    t.scale = 1;
    t.lower *= scaled;
    return t;
  }
  Term fresh{normalize(t)};
  fresh.lower = d;
  return fresh;
}

/// TVM's SplitModConst (floor modulo).
Term modTerm(Term t, int64_t d) {
  if (t.scale % d == 0) {
    t.scale = 0;
    return t;
  }
  if (d % t.scale == 0) {
    const int64_t upper = t.lower * (d / t.scale);
    if (t.upper == kNoUpper || t.upper % upper == 0) {
      t.upper = upper;
      return t;
    }
    if (upper % t.upper == 0) return t;
  }
  Term fresh{normalize(t)};
  fresh.upper = d;
  return fresh;
}

/// `s // d`: the terms d divides, divided, and the rest folded into one term.
Sum divSum(Sum s, int64_t d) {
  if (d == 1) return s;
  Sum kept, rest;
  for (Term& t : s) {
    if (t.scale % d == 0) {
      t.scale /= d;
      kept.push_back(t);
    } else {
      rest.push_back(t);
    }
  }
  if (!rest.empty()) kept.push_back(divTerm(asTerm(rest), d));
  sortSum(kept);
  return kept;
}

/// `s % d`: the terms d divides dropped, the rest folded into one term.
Sum modSum(const Sum& s, int64_t d) {
  Sum rest;
  for (const Term& t : s)
    if (t.scale % d != 0) rest.push_back(t);
  if (rest.empty()) return {};
  Sum out{modTerm(asTerm(rest), d)};
  sortSum(out);
  return out;
}

}  // namespace

Exprs reshapeIndex(const std::vector<int64_t>& outShape, const Exprs& idx, const std::vector<int64_t>& inShape) {
  // RavelIndex: the flat position in Horner's form, each index a term.
  Sum flat;
  for (size_t d = 0; d < idx.size(); ++d) {
    for (Term& t : flat) t.scale *= outShape[d];
    flat.push_back(Term{idx[d]});
  }
  sortSum(flat);
  // UnravelIndex: from the last dimension, flat % extent, then flat // extent.
  Exprs out(inShape.size());
  for (size_t d = inShape.size(); d-- > 0;) {
    out[d] = normalize(modSum(flat, inShape[d]));
    flat = divSum(flat, inShape[d]);
  }
  return out;
}

namespace {

/// A te.compute stage over `shape` whose value reads other buffers at the
/// spatial indices: block `name` writing `out`.
T::Stmt spatialStage(const std::string& name, const T::Buffer& out, std::function<T::PrimExpr(const Exprs&)> value) {
  Stage s;
  s.name = name;
  s.out = out;
  s.value = [value](const Exprs& v, const Exprs&) { return value(v); };
  return build(s);
}

}  // namespace

std::optional<Kernel> groupNorm(const CallNode& call, const std::vector<KernelInput>& in, const TensorTypeNode& out) {
  const OpDef& op = *call.op();
  if (in.size() != 3) return std::nullopt;
  for (const KernelInput& i : in)
    if (!i.buffer) return std::nullopt;
  const T::Buffer& x = in[0].buffer;
  const DataType dt = x->dtype;
  // topi casts float16 through float32; only float32 is written here.
  if (dt != DataType(DTypeCode::Float32) || in[1].buffer->dtype != dt || in[2].buffer->dtype != dt) return std::nullopt;
  const std::vector<int64_t> shape = x->shape;
  const int64_t rank = static_cast<int64_t>(shape.size());
  int64_t channel = attrOrDefault(op, call.attrs, "channel_axis").asInt();
  if (channel < 0) channel += rank;
  const int64_t groups = attrOrDefault(op, call.attrs, "num_groups").asInt();
  if (channel < 0 || channel >= rank || groups <= 0 || shape[static_cast<size_t>(channel)] % groups != 0) return std::nullopt;
  const size_t c = static_cast<size_t>(channel);
  const int64_t channels = shape[c], perGroup = channels / groups;
  if (in[1].buffer->shape != std::vector<int64_t>{channels} || in[2].buffer->shape != std::vector<int64_t>{channels}) return std::nullopt;
  // The data split at the channel axis into (group, channel in group); the
  // statistics run over the channel in group and the shifted `axes`.
  std::vector<int64_t> split;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (d == c) {
      split.push_back(groups);
      split.push_back(perGroup);
    } else {
      split.push_back(shape[d]);
    }
  }
  std::vector<size_t> axes{c + 1};
  for (const AttrValue& a : attrOrDefault(op, call.attrs, "axes").asArray()) {
    int64_t axis = a.asInt() < 0 ? a.asInt() + rank : a.asInt();
    if (axis < 0 || axis >= rank || axis == channel) return std::nullopt;
    axes.push_back(static_cast<size_t>(axis < channel ? axis : axis + 1));
  }
  std::sort(axes.begin(), axes.end());
  if (std::adjacent_find(axes.begin(), axes.end()) != axes.end()) return std::nullopt;
  auto reduced = [&](size_t d) { return std::find(axes.begin(), axes.end(), d) != axes.end(); };
  std::vector<int64_t> kept;
  double count = 1;
  for (size_t d = 0; d < split.size(); ++d) {
    if (reduced(d)) count *= static_cast<double>(split[d]);
    else kept.push_back(split[d]);
  }
  if (kept.empty()) kept.push_back(1);  // topi's atleast1d
  const double epsilon = attrOrDefault(op, call.attrs, "epsilon").asFloat();

  // te.create_prim_func names the output parameter first (T_reshape), then the
  // scratch buffers T_reshape_1.., and the blocks in post-order T_reshape, T_reshape_1, ...
  T::Buffer result = T::makeBuffer("T_reshape", dt, out.shape);
  T::Buffer xr = T::makeBuffer("T_reshape_1", dt, split);
  const std::string red = x->name + "_red_temp";
  T::Buffer sum = T::makeBuffer(red + "_v0", dt, kept);
  T::Buffer squares = T::makeBuffer(red + "_v1", dt, kept);
  const std::vector<int64_t> grouped{groups, perGroup};
  T::Buffer gammaR = T::makeBuffer("T_reshape_2", dt, grouped);
  T::Buffer betaR = T::makeBuffer("T_reshape_3", dt, grouped);
  T::Buffer normed = T::makeBuffer("T_group_norm", dt, split);

  std::vector<T::Stmt> stages;
  stages.push_back(spatialStage("T_reshape", xr, [&](const Exprs& v) { return T::load(x, reshapeIndex(split, v, shape)); }));

  // The tuple reduction (sum of x, sum of x * x) in one block.
  {
    BlockAxes nest;
    size_t spatialIndex = 0;
    for (size_t d = 0; d < split.size(); ++d)
      if (!reduced(d)) nest.add(split[d], T::IterKind::Spatial, "ax" + std::to_string(spatialIndex++));
    if (spatialIndex == 0) nest.add(1, T::IterKind::Spatial, "ax0");
    for (size_t d : axes) nest.add(split[d], T::IterKind::Reduce, "k" + std::to_string(d));
    const Exprs& sp = nest.spatial;
    const Exprs& rd = nest.reduce;
    Exprs at;
    for (size_t d = 0, s = 0, r = 0; d < split.size(); ++d) at.push_back(reduced(d) ? rd[r++] : sp[s++]);
    T::PrimExpr elem = T::load(xr, at);
    T::Var next0 = T::makeVar("v_" + red + "_v0", dt), next1 = T::makeVar("v_" + red + "_v1", dt);
    T::Stmt body = T::letStmt(next0, add(T::load(sum, sp), elem),
                              T::letStmt(next1, add(T::load(squares, sp), mul(elem, elem)),
                                         T::seq({T::store(sum, sp, next0), T::store(squares, sp, next1)})));
    T::Stmt init = T::seq({T::store(sum, sp, T::floatImm(dt, 0)), T::store(squares, sp, T::floatImm(dt, 0))});
    T::BufferRegion read{xr, {}};
    for (const T::PrimExpr& i : at) read.ranges.emplace_back(i, i64(1));
    std::vector<T::BufferRegion> writes;
    for (const T::Buffer& b : {sum, squares}) {
      T::BufferRegion w{b, {}};
      for (const T::PrimExpr& i : sp) w.ranges.emplace_back(i, i64(1));
      writes.push_back(std::move(w));
    }
    stages.push_back(nest.wrap(T::block(red, nest.ivs, nullptr, {read}, writes, {}, init, body)));
  }

  stages.push_back(spatialStage("T_reshape_1", gammaR, [&](const Exprs& v) { return T::load(in[1].buffer, reshapeIndex(grouped, v, {channels})); }));
  stages.push_back(spatialStage("T_reshape_2", betaR, [&](const Exprs& v) { return T::load(in[2].buffer, reshapeIndex(grouped, v, {channels})); }));
  stages.push_back(spatialStage("T_group_norm", normed, [&](const Exprs& v) {
    Exprs at;
    for (size_t d = 0; d < v.size(); ++d)
      if (!reduced(d)) at.push_back(v[d]);
    if (at.empty()) at.push_back(i64(0));
    auto mean = [&] { return T::binary(T::BinaryOp::Div, T::load(sum, at), T::floatImm(dt, count)); };
    T::PrimExpr var = sub(T::binary(T::BinaryOp::Div, T::load(squares, at), T::floatImm(dt, count)), mul(mean(), mean()));
    T::PrimExpr y = mul(sub(T::load(xr, v), mean()), T::call(dt, "rsqrt", {add(var, T::floatImm(dt, epsilon))}));
    // topi multiplies and adds whenever gamma and beta are given (Relax always
    // gives them); the center and scale flags decide here, as the op means them.
    const Exprs g{v[c], v[c + 1]};
    if (attrOrDefault(op, call.attrs, "scale").asBool()) y = mul(y, T::load(gammaR, g));
    if (attrOrDefault(op, call.attrs, "center").asBool()) y = add(y, T::load(betaR, g));
    return y;
  }));
  stages.push_back(spatialStage("T_reshape_3", result, [&](const Exprs& v) { return T::load(normed, reshapeIndex(shape, v, split)); }));
  if (result->shape != shape || out.dtype != dt) return std::nullopt;
  return Kernel{"group_norm", result, root(std::move(stages), {xr, sum, squares, gammaR, betaR, normed})};
}

}  // namespace passlab::legalize_relax
