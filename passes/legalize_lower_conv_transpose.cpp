// LegalizeOps: nn.conv2d_transpose.
//
// A kernel as large as its stride (host, NCHW, float32, no padding, dilation,
// output padding or groups) is one GEMM per kernel position
// (lowerStrideSizedTranspose). Everything else:
//
// Lowered in gather form: each output element sums the input pixels that the
// reference kernel's scatter (col2im) would add into it,
//   out[n, g*OCg + o, y, x] = sum over ky, kx of
//       sum over c < ICg of data[n, g*ICg + c, iy, ix] * w[g*ICg + c, o, ky, kx]
// with iy = (y + pad_top - ky*dilation) / stride where that divides exactly
// and lands inside the input (likewise ix). A gather never has two iterations
// writing one element, so the outer loop can run in parallel and a fused
// elementwise epilogue sees each finished element once.
//
// The divisibility test is compiled away: output rows y = r, r + s, r + 2s, ...
// (one residue r of the stride s) all see the same kernel rows, an arithmetic
// progression, so the output is covered by s_h * s_w loop nests ("phases"),
// each with a guard-free reduction over only the taps that contribute. Taps
// that reach past the input read a zero border of a scratch copy, so the hot
// loop never tests bounds and never loads out of bounds.
//
// Summation order is the reference kernel's (core/interp/conv.cpp): per tap a
// sum over the group's channels starting from 0, taps added in (ky, kx) order,
// all in the accumulator type. Border taps add an exact zero, so float results
// are bit-identical to the interpreter's.
#include <algorithm>
#include <array>
#include <numeric>

#include "core/ir/op.h"
#include "passes/legalize_lower.h"

