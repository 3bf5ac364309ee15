// LegalizeOps: nn.conv2d with few output positions and many channels (the
// 3x3 and 6x6 maps at the end of a backbone: `1x384x3x3`). Vectorizing over
// positions there fills a fraction of each vector (9 positions in a register
// of 16) and the position schedules ran at about 4.5 GFLOP/s. This schedule
// vectorizes along the reduction instead: every output is the dot product of
// a weight row (OIHW: contiguous over input channel, kernel row, kernel
// column) with the patch of inputs it covers, copied once into a row of a
// scratch matrix [positions][reduction]. Tiles of channels x positions keep
// one vector of partial sums each, so each weight vector loaded serves the
// tile's positions and each patch vector its channels.
//
// A depthwise convolution has no reduction over channels, only its taps, so
// at a 3x3 or 6x6 output it is vectorized along the channels instead
// (lowerDepthwiseChannels): the data and the weights are copied channels-last.
#include <algorithm>

#include "core/pass/remark_rules.h"
#include "passes/legalize_lower.h"

namespace passlab::legalize {

namespace {

namespace T = tir;
using T::BinaryOp;
using T::PrimExpr;

int64_t roundUp(int64_t a, int64_t b) { return (a + b - 1) / b * b; }

}  // namespace

bool smallSpatialConvFits(const VectorIsa& isa, int64_t positions, int64_t reduction, int64_t groups) {
  if (groups != 1 || reduction < 2 * isa.floats) return false;
  // The position schedules waste more than a third of their lanes here. At a
  // 7x7 output (49 positions in 64 AVX-512 lanes) the position GEMM still
  // ran faster (54 against 25-33 GFLOP/s for the classifier's 1x576x7x7).
  return roundUp(positions, isa.floats) * 3 > positions * 4;
}

T::Stmt lowerSmallSpatialConv(const OpLowering& l, const Operand& data, const Operand& weight, const SmallConvGeometry& g) {
  const int64_t P = g.OH * g.OW, K = g.C * g.kh * g.kw;
  DataType d = data.dtype;
  DataType accType = accumulatorType(l.out->dtype);
  // The patches of one image: patches[p * K + k], k = (rc * kh + ry) * kw + rx,
  // the order of a weight row. Taps in the padding stay 0 (scratch starts zeroed,
  // and the same taps are padding for every image).
  T::Buffer patches = T::makeBuffer("conv_patches", d, {P * K});
  T::Var n = T::makeVar("n");
  T::Stmt fill = loopNest({g.OH, g.OW, g.C, g.kh, g.kw}, "ax", [&](const std::vector<PrimExpr>& i) {
    PrimExpr iy = add(bin(BinaryOp::Sub, mul(i[0], i32(g.sh)), i32(g.padTop)), mul(i[3], i32(g.dh)));
    PrimExpr ix = add(bin(BinaryOp::Sub, mul(i[1], i32(g.sw)), i32(g.padLeft)), mul(i[4], i32(g.dw)));
    PrimExpr p = add(mul(i[0], i32(g.OW)), i[1]);
    PrimExpr k = add(mul(add(mul(i[2], i32(g.kh)), i[3]), i32(g.kw)), i[4]);
    T::Stmt copy = T::store(patches, {add(mul(p, i32(K)), k)}, read(data, {n, i[2], iy, ix}));
    bool padded = g.padTop || g.padLeft || (g.OH - 1) * g.sh + (g.kh - 1) * g.dh - g.padTop >= g.H ||
                  (g.OW - 1) * g.sw + (g.kw - 1) * g.dw - g.padLeft >= g.W;
    if (!padded) return copy;
    PrimExpr inside = bin(BinaryOp::And, bin(BinaryOp::And, bin(BinaryOp::GE, iy, i32(0)), bin(BinaryOp::LT, iy, i32(g.H))),
                          bin(BinaryOp::And, bin(BinaryOp::GE, ix, i32(0)), bin(BinaryOp::LT, ix, i32(g.W))));
    return T::ifThenElse(inside, copy);
  });
  // One vector of partial sums per output of the tile; 12 of AVX-512's 32
  // registers (4 x 3), 9 of AVX2's 16 (3 x 3): the rest hold the patch
  // vectors and the product before it is added.
  const int64_t kVec = isaVectorForSums(l.isa, K);
  const int64_t mrFull = l.isa.registers >= 32 ? 4 : 3, nrFull = 3;
  if (l.choice)
    choose(l, RemarkRule::LegalizeConvSmallSpatial,
           "vectorized along the reduction of K = " + std::to_string(g.C) + "x" + std::to_string(g.kh) + "x" + std::to_string(g.kw) +
               " = " + std::to_string(K) + ": patches copied once into a " + std::to_string(P) + " x " + std::to_string(K) +
               " scratch matrix, register tiles of " + std::to_string(mrFull) + " channels x " + std::to_string(std::min(nrFull, P)) +
               (P == 1 ? " position with " : " positions with ") + std::to_string(kVec) + " partial sums each, parallel over " + std::to_string(g.OC / mrFull) +
               " channel blocks",
           std::to_string(P) + (P == 1 ? " output position fills " : " output positions fill ") + std::to_string(P) + " of " + std::to_string(roundUp(P, l.isa.floats)) +
               " lanes of position vectors (more than a third idle), and the reduction is at least 2 vectors of " +
               std::to_string(l.isa.floats));
  auto tile = [&](const PrimExpr& c0, int64_t mr, const PrimExpr& p0, int64_t nr) {
    return reductionTile(
        "conv", accType, mr, nr, kVec, K,
        [&](int64_t mi, int64_t nj, const PrimExpr& k) {
          PrimExpr w = castTo(accType, read(weight, {add(mul(add(c0, i32(mi)), i32(K)), k)}));
          PrimExpr x = castTo(accType, T::load(patches, {add(mul(add(p0, i32(nj)), i32(K)), k)}));
          return mul(w, x);
        },
        [&](int64_t mi, int64_t nj, const PrimExpr& total) {
          PrimExpr p = add(p0, i32(nj));
          return finishElement(l, {n, add(c0, i32(mi)), bin(BinaryOp::FloorDiv, p, i32(g.OW)), bin(BinaryOp::FloorMod, p, i32(g.OW))}, total);
        });
  };
  // Whole tiles, then the leftover positions and channels as narrower tiles.
  auto positions = [&](const PrimExpr& c0, int64_t mr) {
    std::vector<T::Stmt> parts;
    if (P / nrFull > 0) {
      T::Var pb = T::makeVar("pb");
      parts.push_back(T::forLoop(pb, i32(0), i32(P / nrFull), T::ForKind::Serial, tile(c0, mr, mul(pb, i32(nrFull)), nrFull)));
    }
    if (P % nrFull) parts.push_back(tile(c0, mr, i32(P / nrFull * nrFull), P % nrFull));
    return T::seq(std::move(parts));
  };
  std::vector<T::Stmt> perImage{fill};
  if (g.OC / mrFull > 0) {
    T::Var cb = T::makeVar("cb");
    perImage.push_back(T::forLoop(cb, i32(0), i32(g.OC / mrFull), l.host && g.OC / mrFull > 1 ? T::ForKind::Parallel : T::ForKind::Serial,
                                  positions(mul(cb, i32(mrFull)), mrFull)));
  }
  if (g.OC % mrFull) perImage.push_back(positions(i32(g.OC / mrFull * mrFull), g.OC % mrFull));
  return T::allocate(patches, T::forLoop(n, i32(0), i32(g.N), T::ForKind::Serial, T::seq(std::move(perImage))));
}

bool depthwiseChannelsFit(const VectorIsa& isa, int64_t channels, int64_t positions, int64_t gridLanes) {
  // The wide grid computes gridLanes positions per channel for `positions`
  // outputs: a 3x3 output of a 5x5 kernel is a 3x7 grid in a tile of 24
  // (AVX2), 9 useful lanes of 24. AVX-512 keeps the wide grid: LLVM 14
  // vectorizes this schedule's channels-last copies and its stores to NCHW
  // with gathers and scatters there (slow on the AMD machine measured), and
  // the 1x672x3x3 and 1x960x3x3 5x5 layers of the 96x96 MobileNetV3 ran no
  // faster (39-47 us either way) where AVX2 went from 35-44 to 26-28 us.
  return isa.name != "avx512" && channels >= isa.floats && positions * 3 < gridLanes * 2;
}

T::Stmt lowerDepthwiseChannels(const OpLowering& l, const Operand& data, const Operand& weight, const SmallConvGeometry& g) {
  const int64_t L = l.isa.floats, Cp = roundUp(g.C, L), P = g.OH * g.OW, taps = g.kh * g.kw;
  // The padded rows and columns the taps read (a stride can leave the last ones unread).
  const int64_t Hp = (g.OH - 1) * g.sh + (g.kh - 1) * g.dh + 1, Wp = (g.OW - 1) * g.sw + (g.kw - 1) * g.dw + 1;
  const int64_t rows = std::min(g.H, Hp - g.padTop), cols = std::min(g.W, Wp - g.padLeft);
  DataType d = data.dtype, accType = accumulatorType(l.out->dtype);
  // Channels last: the data [Hp][Wp][Cp] and the weights [kh * kw][Cp], the
  // channels padded to whole vectors with zeros (their lanes are computed,
  // never stored). Zeroed once: the padding is the same for every image.
  T::Buffer xs = T::makeBuffer("conv_channels_last", d, {Hp * Wp * Cp});
  T::Buffer ws = T::makeBuffer("conv_taps_channels_last", weight.dtype, {taps * Cp});
  NestSchedule vectorized{false, true};
  T::Stmt zeroData = loopNest({Hp * Wp * Cp}, "ax", [&](const std::vector<PrimExpr>& i) { return T::store(xs, i, constOf(d, 0)); }, vectorized);
  T::Stmt zeroWeights =
      loopNest({taps * Cp}, "ax", [&](const std::vector<PrimExpr>& i) { return T::store(ws, i, constOf(weight.dtype, 0)); }, vectorized);
  T::Stmt fillWeights = loopNest({g.C, g.kh, g.kw}, "ax", [&](const std::vector<PrimExpr>& i) {
    return T::store(ws, {add(mul(add(mul(i[1], i32(g.kw)), i[2]), i32(Cp)), i[0])}, read(weight, {i[0], i32(0), i[1], i[2]}));
  });
  T::Var n = T::makeVar("n");
  T::Stmt fillData = loopNest({g.C, rows, cols}, "ax", [&](const std::vector<PrimExpr>& i) {
    PrimExpr at = add(mul(add(mul(add(i[1], i32(g.padTop)), i32(Wp)), add(i[2], i32(g.padLeft))), i32(Cp)), i[0]);
    return T::store(xs, {at}, read(data, {n, i[0], i[1], i[2]}));
  });
  // Tiles of one vector of channels x nr positions: nr sums, the tap's weight
  // vector (loaded once for the tile), a data vector and the product: 12 of
  // AVX2's 16 registers at nr = 9, 15 of AVX-512's 32 at 12.
  const int64_t nrMax = l.isa.registers >= 32 ? 12 : 9;
  const int64_t tilesPerChannel = (P + nrMax - 1) / nrMax, nr = (P + tilesPerChannel - 1) / tilesPerChannel;
  if (l.choice)
    choose(l, RemarkRule::LegalizeConvDepthwise,
           "vectorized along the channels: data and weights copied channels-last (" + std::to_string(Hp) + "x" + std::to_string(Wp) + "x" +
               std::to_string(Cp) + " and " + std::to_string(taps) + "x" + std::to_string(Cp) + "), tiles of " + std::to_string(L) +
               " channels x " + std::to_string(std::min(nr, P)) + (P == 1 ? " position" : " positions") + " (one vector register of sums each), " +
               "parallel over " + std::to_string(Cp / L) + " channel blocks",
           "depthwise (groups = " + std::to_string(g.C) + " = channels), " + std::to_string(g.kh) + "x" + std::to_string(g.kw) +
               " kernel, " + std::to_string(P) + " output positions: vectors of positions would leave more than a third of their lanes idle, "
               "and the " + std::to_string(g.C) + " channels fill vectors of " + std::to_string(L));
  // Channels [c0, c0 + L) x positions [p0, p0 + count); `valid` lanes are outputs.
  auto tile = [&](const PrimExpr& c0, const PrimExpr& p0, int64_t count, int64_t valid) {
    T::Buffer acc = T::makeBuffer("conv_acc", accType, {count, L});
    T::Var z = T::makeVar("lane"), lane = T::makeVar("lane"), out = T::makeVar("lane");
    T::Var ry = T::makeVar("ry"), rx = T::makeVar("rx");
    PrimExpr tap = add(mul(ry, i32(g.dh * Wp)), mul(rx, i32(g.dw)));
    std::vector<T::Stmt> zero, update, finish;
    for (int64_t j = 0; j < count; ++j) {
      PrimExpr p = add(p0, i32(j));
      PrimExpr oy = bin(BinaryOp::FloorDiv, p, i32(g.OW)), ox = bin(BinaryOp::FloorMod, p, i32(g.OW));
      PrimExpr base = add(mul(oy, i32(g.sh * Wp)), mul(ox, i32(g.sw)));
      zero.push_back(T::store(acc, {i32(j), z}, constOf(accType, 0)));
      PrimExpr x = castTo(accType, T::load(xs, {add(mul(add(base, tap), i32(Cp)), add(c0, lane))}));
      PrimExpr w = castTo(accType, T::load(ws, {add(mul(add(mul(ry, i32(g.kw)), rx), i32(Cp)), add(c0, lane))}));
      update.push_back(T::store(acc, {i32(j), lane}, add(T::load(acc, {i32(j), lane}), mul(x, w))));
      finish.push_back(finishElement(l, {n, add(c0, out), oy, ox}, T::load(acc, {i32(j), out})));
    }
    T::Stmt tapLoops = T::forLoop(ry, i32(0), i32(g.kh), T::ForKind::Serial,
                              T::forLoop(rx, i32(0), i32(g.kw), T::ForKind::Serial,
                                         T::forLoop(lane, i32(0), i32(L), T::ForKind::Vectorized, T::seq(std::move(update)))));
    return T::allocate(acc, T::seq({T::forLoop(z, i32(0), i32(L), T::ForKind::Vectorized, T::seq(std::move(zero))), tapLoops,
                                    T::forLoop(out, i32(0), i32(valid), T::ForKind::Serial, T::seq(std::move(finish)))}));
  };
  auto positions = [&](const PrimExpr& c0, int64_t valid) {
    std::vector<T::Stmt> parts;
    if (P / nr > 0) {
      T::Var pb = T::makeVar("pb");
      parts.push_back(T::forLoop(pb, i32(0), i32(P / nr), T::ForKind::Serial, tile(c0, mul(pb, i32(nr)), nr, valid)));
    }
    if (P % nr) parts.push_back(tile(c0, i32(P / nr * nr), P % nr, valid));
    return T::seq(std::move(parts));
  };
  std::vector<T::Stmt> perImage{fillData};
  const int64_t fullBlocks = g.C / L;
  if (fullBlocks > 0) {
    T::Var cb = T::makeVar("cb");
    perImage.push_back(T::forLoop(cb, i32(0), i32(fullBlocks), l.host && fullBlocks > 1 ? T::ForKind::Parallel : T::ForKind::Serial,
                                  positions(mul(cb, i32(L)), L)));
  }
  if (g.C % L) perImage.push_back(positions(i32(fullBlocks * L), g.C % L));
  return T::allocate(xs, T::allocate(ws, T::seq({zeroData, zeroWeights, fillWeights,
                                                  T::forLoop(n, i32(0), i32(g.N), T::ForKind::Serial, T::seq(std::move(perImage)))})));
}

}  // namespace passlab::legalize
