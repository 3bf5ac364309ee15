// LegalizeOps: nn.conv2d. Three schedules, all summing each output element
// over (input channel, kernel row, kernel column) in the reference kernel's
// order:
//  - pointwise (1x1, stride 1, unpadded, NCHW): a GEMM over the flattened
//    spatial axis, register tiles of channels x positions;
//  - wide grid (host, float32, NCHW): every tap of a channel is one shifted
//    contiguous run of a padded, phase-split copy of the data, so depthwise
//    and small-channel convolutions vectorize over whole rows of positions;
//  - the general nest over output rows (other layouts and dtypes, Hexagon).
#include <algorithm>
#include <array>

#include "core/ir/op.h"
#include "core/pass/remark_rules.h"
#include "passes/legalize_lower.h"

namespace passlab::legalize {

namespace {

namespace T = tir;
using T::BinaryOp;
using T::PrimExpr;

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// The sizes of one conv2d call, checked (canonical NCHW / OIHW meaning).
struct ConvGeometry {
  int64_t N, C, H, W, OC, OH, OW, kh, kw, sh, sw, dh, dw, groups, icPerGroup, ocPerGroup;
  std::array<int64_t, 4> pad;
  /// Positions of O, I, H, W in the kernel layout.
  std::vector<size_t> kp;
};

/// The lanes of one wide-grid tile: a multiple of `floats` (one vector
/// register of float32: 16 on AVX-512, 8 on AVX2) that wastes the fewest
/// positions past the grid's `positions`, the wider on a tie. A depthwise
/// channel (cb == 1) keeps 3 to 6 registers of accumulators, enough
/// independent additions to hide their latency: a 7x7 output on an 11-wide
/// grid is one tile of 80 instead of two of 64 (AVX-512). Tiles of 4 channels
/// keep 2 registers per channel on AVX-512, 1 on a 16-register ISA: LLVM
/// unrolls a 3x3 kernel's taps and keeps each tap's data vectors for all 4
/// channels, so 2 per channel (9 x 2 data vectors and 8 sums) spilled a dozen
/// ymm registers per input channel of an AVX2 stem. At most `widest`
/// (0: 6 registers).
int64_t wideTileWidth(int64_t positions, int64_t cb, const VectorIsa& isa, int64_t widest = 0) {
  const int64_t floats = isa.floats;
  if (widest == 0) widest = 6 * floats;
  if (cb != 1) return isa.registers >= 32 ? 2 * floats : floats;
  int64_t best = 3 * floats;
  for (int64_t width : {3 * floats, 4 * floats, 5 * floats, 6 * floats}) {
    if (width > widest) break;
    int64_t waste = ceilDiv(positions, width) * width, bestWaste = ceilDiv(positions, best) * best;
    if (waste < bestWaste || (waste == bestWaste && width > best)) best = width;
  }
  return best;
}

/// Wide-grid direct convolution (host, NCHW data and output, float32).
///
/// The padded data is copied into a scratch split by stride phase in both
/// directions, [C][sh][sw][Hq][Wq]: padded element (r, c) sits in phase plane
/// (r mod sh, c mod sw) at (r div sh, c div sw). For a tap (ry, rx), the
/// inputs of output (y, x) are then plane (ry*dh mod sh, rx*dw mod sw) at
/// (y + ry*dh div sh, x + rx*dw div sw): with output positions numbered on
/// a grid of row pitch Wq (p = y * Wq + x, "wide" because x runs past OW), the
/// tap reads one contiguous run starting at a constant offset. Each tile of
/// wide positions accumulates in registers over all taps; the columns
/// x >= OW are computed and dropped. The scratch has slack after its last
/// plane so the last tile's reads stay inside it.
T::Stmt lowerWideGridConv(const OpLowering& l, const Operand& data, const Operand& weight, const ConvGeometry& g) {
  const int64_t Hq = ceilDiv(g.H + g.pad[0] + g.pad[2], g.sh), Wq = ceilDiv(g.W + g.pad[1] + g.pad[3], g.sw);
  const int64_t plane = Hq * Wq, channelSize = g.sh * g.sw * plane;
  // Tiles: 4 output channels share each data vector when the group has them;
  // a depthwise channel gets a longer run of positions instead.
  const int64_t cb = g.ocPerGroup % 4 == 0 ? 4 : 1;
  const int64_t tileWidth = wideTileWidth(g.OH * Wq, cb, l.isa);
  const int64_t tiles = ceilDiv(g.OH * Wq, tileWidth), gridSize = tiles * tileWidth;
  auto tapOffset = [&](int64_t ry, int64_t rx) {
    int64_t r = ry * g.dh, c = rx * g.dw;
    return ((r % g.sh) * g.sw + c % g.sw) * plane + (r / g.sh) * Wq + c / g.sw;
  };
  int64_t maxTap = 0;
  for (int64_t ry = 0; ry < g.kh; ++ry)
    for (int64_t rx = 0; rx < g.kw; ++rx) maxTap = std::max(maxTap, tapOffset(ry, rx));
  // One group's input channels at a time: the scratch stays in cache while
  // every output channel of the group reads it (a depthwise channel's plane
  // is a few hundred KB at most), instead of a padded copy of the whole input.
  const int64_t scratchSize = (g.icPerGroup - 1) * channelSize + std::max(channelSize, maxTap + gridSize);
  DataType d = data.dtype;
  DataType accType = accumulatorType(l.out->dtype);
  T::Buffer src = T::makeBuffer("data_phases", d, {scratchSize});

  T::Var n = T::makeVar("n"), grp = T::makeVar("group");
  std::vector<T::Stmt> perGroup;
  // The scratch is zeroed once (padding, slack); every group then copies its
  // channels over the same interior positions, so the zeros stay. Zeroing it
  // per group cost a depthwise convolution as much as its copy. Padded column
  // col = x + pad_left lands at (col mod sw, col div sw).
  T::Stmt zero = loopNest({scratchSize}, "ax", [&](const std::vector<PrimExpr>& i) { return T::store(src, i, constOf(d, 0)); },
                          NestSchedule{false, true});
  // Columns x with (x + pad_left) mod sw == ph are x = ph + sw * k - pad_left
  // for k in [kMin(ph), kEnd(ph)). Over the k that every phase has, one loop
  // stores all phases: its loads then form one interleaved group that LLVM
  // vectorizes with shuffles, where a loop per phase would read every sw-th
  // element alone. The few k outside that range get a loop per phase.
  std::vector<int64_t> kMin(g.sw), kEnd(g.sw);
  for (int64_t ph = 0; ph < g.sw; ++ph) {
    int64_t last = g.W - 1 + g.pad[1] - ph;
    kMin[ph] = ceilDiv(std::max<int64_t>(g.pad[1] - ph, 0), g.sw);
    kEnd[ph] = last < 0 ? 0 : last / g.sw + 1;
  }
  const int64_t commonMin = *std::max_element(kMin.begin(), kMin.end()), commonEnd = *std::min_element(kEnd.begin(), kEnd.end());
  auto copyColumns = [&](const std::vector<int64_t>& phases, int64_t from, int64_t to) {
    if (to <= from) return;
    perGroup.push_back(loopNest({g.icPerGroup, g.H, to - from}, "cp", [&](const std::vector<PrimExpr>& i) {
      PrimExpr row = add(i[1], i32(g.pad[0]));
      PrimExpr rowPhase = g.sh == 1 ? i32(0) : bin(BinaryOp::FloorMod, row, i32(g.sh));
      PrimExpr rowIndex = g.sh == 1 ? row : bin(BinaryOp::FloorDiv, row, i32(g.sh));
      PrimExpr k = add(i[2], i32(from));
      PrimExpr channel = g.groups == 1 ? i[0] : add(mul(grp, i32(g.icPerGroup)), i[0]);
      std::vector<T::Stmt> stores;
      for (int64_t ph : phases) {
        PrimExpr at = add(add(mul(i[0], i32(channelSize)), mul(add(mul(rowPhase, i32(g.sw)), i32(ph)), i32(plane))),
                          add(mul(rowIndex, i32(Wq)), k));
        PrimExpr x = add(mul(k, i32(g.sw)), i32(ph - g.pad[1]));
        stores.push_back(T::store(src, {at}, read(data, {n, channel, i[1], x})));
      }
      return stores.size() == 1 ? stores[0] : T::seq(std::move(stores));
    }, NestSchedule{false, true}));
  };
  if (commonEnd > commonMin) {
    std::vector<int64_t> all(g.sw);
    for (int64_t ph = 0; ph < g.sw; ++ph) all[ph] = ph;
    copyColumns(all, commonMin, commonEnd);
    for (int64_t ph = 0; ph < g.sw; ++ph) {
      copyColumns({ph}, kMin[ph], std::min(commonMin, kEnd[ph]));
      copyColumns({ph}, std::max(commonEnd, kMin[ph]), kEnd[ph]);
    }
  } else {
    for (int64_t ph = 0; ph < g.sw; ++ph) copyColumns({ph}, kMin[ph], kEnd[ph]);
  }

  // Rows as long as a few vectors are tiled row by row instead (the last
  // tile of a row overlapping the one before, same values): no dropped
  // columns, and each tile finishes its outputs from registers. Through the
  // wide rows, a 160x160 depthwise layer wrote and reread a buffer as large
  // as its output for every channel.
  const bool byRows = g.OW >= 64;
  const int64_t rowTile = wideTileWidth(g.OW, cb, l.isa, g.OW);
  const int64_t tileLanes = byRows ? rowTile : tileWidth;
  if (l.choice) {
    const bool depthwise = g.icPerGroup == 1 && g.ocPerGroup == 1;
    std::string what = "wide-grid direct convolution: the padded data copied once into a scratch split by stride phase (" +
                       std::to_string(g.sh) + "x" + std::to_string(g.sw) + " phases of " + std::to_string(Hq) + "x" +
                       std::to_string(Wq) + "), tiles of " + std::to_string(cb) + (cb == 1 ? " channel" : " channels") + " x " +
                       std::to_string(tileLanes) + " positions (" + std::to_string(cb * tileLanes / l.isa.floats) +
                       " vector registers of accumulators), " +
                       (byRows ? "row by row (" + std::to_string(g.OW) + " outputs per row)"
                               : "over the " + std::to_string(g.OH) + "x" + std::to_string(Wq) + " wide grid, " +
                                     std::to_string(Wq - g.OW) + " column(s) per row computed and dropped");
    std::string kernel = std::to_string(g.kh) + "x" + std::to_string(g.kw) + " kernel, stride " + std::to_string(g.sh) +
                         (g.sh == g.sw ? "" : "x" + std::to_string(g.sw));
    std::string why = depthwise ? "depthwise (groups = " + std::to_string(g.groups) + " = channels), " + kernel +
                                      ": no reduction over channels to tile, so each channel's positions are vectorized"
                                : kernel + (g.groups > 1 ? ", " + std::to_string(g.groups) + " groups" : "") +
                                      ": not pointwise (1x1, stride 1, unpadded), and " + std::to_string(g.OH * g.OW) +
                                      " output positions fill the position vectors (the small-spatial schedule is for "
                                      "maps that leave more than a third of the lanes idle)";
    choose(l, depthwise ? RemarkRule::LegalizeConvDepthwise : RemarkRule::LegalizeConvWideGrid, std::move(what), std::move(why));
  }
  // One tile of cb output channels from c0 over tileLanes wide positions from `start`.
  auto positionsTile = [&](const PrimExpr& c0, const PrimExpr& start, const std::function<T::Stmt(T::Buffer)>& done) {
    T::Buffer acc = T::makeBuffer("conv_acc", accType, {cb, tileLanes});
    T::Var z = T::makeVar("lane"), lane = T::makeVar("lane");
    T::Var rc = T::makeVar("rc"), ry = T::makeVar("ry"), rx = T::makeVar("rx");
    std::vector<T::Stmt> zero, update;
    // The tap's offset in the scratch, from the loop variables (constant strides).
    PrimExpr r = g.dh == 1 ? PrimExpr(ry) : mul(ry, i32(g.dh)), c = g.dw == 1 ? PrimExpr(rx) : mul(rx, i32(g.dw));
    PrimExpr phase = add(mul(g.sh == 1 ? i32(0) : bin(BinaryOp::FloorMod, r, i32(g.sh)), i32(g.sw)),
                         g.sw == 1 ? i32(0) : bin(BinaryOp::FloorMod, c, i32(g.sw)));
    PrimExpr within = add(mul(g.sh == 1 ? r : bin(BinaryOp::FloorDiv, r, i32(g.sh)), i32(Wq)), g.sw == 1 ? c : bin(BinaryOp::FloorDiv, c, i32(g.sw)));
    PrimExpr base = add(add(mul(rc, i32(channelSize)), mul(phase, i32(plane))), within);
    PrimExpr value = castTo(accType, T::load(src, {add(add(base, start), lane)}));
    for (int64_t ci = 0; ci < cb; ++ci) {
      zero.push_back(T::store(acc, {i32(ci), z}, constOf(accType, 0)));
      std::vector<PrimExpr> ki(4);
      ki[g.kp[0]] = add(c0, i32(ci)), ki[g.kp[1]] = rc, ki[g.kp[2]] = ry, ki[g.kp[3]] = rx;
      PrimExpr product = mul(value, castTo(accType, read(weight, ki)));
      update.push_back(T::store(acc, {i32(ci), lane}, add(T::load(acc, {i32(ci), lane}), product)));
    }
    T::Stmt taps = T::forLoop(rc, i32(0), i32(g.icPerGroup), T::ForKind::Serial,
                              T::forLoop(ry, i32(0), i32(g.kh), T::ForKind::Serial,
                                         T::forLoop(rx, i32(0), i32(g.kw), T::ForKind::Serial,
                                                    T::forLoop(lane, i32(0), i32(tileLanes), T::ForKind::Vectorized, T::seq(std::move(update))))));
    return T::allocate(acc, T::seq({T::forLoop(z, i32(0), i32(tileLanes), T::ForKind::Vectorized, T::seq(std::move(zero))), taps, done(acc)}));
  };
  // Flat: accumulate tiles over the whole wide grid, keep the wide rows, finish the real positions.
  auto channelTile = [&](const PrimExpr& c0) {
    T::Buffer wide = T::makeBuffer("conv_rows", accType, {cb, gridSize});
    T::Var t = T::makeVar("tile");
    T::Stmt tile = positionsTile(c0, mul(t, i32(tileWidth)), [&](T::Buffer acc) {
      T::Var out = T::makeVar("lane");
      std::vector<T::Stmt> keep;
      for (int64_t ci = 0; ci < cb; ++ci)
        keep.push_back(T::store(wide, {i32(ci), add(mul(t, i32(tileWidth)), out)}, T::load(acc, {i32(ci), out})));
      return T::forLoop(out, i32(0), i32(tileWidth), T::ForKind::Vectorized, T::seq(std::move(keep)));
    });
    T::Stmt accumulate = T::forLoop(t, i32(0), i32(tiles), T::ForKind::Serial, tile);
    T::Stmt finish = loopNest({cb, g.OH, g.OW}, "ax", [&](const std::vector<PrimExpr>& o) {
      return finishElement(l, {n, add(c0, o[0]), o[1], o[2]}, T::load(wide, {o[0], add(mul(o[1], i32(Wq)), o[2])}));
    }, NestSchedule{false, true});
    return T::allocate(wide, T::seq({accumulate, finish}));
  };
  // By rows: each tile finishes its own outputs.
  auto channelRows = [&](const PrimExpr& c0) {
    T::Var y = T::makeVar("y"), k = T::makeVar("xo");
    PrimExpr x0 = bin(BinaryOp::Min, mul(k, i32(rowTile)), i32(g.OW - rowTile));
    T::Stmt tile = positionsTile(c0, add(mul(y, i32(Wq)), x0), [&](T::Buffer acc) {
      T::Var out = T::makeVar("lane");
      std::vector<T::Stmt> finish;
      for (int64_t ci = 0; ci < cb; ++ci)
        finish.push_back(finishElement(l, {n, add(c0, i32(ci)), y, add(x0, out)}, T::load(acc, {i32(ci), out})));
      return T::forLoop(out, i32(0), i32(rowTile), T::ForKind::Vectorized, T::seq(std::move(finish)));
    });
    return T::forLoop(y, i32(0), i32(g.OH), T::ForKind::Serial, T::forLoop(k, i32(0), i32(ceilDiv(g.OW, rowTile)), T::ForKind::Serial, tile));
  };
  T::Var co = T::makeVar("co");
  PrimExpr c0 = add(mul(grp, i32(g.ocPerGroup)), cb == 1 ? PrimExpr(co) : mul(co, i32(cb)));
  perGroup.push_back(T::forLoop(co, i32(0), i32(g.ocPerGroup / cb), T::ForKind::Serial, byRows ? channelRows(c0) : channelTile(c0)));
  // Serial: the groups share the scratch (a parallel loop would need one per thread).
  T::Stmt groups = T::forLoop(grp, i32(0), i32(g.groups), T::ForKind::Serial, T::seq(std::move(perGroup)));
  return T::allocate(src, T::seq({zero, T::forLoop(n, i32(0), i32(g.N), T::ForKind::Serial, groups)}));
}

/// A 1x1, stride-1, unpadded NCHW conv2d without groups (a pointwise
/// convolution) is a GEMM over the flattened spatial axis:
/// out[n, c, p] = sum over rc of w[c, rc] * data[n, rc, p]. Tiles of
/// channels x positions stay in registers while the input channels are
/// reduced, so each data vector loaded serves several channels: 8 x 2
/// vectors (16 of AVX-512's 32 registers), 4 x 2 vectors on a 16-register
/// ISA (AVX2: 8 sums, 4 broadcast weights, 2 data vectors and the product
/// before it is added make 15). 4 x 3 (12 sums) needed 18 registers of the
/// 16: LLVM spilled three sums to the stack every iteration, and the
/// tile ran at half the speed of 4 x 2. A power-of-two position count is also
/// one vectorize width for LLVM. Every element is still summed over rc in
/// increasing order, as the reference kernel does.
struct PointwiseTile {
  int64_t channels, positions;
};
PointwiseTile pointwiseTile(const VectorIsa& isa) {
  if (isa.registers >= 32) return {8, 2 * isa.floats};
  return {4, 2 * isa.floats};
}

T::Stmt lowerPointwiseConv(const OpLowering& l, const Operand& data, const Operand& weight, const std::vector<size_t>& kp) {
  const int64_t N = data.shape[0], IC = data.shape[1], W = data.shape[3], P = data.shape[2] * data.shape[3];
  const int64_t OC = l.out->shape[1];
  DataType accType = accumulatorType(l.out->dtype);
  // Plain names, not a structured binding: lambdas capture them, which clang
  // before 16 (the fuzzers' compiler) refuses for bindings.
  const PointwiseTile pointwise = pointwiseTile(l.isa);
  const int64_t kPointwiseChannels = pointwise.channels, kPointwisePositions = pointwise.positions;
  const char* kWhyPointwise = "1x1 kernel, stride 1, no padding, no groups, NCHW: a GEMM of the weight with the data's flattened positions";
  if (P == 1 && kp == std::vector<size_t>{0, 1, 2, 3}) {
    if (l.choice)
      choose(l, RemarkRule::LegalizeConvPointwise,
             "one position: each output a dot product of " + std::to_string(IC) + " input channels in " + std::to_string(kLanes) +
                 " partial sums, outputs in parallel",
             std::string(kWhyPointwise) + "; one output position (squeeze-and-excite on pooled features), so no position tile");
    // One position (squeeze-excite on pooled features): each output is a dot
    // product of a weight row with the data, both contiguous along rc, summed
    // in kLanes partial sums like dense.
    auto acc = T::makeBuffer("conv_acc", accType, {kLanes});
    return loopNest({N, OC}, "ax", [&](const std::vector<PrimExpr>& o) {
      auto term = [&](const PrimExpr& rc) {
        return mul(castTo(accType, read(data, {add(mul(o[0], i32(IC)), rc)})), castTo(accType, read(weight, {add(mul(o[1], i32(IC)), rc)})));
      };
      PrimExpr total;
      std::vector<T::Stmt> body = laneSums(acc, accType, IC, term, total);
      body.push_back(finishElement(l, {o[0], o[1], i32(0), i32(0)}, total));
      return T::allocate(acc, T::seq(std::move(body)));
    }, NestSchedule{l.host, false});
  }
  // Channels [c0, c0 + cb) x positions [p0, p0 + pb) of image n.
  auto tile = [&](const PrimExpr& n, const PrimExpr& c0, int64_t cb, const PrimExpr& p0, int64_t pb) {
    auto acc = T::makeBuffer("conv_acc", accType, {cb, pb});
    T::Var pi0 = T::makeVar("pi"), pi1 = T::makeVar("pi"), rc = T::makeVar("rc"), ci2 = T::makeVar("ci"), pi2 = T::makeVar("pi");
    // The channel loop is unrolled here, inside the vectorized position loop:
    // one data vector feeds cb products, and LLVM keeps the cb x pb sums in registers.
    std::vector<T::Stmt> zero, accumulate;
    // data[n, rc, p] through its flat storage: consecutive positions are consecutive elements.
    PrimExpr flat = add(mul(add(mul(n, i32(IC)), rc), i32(P)), add(p0, pi1));
    for (int64_t ci = 0; ci < cb; ++ci) {
      zero.push_back(T::store(acc, {i32(ci), pi0}, constOf(accType, 0)));
      std::vector<PrimExpr> ki(4, i32(0));
      ki[kp[0]] = add(c0, i32(ci)), ki[kp[1]] = rc;
      PrimExpr product = mul(castTo(accType, read(data, {flat})), castTo(accType, read(weight, ki)));
      accumulate.push_back(T::store(acc, {i32(ci), pi1}, add(T::load(acc, {i32(ci), pi1}), product)));
    }
    T::Stmt init = T::forLoop(pi0, i32(0), i32(pb), T::ForKind::Vectorized, T::seq(std::move(zero)));
    T::Stmt update = T::forLoop(rc, i32(0), i32(IC), T::ForKind::Serial,
                                T::forLoop(pi1, i32(0), i32(pb), T::ForKind::Vectorized, T::seq(std::move(accumulate))));
    PrimExpr p = add(p0, pi2);
    std::vector<PrimExpr> idx{n, add(c0, ci2), bin(BinaryOp::FloorDiv, p, i32(W)), bin(BinaryOp::FloorMod, p, i32(W))};
    T::Stmt finish = T::forLoop(ci2, i32(0), i32(cb), T::ForKind::Serial,
                                T::forLoop(pi2, i32(0), i32(pb), T::ForKind::Vectorized, finishElement(l, idx, T::load(acc, {ci2, pi2}))));
    return T::allocate(acc, T::seq({init, update, finish}));
  };
  // Full tiles, then the leftover positions and channels as narrower tiles.
  int64_t fullC = OC / kPointwiseChannels, restC = OC % kPointwiseChannels;
  // The host's parallel loop: over channel blocks, else over position blocks.
  bool parallelChannels = l.host && fullC > 1;
  if (l.choice)
    choose(l, RemarkRule::LegalizeConvPointwise,
           "GEMM over " + std::to_string(P) + " positions x " + std::to_string(IC) + " input channels: register tiles of " +
               std::to_string(kPointwiseChannels) + " channels x " + std::to_string(kPointwisePositions) + " positions (" +
               std::to_string(kPointwisePositions / l.isa.floats) + " vectors each), " +
               (parallelChannels ? "parallel over " + std::to_string(fullC) + " channel blocks"
                                 : l.host && P / kPointwisePositions > 1 ? std::string("parallel over position tiles") : std::string("serial")) +
               (restC ? ", a last tile of " + std::to_string(restC) + " channels" : ""),
           kWhyPointwise);
  auto positions = [&](const PrimExpr& n, const PrimExpr& c0, int64_t cb) {
    T::ForKind kind = l.host && !parallelChannels && P / kPointwisePositions > 1 ? T::ForKind::Parallel : T::ForKind::Serial;
    return overlappingTiles(P, kPointwisePositions, l.isa.floats, kind, [&](const PrimExpr& p0, int64_t pb) { return tile(n, c0, cb, p0, pb); });
  };
  T::Var n = T::makeVar("n");
  std::vector<T::Stmt> perImage;
  if (fullC > 0) {
    T::Var co = T::makeVar("co");
    perImage.push_back(T::forLoop(co, i32(0), i32(fullC), parallelChannels ? T::ForKind::Parallel : T::ForKind::Serial,
                                  positions(n, mul(co, i32(kPointwiseChannels)), kPointwiseChannels)));
  }
  if (restC > 0) perImage.push_back(positions(n, i32(fullC * kPointwiseChannels), restC));
  return T::forLoop(n, i32(0), i32(N), T::ForKind::Serial, T::seq(std::move(perImage)));
}

}  // namespace

T::Stmt lowerConv2D(const OpLowering& l) {
  const Operand& data = l.args.at(0);
  const Operand& weight = l.args.at(1);
  // Named members, not a structured binding: lambdas below capture them (clang before 16 refuses bindings).
  const ConvLayouts layouts = convLayouts(l);
  const std::vector<size_t>& dp = layouts.data;
  const std::vector<size_t>& kp = layouts.kernel;
  const std::vector<size_t>& op = layouts.out;
  auto strides = attrInts(l, "strides"), dilation = attrInts(l, "dilation");
  if (strides.size() == 1) strides.push_back(strides[0]);
  if (dilation.size() == 1) dilation.push_back(dilation[0]);
  auto pad = padding4(l);
  int64_t groups = attr(l, "groups").asInt();
  int64_t inC = data.shape[dp[1]];
  int64_t outC = weight.shape[kp[0]], icPerGroup = weight.shape[kp[1]], kh = weight.shape[kp[2]], kw = weight.shape[kp[3]];
  if (groups <= 0 || outC % groups != 0 || icPerGroup * groups != inC)
    throw Unsupported("LegalizeOps: nn.conv2d channels do not match groups");
  int64_t ocPerGroup = outC / groups;
  bool pointwise = kh == 1 && kw == 1 && strides[0] == 1 && strides[1] == 1 && groups == 1 && !pad[0] && !pad[1] && !pad[2] && !pad[3] &&
                   dp == std::vector<size_t>{0, 1, 2, 3} && op == std::vector<size_t>{0, 1, 2, 3};
  bool nchw = dp == std::vector<size_t>{0, 1, 2, 3} && op == std::vector<size_t>{0, 1, 2, 3};
  bool f32 = data.dtype.code == DTypeCode::Float32 && weight.dtype.code == DTypeCode::Float32 && l.out->dtype.code == DTypeCode::Float32;
  // Few positions, many channels (a 1x384x3x3 output): vectorized along the reduction.
  if (l.host && nchw && f32 && kp == std::vector<size_t>{0, 1, 2, 3} &&
      smallSpatialConvFits(l.isa, l.out->shape[2] * l.out->shape[3], inC * kh * kw, groups)) {
    SmallConvGeometry g{data.shape[0], inC, data.shape[2], data.shape[3], outC, l.out->shape[2], l.out->shape[3],
                        kh, kw, strides[0], strides[1], dilation[0], dilation[1], pad[0], pad[1]};
    return lowerSmallSpatialConv(l, data, weight, g);
  }
  if (pointwise) return lowerPointwiseConv(l, data, weight, kp);
  if (l.host && nchw && data.dtype.code == DTypeCode::Float32 && weight.dtype.code == DTypeCode::Float32 &&
      l.out->dtype.code == DTypeCode::Float32) {
    const std::vector<int64_t>& o = l.out->shape;
    // A depthwise map so small that the wide grid's position vectors would
    // be mostly idle (a 3x3 output: 3 rows of the padded width in a tile of
    // 3 vectors) is vectorized along its channels instead.
    if (icPerGroup == 1 && ocPerGroup == 1 && kp == std::vector<size_t>{0, 1, 2, 3}) {
      const int64_t grid = o[2] * ceilDiv(data.shape[3] + pad[1] + pad[3], strides[1]);
      const int64_t tile = wideTileWidth(grid, 1, l.isa);
      if (depthwiseChannelsFit(l.isa, outC, o[2] * o[3], ceilDiv(grid, tile) * tile)) {
        SmallConvGeometry g{data.shape[0], inC, data.shape[2], data.shape[3], outC, o[2], o[3], kh, kw, strides[0], strides[1],
                            dilation[0], dilation[1], pad[0], pad[1]};
        return lowerDepthwiseChannels(l, data, weight, g);
      }
    }
    ConvGeometry g{data.shape[0], inC, data.shape[2], data.shape[3], outC, o[2], o[3], kh, kw, strides[0], strides[1],
                   dilation[0], dilation[1], groups, icPerGroup, ocPerGroup, pad, kp};
    return lowerWideGridConv(l, data, weight, g);
  }

  // Zero padding goes into a scratch copy of the data, so the hot loop has no
  // guards. With a column stride s (NCHW data) the copy also splits columns by
  // phase, [N, C, H, s, ceil(W / s)]: column s * x + r is at (r mod s, x + r div s),
  // so the taps of consecutive output columns are consecutive elements.
  Operand src = data;
  std::vector<T::Stmt> prologue;
  bool padded = pad[0] || pad[1] || pad[2] || pad[3];
  const int64_t sw = strides[1];
  bool split = sw > 1 && dp == std::vector<size_t>{0, 1, 2, 3};
  if (padded || split) {
    std::vector<int64_t> shape = data.shape;
    shape[dp[2]] += pad[0] + pad[2];
    shape[dp[3]] += pad[1] + pad[3];
    if (split) shape = {shape[0], shape[1], shape[2], sw, (shape[3] + sw - 1) / sw};
    src.buffer = T::makeBuffer(split ? "data_phases" : "data_pad", data.dtype, shape);
    src.shape = shape;
    prologue.push_back(loopNest(shape, "ax", [&](const std::vector<PrimExpr>& idx) {
      return T::store(src.buffer, idx, constOf(data.dtype, 0));
    }, NestSchedule{false, true}));
    prologue.push_back(loopNest(data.shape, "ax", [&](const std::vector<PrimExpr>& idx) {
      std::vector<PrimExpr> dst = idx;
      if (pad[0]) dst[dp[2]] = add(idx[dp[2]], i32(pad[0]));
      if (pad[1]) dst[dp[3]] = add(idx[dp[3]], i32(pad[1]));
      if (split) {
        PrimExpr col = dst[3];
        dst[3] = bin(BinaryOp::FloorMod, col, i32(sw));
        dst.push_back(bin(BinaryOp::FloorDiv, col, i32(sw)));
      }
      return T::store(src.buffer, dst, read(data, idx));
    }, NestSchedule{false, !split}));
  }

  if (l.choice) {
    std::string why;
    if (!l.host) why = "a device target (one thread)";
    else if (!nchw) why = "layout " + attr(l, "data_layout").asString() + " (the tiled schedules take NCHW data and output)";
    else why = "dtype " + std::string(data.dtype.name()) + " (the tiled schedules take float32)";
    choose(l, RemarkRule::LegalizeConvDirect,
           "direct nest over output rows: each row of " + std::to_string(l.out->shape[3]) +
               " outputs vectorized, summed over (input channel, kernel row, kernel column)" +
               (padded || split ? std::string(", the data first copied ") + (padded ? "padded" : "") + (padded && split ? " and " : "") +
                                      (split ? "split by column phase" : "")
                                : std::string()),
           why);
  }
  // Output axes in the output layout's order; the innermost one is the
  // vectorized lane axis, accumulated in a row buffer while the reduction
  // (input channel, kernel row, kernel column) runs outside it.
  const std::vector<int64_t>& outShape = l.out->shape;
  size_t laneAxis = 3;
  int64_t lanes = outShape[laneAxis];
  DataType accType = accumulatorType(l.out->dtype);
  auto acc = T::makeBuffer("conv_acc", accType, {lanes});
  std::vector<int64_t> outerShape(outShape.begin(), outShape.begin() + 3);
  T::Stmt nest = loopNest(outerShape, "ax", [&](const std::vector<PrimExpr>& outer) {
    T::Var lane = T::makeVar("lane"), rc = T::makeVar("rc"), ry = T::makeVar("ry"), rx = T::makeVar("rx");
    std::vector<PrimExpr> o = outer;
    o.push_back(lane);
    // Canonical coordinates of this output element.
    PrimExpr n = o[op[0]], c = o[op[1]], y = o[op[2]], x = o[op[3]];
    PrimExpr group = ocPerGroup == outC ? i32(0) : bin(BinaryOp::FloorDiv, c, i32(ocPerGroup));
    PrimExpr ic = groups == 1 ? PrimExpr(rc) : add(mul(group, i32(icPerGroup)), rc);
    PrimExpr iy = add(strides[0] == 1 ? y : mul(y, i32(strides[0])), dilation[0] == 1 ? PrimExpr(ry) : mul(ry, i32(dilation[0])));
    PrimExpr ix = add(strides[1] == 1 ? x : mul(x, i32(strides[1])), dilation[1] == 1 ? PrimExpr(rx) : mul(rx, i32(dilation[1])));
    std::vector<PrimExpr> di(4), ki(4);
    di[dp[0]] = n, di[dp[1]] = ic, di[dp[2]] = iy, di[dp[3]] = ix;
    if (split) {
      PrimExpr tap = dilation[1] == 1 ? PrimExpr(rx) : mul(rx, i32(dilation[1]));
      di[3] = bin(BinaryOp::FloorMod, tap, i32(sw));
      di.push_back(add(x, bin(BinaryOp::FloorDiv, tap, i32(sw))));
    }
    ki[kp[0]] = c, ki[kp[1]] = rc, ki[kp[2]] = ry, ki[kp[3]] = rx;
    PrimExpr product = mul(castTo(accType, read(src, di)), castTo(accType, read(weight, ki)));
    T::Stmt update = T::store(acc, {lane}, add(T::load(acc, {lane}), product));
    T::Stmt reduction = T::forLoop(rc, i32(0), i32(icPerGroup), T::ForKind::Serial,
                                   T::forLoop(ry, i32(0), i32(kh), T::ForKind::Serial,
                                              T::forLoop(rx, i32(0), i32(kw), T::ForKind::Serial,
                                                         T::forLoop(lane, i32(0), i32(lanes), T::ForKind::Vectorized, update))));
    T::Var z = T::makeVar("lane"), w = T::makeVar("lane");
    std::vector<PrimExpr> oz = outer;
    oz.push_back(w);
    T::Stmt init = T::forLoop(z, i32(0), i32(lanes), T::ForKind::Vectorized, T::store(acc, {z}, constOf(accType, 0)));
    T::Stmt store = T::forLoop(w, i32(0), i32(lanes), T::ForKind::Vectorized,
                               finishElement(l, oz, T::load(acc, {w})));
    return T::allocate(acc, T::seq({init, reduction, store}));
  }, NestSchedule{l.host, false});
  if (!padded && !split) return nest;
  prologue.push_back(nest);
  return T::allocate(src.buffer, T::seq(std::move(prologue)));
}

}  // namespace passlab::legalize