namespace passlab::legalize {

namespace {

namespace T = tir;
using T::BinaryOp;
using T::PrimExpr;

/// `v * scale + offset`, without the identity operations.
PrimExpr affine(PrimExpr v, int64_t scale, int64_t offset) {
  if (scale != 1) v = bin(BinaryOp::Mul, std::move(v), i32(scale));
  if (offset > 0) v = bin(BinaryOp::Add, std::move(v), i32(offset));
  if (offset < 0) v = bin(BinaryOp::Sub, std::move(v), i32(-offset));
  return v;
}

/// `a + b*scale`, without the identity operations (b*0 is dropped).
PrimExpr plusScaled(PrimExpr a, PrimExpr b, int64_t scale) {
  if (scale == 0) return a;
  if (scale < 0) return bin(BinaryOp::Sub, std::move(a), affine(std::move(b), -scale, 0));
  return bin(BinaryOp::Add, std::move(a), affine(std::move(b), scale, 0));
}

/// The output positions of one spatial axis that share a stride residue, and
/// the kernel taps that reach them.
struct Phase {
  /// First output position (the residue); positions are residue + stride * j.
  int64_t residue = 0;
  /// How many output positions (j ranges over [0, count)).
  int64_t count = 0;
  /// First contributing kernel index; tap t is kernel index firstTap + t * tapStride.
  int64_t firstTap = 0;
  /// Number of contributing taps (0: every output of the phase is zero).
  int64_t taps = 0;
  /// Input position of output j through tap t: j + base - t * inputStep.
  int64_t base = 0;
};

/// How one spatial axis (height or width) is split into phases.
struct AxisPlan {
  /// Kernel index step between consecutive contributing taps.
  int64_t tapStride = 1;
  /// Input position step between consecutive contributing taps.
  int64_t inputStep = 1;
  std::vector<Phase> phases;
  /// Zero border the scratch copy needs before / after the input so every
  /// phase's reads land inside it.
  int64_t padBefore = 0, padAfter = 0;
};

/// Output position y reads input (y + padBegin - k * dilation) / stride through
/// kernel index k when that divides exactly. For y = r + stride * j this is
/// exact for every j or for none, and the k that qualify step by
/// stride / gcd(stride, dilation).
AxisPlan planAxis(int64_t in, int64_t out, int64_t kernel, int64_t stride, int64_t dilation, int64_t padBegin) {
  AxisPlan p;
  int64_t g = std::gcd(stride, dilation);
  p.tapStride = stride / g;
  p.inputStep = dilation / g;
  for (int64_t r = 0; r < std::min(stride, out); ++r) {
    Phase ph;
    ph.residue = r;
    ph.count = (out - r + stride - 1) / stride;
    for (int64_t k = 0; k < std::min(p.tapStride, kernel); ++k) {
      int64_t offset = r + padBegin - k * dilation;
      if (((offset % stride) + stride) % stride != 0) continue;
      ph.firstTap = k;
      ph.taps = (kernel - 1 - k) / p.tapStride + 1;
      ph.base = offset / stride;  // exact, so truncation is floor division here
      break;
    }
    if (ph.taps > 0) {
      int64_t lowest = ph.base - (ph.taps - 1) * p.inputStep;
      int64_t highest = ph.count - 1 + ph.base;
      p.padBefore = std::max(p.padBefore, -lowest);
      p.padAfter = std::max(p.padAfter, highest - (in - 1));
    }
    p.phases.push_back(ph);
  }
  return p;
}

/// A 1- or 2-value window attribute as a pair, or Unsupported.
std::array<int64_t, 2> pair2(const OpLowering& l, std::string_view key) {
  std::vector<int64_t> v = attrInts(l, key);
  if (v.size() == 1) return {v[0], v[0]};
  if (v.size() == 2) return {v[0], v[1]};
  throw Unsupported("LegalizeOps: nn.conv2d_transpose " + std::string(key) + " must have 1 or 2 values");
}

/// The reference kernel's accumulator: float32 for float16/float32 data,
/// float64 for float64 and wrapping 64-bit integers for integer data (truncated
/// to the output type at the end, which is what wrapping in the output type gives).
DataType transposeAccumulator(DataType data) {
  return data.isFloat() ? accumulatorType(data) : DataType(DTypeCode::Int64);
}

/// A kernel as large as its stride, without padding, dilation, output
/// padding or groups (the 2x2 stride-2 upsampling of a detection or
/// segmentation head), host, NCHW, float32. Every output pixel then gets
/// exactly one tap: out[n, c, sh*y + ty, sw*x + tx] =
/// sum over rc of data[n, rc, y, x] * w[rc, c, ty, tx], one GEMM per kernel
/// position over the flattened input positions (as a pointwise convolution).
/// A tile holds 4 output channels x 32 positions x the sw column taps in
/// registers while rc is reduced, so each data vector serves 4 * sw products,
/// and leaves them in a staging buffer laid out like the data. The finish then
/// walks the output rows and stores the sw taps of a column next to each other
/// (an interleaved store, not a scatter). The gather form below kept one row
/// sum per (channel, tap), whose additions wait on each other: 0.69 ms for the
/// detector's 20x20 -> 40x40 layer. Each element is 0 + (the sum over rc from
/// 0 in order), the reference kernel's one tap, so results are bit-identical.
T::Stmt lowerStrideSizedTranspose(const OpLowering& l, const Operand& data, const Operand& weight, const std::vector<size_t>& kp,
                                  int64_t sh, int64_t sw) {
  const int64_t N = data.shape[0], IC = data.shape[1], H = data.shape[2], W = data.shape[3], P = H * W;
  const int64_t OC = l.out->shape[1];
  DataType accType = accumulatorType(l.out->dtype);
  // 4 channels x sw taps x 2 vectors of positions: 16 of AVX-512's 32
  // registers; one vector on a 16-register ISA (AVX2), which two would fill.
  constexpr int64_t kChannels = 4;
  const int64_t positions = l.isa.floats * (l.isa.registers >= 32 ? 2 : 1);
  T::Buffer stage = T::makeBuffer("convt_stage", accType, {sw, kChannels, P});
  // Channels [c0, c0 + cb) x positions [p0, p0 + pb) of image n, kernel row ty, into the staging buffer.
  auto tile = [&](const PrimExpr& n, const PrimExpr& ty, const PrimExpr& c0, int64_t cb, const PrimExpr& p0, int64_t pb) {
    T::Buffer acc = T::makeBuffer("convt_acc", accType, {sw, cb, pb});
    T::Var z = T::makeVar("pi"), pi = T::makeVar("pi"), keep = T::makeVar("pi"), rc = T::makeVar("rc");
    std::vector<T::Stmt> zero, update, staged;
    PrimExpr value = castTo(accType, read(data, {add(mul(add(mul(n, i32(IC)), rc), i32(P)), add(p0, pi))}));
    for (int64_t tx = 0; tx < sw; ++tx)
      for (int64_t ci = 0; ci < cb; ++ci) {
        zero.push_back(T::store(acc, {i32(tx), i32(ci), z}, constOf(accType, 0)));
        std::vector<PrimExpr> ki(4);
        ki[kp[0]] = add(c0, i32(ci)), ki[kp[1]] = rc, ki[kp[2]] = ty, ki[kp[3]] = i32(tx);
        PrimExpr product = mul(value, castTo(accType, read(weight, ki)));
        update.push_back(T::store(acc, {i32(tx), i32(ci), pi}, add(T::load(acc, {i32(tx), i32(ci), pi}), product)));
        staged.push_back(T::store(stage, {i32(tx), i32(ci), add(p0, keep)}, T::load(acc, {i32(tx), i32(ci), keep})));
      }
    return T::allocate(acc, T::seq({T::forLoop(z, i32(0), i32(pb), T::ForKind::Vectorized, T::seq(std::move(zero))),
                                    T::forLoop(rc, i32(0), i32(IC), T::ForKind::Serial,
                                               T::forLoop(pi, i32(0), i32(pb), T::ForKind::Vectorized, T::seq(std::move(update)))),
                                    T::forLoop(keep, i32(0), i32(pb), T::ForKind::Vectorized, T::seq(std::move(staged)))}));
  };
  auto block = [&](const PrimExpr& n, const PrimExpr& ty, const PrimExpr& c0, int64_t cb) {
    std::vector<T::Stmt> parts{
        overlappingTiles(P, positions, l.isa.floats, T::ForKind::Serial, [&](const PrimExpr& p0, int64_t pb) { return tile(n, ty, c0, cb, p0, pb); })};
    // The output rows of kernel row ty, each column's sw taps side by side,
    // in runs of a power-of-two width (the last run of a row overlapping the
    // one before): a run with a masked tail would make LLVM emulate the
    // interleaved store lane by lane.
    int64_t run = 1;
    while (run * 2 <= std::min<int64_t>(W, l.isa.floats)) run *= 2;
    T::Var ci = T::makeVar("ci"), y = T::makeVar("y"), k = T::makeVar("xo"), xi = T::makeVar("xi");
    PrimExpr x = add(bin(BinaryOp::Min, mul(k, i32(run)), i32(W - run)), xi);
    std::vector<T::Stmt> taps;
    for (int64_t tx = 0; tx < sw; ++tx) {
      PrimExpr sum = T::load(stage, {i32(tx), ci, add(mul(y, i32(W)), x)});
      taps.push_back(finishElement(l, {n, add(c0, ci), add(mul(y, i32(sh)), ty), add(mul(x, i32(sw)), i32(tx))}, add(constOf(accType, 0), sum)));
    }
    parts.push_back(T::forLoop(ci, i32(0), i32(cb), T::ForKind::Serial,
                               T::forLoop(y, i32(0), i32(H), T::ForKind::Serial,
                                          T::forLoop(k, i32(0), i32((W + run - 1) / run), T::ForKind::Serial,
                                                     T::forLoop(xi, i32(0), i32(run), T::ForKind::Vectorized, T::seq(std::move(taps)))))));
    return T::seq(std::move(parts));
  };
  T::Var n = T::makeVar("n"), ty = T::makeVar("ty");
  std::vector<T::Stmt> blocks;
  if (OC / kChannels > 0) {
    T::Var co = T::makeVar("co");
    // Serial: the blocks share the staging buffer.
    blocks.push_back(T::forLoop(co, i32(0), i32(OC / kChannels), T::ForKind::Serial, block(n, ty, mul(co, i32(kChannels)), kChannels)));
  }
  if (OC % kChannels > 0) blocks.push_back(block(n, ty, i32(OC / kChannels * kChannels), OC % kChannels));
  return T::allocate(stage, T::forLoop(n, i32(0), i32(N), T::ForKind::Serial,
                                       T::forLoop(ty, i32(0), i32(sh), T::ForKind::Serial, T::seq(std::move(blocks)))));
}

}  // namespace

T::Stmt lowerConv2DTranspose(const OpLowering& l) {
  const Operand& data = l.args.at(0);
  const Operand& weight = l.args.at(1);
  // As TVM (and the reference kernel): the kernel's "I" is the data's channel axis, "O" the output channels per group.
  // Named members, not a structured binding: lambdas below capture them (clang before 16 refuses bindings).
  const ConvLayouts layouts = convLayouts(l);
  const std::vector<size_t>& dp = layouts.data;
  const std::vector<size_t>& kp = layouts.kernel;
  const std::vector<size_t>& op = layouts.out;
  auto strides = pair2(l, "strides"), dilation = pair2(l, "dilation"), outPad = pair2(l, "output_padding");
  auto pad = padding4(l);
  for (size_t i = 0; i < 2; ++i)
    if (strides[i] <= 0 || dilation[i] <= 0)
      throw Unsupported("LegalizeOps: nn.conv2d_transpose strides and dilation must be positive");
  int64_t groups = attr(l, "groups").asInt();
  int64_t batch = data.shape[dp[0]], inC = data.shape[dp[1]], inH = data.shape[dp[2]], inW = data.shape[dp[3]];
  int64_t ocPerGroup = weight.shape[kp[0]], kh = weight.shape[kp[2]], kw = weight.shape[kp[3]];
  if (groups <= 0 || weight.shape[kp[1]] != inC || inC % groups != 0)
    throw Unsupported("LegalizeOps: nn.conv2d_transpose data and weight channels do not match groups");
  int64_t icPerGroup = inC / groups;
  const std::vector<int64_t>& outShape = l.out->shape;
  int64_t outH = (inH - 1) * strides[0] - pad[0] - pad[2] + (kh - 1) * dilation[0] + 1 + outPad[0];
  int64_t outW = (inW - 1) * strides[1] - pad[1] - pad[3] + (kw - 1) * dilation[1] + 1 + outPad[1];
  if (outShape.size() != 4 || outShape[op[0]] != batch || outShape[op[1]] != ocPerGroup * groups ||
      outShape[op[2]] != outH || outShape[op[3]] != outW)
    throw Unsupported("LegalizeOps: nn.conv2d_transpose result type does not match its attributes");

  const std::vector<size_t> nchw{0, 1, 2, 3};
  if (l.host && groups == 1 && kh == strides[0] && kw == strides[1] && dilation[0] == 1 && dilation[1] == 1 && !pad[0] && !pad[1] &&
      !pad[2] && !pad[3] && !outPad[0] && !outPad[1] && dp == nchw && op == nchw && data.dtype.code == DTypeCode::Float32 &&
      weight.dtype.code == DTypeCode::Float32 && l.out->dtype.code == DTypeCode::Float32)
    return lowerStrideSizedTranspose(l, data, weight, kp, strides[0], strides[1]);

  AxisPlan py = planAxis(inH, outH, kh, strides[0], dilation[0], pad[0]);
  AxisPlan px = planAxis(inW, outW, kw, strides[1], dilation[1], pad[1]);

  // Taps past the input edge read zeros from a bordered scratch copy.
  Operand src = data;
  std::vector<T::Stmt> stmts;
  bool bordered = py.padBefore || py.padAfter || px.padBefore || px.padAfter;
  if (bordered) {
    std::vector<int64_t> shape = data.shape;
    shape[dp[2]] += py.padBefore + py.padAfter;
    shape[dp[3]] += px.padBefore + px.padAfter;
    src.buffer = T::makeBuffer("data_pad", data.dtype, shape);
    src.shape = shape;
    stmts.push_back(loopNest(shape, "ax", [&](const std::vector<PrimExpr>& idx) {
      return T::store(src.buffer, idx, constOf(data.dtype, 0));
    }, NestSchedule{false, true}));
    stmts.push_back(loopNest(data.shape, "ax", [&](const std::vector<PrimExpr>& idx) {
      std::vector<PrimExpr> dst = idx;
      dst[dp[2]] = affine(idx[dp[2]], 1, py.padBefore);
      dst[dp[3]] = affine(idx[dp[3]], 1, px.padBefore);
      return T::store(src.buffer, dst, read(data, idx));
    }, NestSchedule{false, true}));
  }

  DataType accType = transposeAccumulator(data.dtype);
  int nestIndex = 0;
  for (const Phase& fy : py.phases) {
    for (const Phase& fx : px.phases) {
      // One output row of the phase (its fx.count columns) per outer
      // iteration, accumulated in a row buffer while the taps and channels
      // run outside the vectorized lane loop.
      int64_t lanes = fx.count;
      std::string suffix = py.phases.size() * px.phases.size() > 1 ? "_" + std::to_string(nestIndex) : "";
      ++nestIndex;
      T::Buffer acc = T::makeBuffer("convt_acc" + suffix, accType, {lanes});
      // The reference kernel sums a tap's channels before adding the tap in;
      // with one channel per group that partial sum is the product itself.
      bool tapSums = icPerGroup > 1;
      T::Buffer tap = tapSums ? T::makeBuffer("convt_tap" + suffix, accType, {lanes}) : nullptr;
      stmts.push_back(loopNest({batch, groups, ocPerGroup, fy.count}, "ax", [&](const std::vector<PrimExpr>& outer) {
        PrimExpr n = outer[0], grp = outer[1], oo = outer[2], j = outer[3];
        PrimExpr oc = groups == 1 ? oo : plusScaled(oo, grp, ocPerGroup);
        PrimExpr y = affine(j, strides[0], fy.residue);
        std::vector<T::Stmt> body;
        T::Var z = T::makeVar("lane");
        body.push_back(T::forLoop(z, i32(0), i32(lanes), T::ForKind::Vectorized, T::store(acc, {z}, constOf(accType, 0))));
        if (fy.taps > 0 && fx.taps > 0) {
          T::Var ty = T::makeVar("ty"), tx = T::makeVar("tx"), c = T::makeVar("rc"), lane = T::makeVar("lane");
          PrimExpr ky = affine(ty, py.tapStride, fy.firstTap), kx = affine(tx, px.tapStride, fx.firstTap);
          PrimExpr iy = plusScaled(affine(j, 1, fy.base + py.padBefore), ty, -py.inputStep);
          PrimExpr ix = plusScaled(affine(lane, 1, fx.base + px.padBefore), tx, -px.inputStep);
          PrimExpr ic = groups == 1 ? PrimExpr(c) : plusScaled(c, grp, icPerGroup);
          if (!tapSums) ic = groups == 1 ? i32(0) : grp;
          std::vector<PrimExpr> di(4), ki(4);
          di[dp[0]] = n, di[dp[1]] = ic, di[dp[2]] = iy, di[dp[3]] = ix;
          ki[kp[0]] = oo, ki[kp[1]] = ic, ki[kp[2]] = ky, ki[kp[3]] = kx;
          PrimExpr product = bin(BinaryOp::Mul, castTo(accType, read(src, di)), castTo(accType, read(weight, ki)));
          T::Stmt perTap;
          if (tapSums) {
            T::Var z2 = T::makeVar("lane"), a = T::makeVar("lane");
            T::Stmt clear = T::forLoop(z2, i32(0), i32(lanes), T::ForKind::Vectorized, T::store(tap, {z2}, constOf(accType, 0)));
            T::Stmt sum = T::forLoop(
                c, i32(0), i32(icPerGroup), T::ForKind::Serial,
                T::forLoop(lane, i32(0), i32(lanes), T::ForKind::Vectorized,
                           T::store(tap, {lane}, bin(BinaryOp::Add, T::load(tap, {lane}), product))));
            T::Stmt addIn = T::forLoop(a, i32(0), i32(lanes), T::ForKind::Vectorized,
                                       T::store(acc, {a}, bin(BinaryOp::Add, T::load(acc, {a}), T::load(tap, {a}))));
            perTap = T::seq({clear, sum, addIn});
          } else {
            perTap = T::forLoop(lane, i32(0), i32(lanes), T::ForKind::Vectorized,
                                T::store(acc, {lane}, bin(BinaryOp::Add, T::load(acc, {lane}), product)));
          }
          body.push_back(T::forLoop(ty, i32(0), i32(fy.taps), T::ForKind::Serial,
                                    T::forLoop(tx, i32(0), i32(fx.taps), T::ForKind::Serial, perTap)));
        }
        T::Var w = T::makeVar("lane");
        std::vector<PrimExpr> oi(4);
        oi[op[0]] = n, oi[op[1]] = oc, oi[op[2]] = y, oi[op[3]] = affine(w, strides[1], fx.residue);
        body.push_back(T::forLoop(w, i32(0), i32(lanes), T::ForKind::Vectorized, finishElement(l, oi, T::load(acc, {w}))));
        T::Stmt s = T::seq(std::move(body));
        if (tap) s = T::allocate(tap, s);
        return T::allocate(acc, s);
      }, NestSchedule{l.host, false}));
    }
  }
  T::Stmt nest = stmts.size() == 1 ? stmts[0] : T::seq(std::move(stmts));
  return bordered ? T::allocate(src.buffer, nest) : nest;
}

}  // namespace passlab::legalize
