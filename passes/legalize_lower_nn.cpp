// LegalizeOps: reductions, softmax, dense/matmul/batch_matmul and
// pooling. Sums accumulate in float32 for float16/float32 data (rounded once
// to the output dtype, as the reference kernels do) in small scratch buffers
// allocated inside the loop that owns them, so parallel iterations never share one.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "core/ir/op.h"
#include "core/pass/remark_rules.h"
#include "passes/legalize_lower.h"

namespace passlab::legalize {

namespace {

namespace T = tir;
using T::BinaryOp;
using T::PrimExpr;



/// The lowest value of `d` (-inf for floats): what max starts from.
PrimExpr lowest(DataType d) {
  if (d.isFloat()) return T::floatImm(d, -std::numeric_limits<double>::infinity());
  if (d.isBool()) return T::intImm(d, 0);
  if (d.isUnsigned()) return T::intImm(d, 0);
  return T::intImm(d, -(int64_t(1) << (d.bits() - 1)));
}
PrimExpr highest(DataType d) {
  if (d.isFloat()) return T::floatImm(d, std::numeric_limits<double>::infinity());
  if (d.isBool()) return T::intImm(d, 1);
  return T::intImm(d, d.isUnsigned() ? (int64_t(1) << d.bits()) - 1 : (int64_t(1) << (d.bits() - 1)) - 1);
}

/// A one-element scratch buffer and the expression/statement that use it.
struct Cell {
  T::Buffer buffer;
  explicit Cell(const std::string& name, DataType d) : buffer(T::makeBuffer(name, d, {1})) {}
  PrimExpr get() const { return T::load(buffer, {i32(0)}); }
  T::Stmt set(PrimExpr v) const { return T::store(buffer, {i32(0)}, castTo(buffer->dtype, std::move(v))); }
};

/// Which axes of a rank-`rank` input the reduction `l` removes (axis, exclude).
std::vector<bool> reducedAxesOf(const OpLowering& l, size_t rank) {
  std::vector<bool> reduced(rank, false);
  const AttrValue& axisAttr = attr(l, "axis");
  if (axisAttr.kind() != AttrValue::Kind::Array && axisAttr.kind() != AttrValue::Kind::Int) {
    reduced.assign(rank, true);
  } else {
    for (int64_t a : attrInts(l, "axis")) {
      int64_t d = a < 0 ? a + static_cast<int64_t>(rank) : a;
      if (d < 0 || d >= static_cast<int64_t>(rank)) throw Unsupported("LegalizeOps: reduction axis out of range");
      reduced[static_cast<size_t>(d)] = true;
    }
  }
  if (attr(l, "exclude").asBool())
    for (size_t d = 0; d < rank; ++d) reduced[d] = !reduced[d];
  return reduced;
}

/// The input index of output element `idx` at reduced position `ridx`.
std::vector<PrimExpr> reductionSource(const std::vector<bool>& reduced, bool keepdims, const std::vector<PrimExpr>& idx,
                                      const std::vector<PrimExpr>& ridx) {
  std::vector<PrimExpr> src;
  size_t o = 0, r = 0;
  for (bool isReduced : reduced) {
    if (isReduced) {
      src.push_back(ridx[r++]);
      if (keepdims) ++o;
    } else {
      src.push_back(idx[o++]);
    }
  }
  return src;
}

T::Stmt reduce(const OpLowering& l) {
  const Operand& in = l.args.at(0);
  size_t rank = in.shape.size();
  std::vector<bool> reduced = reducedAxesOf(l, rank);
  bool keepdims = attr(l, "keepdims").asBool();
  std::vector<int64_t> rextent;
  int64_t count = 1;
  for (size_t d = 0; d < rank; ++d)
    if (reduced[d]) rextent.push_back(in.shape[d]), count *= in.shape[d];
  DataType d = in.dtype;
  bool isSum = l.op.id == OpId::Sum || l.op.id == OpId::Mean;
  bool isProd = l.op.id == OpId::Prod;
  // Products accumulate like sums (float32 for float16): the reference kernel does.
  Cell acc("acc", isSum || isProd ? accumulatorType(d) : d);
  return loopNest(l.out->shape, "ax", [&](const std::vector<PrimExpr>& idx) {
    auto source = [&](const std::vector<PrimExpr>& ridx) { return read(in, reductionSource(reduced, keepdims, idx, ridx)); };
    PrimExpr init = isSum ? constOf(acc.buffer->dtype, 0) : isProd ? constOf(acc.buffer->dtype, 1) : l.op.id == OpId::Max ? lowest(d) : highest(d);
    BinaryOp op = isSum ? BinaryOp::Add : isProd ? BinaryOp::Mul : l.op.id == OpId::Max ? BinaryOp::Max : BinaryOp::Min;
    T::Stmt body = loopNest(rextent, "rv", [&](const std::vector<PrimExpr>& ridx) {
      return acc.set(bin(op, acc.get(), castTo(acc.buffer->dtype, source(ridx))));
    });
    PrimExpr result = acc.get();
    if (l.op.id == OpId::Mean) {
      DataType a = acc.buffer->dtype;
      result = bin(BinaryOp::Div, result, constOf(a, static_cast<double>(count)));
    }
    return T::allocate(acc.buffer, T::seq({acc.set(init), body, T::store(l.out, idx, castTo(l.out->dtype, result))}));
  }, NestSchedule{l.host && numElements(l.out->shape) >= 64, false});
}

/// argmax/argmin: a running best value and its int32 position (row-major over
/// the reduced axes), replaced as the reference kernel does: never after a
/// NaN, always by a first NaN, on ties only with select_last_index.
T::Stmt argReduce(const OpLowering& l) {
  const Operand& in = l.args.at(0);
  size_t rank = in.shape.size();
  std::vector<bool> reduced = reducedAxesOf(l, rank);
  bool keepdims = attr(l, "keepdims").asBool();
  bool last = attr(l, "select_last_index").asBool();
  bool isMax = l.op.id == OpId::ArgMax;
  std::vector<int64_t> rextent;
  for (size_t d = 0; d < rank; ++d)
    if (reduced[d]) rextent.push_back(in.shape[d]);
  if (numElements(rextent) == 0) throw Unsupported("LegalizeOps: " + std::string(l.op.name) + " over an empty axis");
  DataType d = in.dtype;
  Cell best("best", d), pos("pos", DTypeCode::Int32);
  return loopNest(l.out->shape, "ax", [&](const std::vector<PrimExpr>& idx) {
    std::vector<PrimExpr> zeros(rextent.size(), i32(0));
    T::Stmt body = loopNest(rextent, "rv", [&](const std::vector<PrimExpr>& ridx) {
      PrimExpr flat = i32(0);
      int64_t stride = 1;
      for (size_t k = ridx.size(); k-- > 0;) {
        PrimExpr term = stride == 1 ? ridx[k] : bin(BinaryOp::Mul, ridx[k], i32(stride));
        flat = k + 1 == ridx.size() ? term : bin(BinaryOp::Add, term, flat);
        stride *= rextent[k];
      }
      T::Var v = T::makeVar("v", d), take = T::makeVar("take", DTypeCode::Bool);
      PrimExpr cur = best.get();
      PrimExpr cond = bin(isMax ? BinaryOp::GT : BinaryOp::LT, v, cur);
      if (d.isFloat()) cond = bin(BinaryOp::And, bin(BinaryOp::EQ, cur, cur), bin(BinaryOp::Or, bin(BinaryOp::NE, v, v), cond));
      if (last) cond = bin(BinaryOp::Or, cond, bin(BinaryOp::EQ, v, cur));
      T::Stmt update = T::seq({pos.set(T::select(take, flat, pos.get())), best.set(T::select(take, v, cur))});
      return T::letStmt(v, read(in, reductionSource(reduced, keepdims, idx, ridx)), T::letStmt(take, cond, update));
    });
    T::Stmt init = T::seq({best.set(read(in, reductionSource(reduced, keepdims, idx, zeros))), pos.set(i32(0))});
    T::Stmt compute = T::seq({init, body, T::store(l.out, idx, castTo(l.out->dtype, pos.get()))});
    return T::allocate(best.buffer, T::allocate(pos.buffer, compute));
  }, NestSchedule{l.host && numElements(l.out->shape) >= 64, false});
}

/// Covers R rows x N columns with `tile(r0, rows, c0, columns)` register
/// tiles of rowTile x colTile: whole tiles (parallel over row blocks when
/// there are several), then the leftover columns and the leftover row (rowTile
/// is 1 or 2) as narrower tiles. Both matmul tilings walk their output so.
template <typename Tile>
T::Stmt coverWithTiles(int64_t R, int64_t N, int64_t rowTile, int64_t colTile, const Tile& tile) {
  auto columns = [&](const PrimExpr& r0, int64_t mr) {
    std::vector<T::Stmt> parts;
    if (N / colTile > 0) {
      T::Var jb = T::makeVar("jb");
      parts.push_back(T::forLoop(jb, i32(0), i32(N / colTile), T::ForKind::Serial, tile(r0, mr, mul(jb, i32(colTile)), colTile)));
    }
    if (N % colTile) parts.push_back(tile(r0, mr, i32(N / colTile * colTile), N % colTile));
    return T::seq(std::move(parts));
  };
  std::vector<T::Stmt> parts;
  if (R / rowTile > 0) {
    T::Var rb = T::makeVar("rb");
    parts.push_back(T::forLoop(rb, i32(0), i32(R / rowTile), R / rowTile > 1 ? T::ForKind::Parallel : T::ForKind::Serial,
                               columns(rowTile == 1 ? PrimExpr(rb) : mul(rb, i32(rowTile)), rowTile)));
  }
  if (R % rowTile) parts.push_back(columns(i32(R - 1), 1));
  return T::seq(std::move(parts));
}

}  // namespace

T::Stmt lowerReduce(const OpLowering& l) { return l.op.id == OpId::ArgMax || l.op.id == OpId::ArgMin ? argReduce(l) : reduce(l); }

T::Stmt lowerSoftmax(const OpLowering& l) {
  const Operand& in = l.args.at(0);
  if (!in.dtype.isFloat()) throw Unsupported("LegalizeOps: nn.softmax expects a floating-point tensor");
  int64_t rank = static_cast<int64_t>(in.shape.size());
  int64_t axis = attr(l, "axis").asInt();
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) throw Unsupported("LegalizeOps: nn.softmax axis out of range");
  std::vector<int64_t> outer = in.shape;
  int64_t extent = outer[static_cast<size_t>(axis)];
  outer[static_cast<size_t>(axis)] = 1;
  DataType a = accumulatorType(in.dtype);
  // The output row can hold the exponentials only when it has the accumulator's precision.
  const bool rowInPlace = l.host && axis == rank - 1 && l.out->dtype == a && extent >= kLanes;
  Cell maxCell("max_elem", a), sumCell("exp_sum", a);
  return loopNest(outer, "ax", [&](const std::vector<PrimExpr>& idx) {
    auto at = [&](const PrimExpr& k) {
      std::vector<PrimExpr> v = idx;
      v[static_cast<size_t>(axis)] = k;
      return v;
    };
    T::Var k1 = T::makeVar("k"), k2 = T::makeVar("k"), k3 = T::makeVar("k");
    auto shifted = [&](const T::Var& k) { return T::call(a, "exp", {bin(BinaryOp::Sub, castTo(a, read(in, at(k))), maxCell.get())}); };
    T::Stmt findMax = T::forLoop(k1, i32(0), i32(extent), T::ForKind::Serial,
                                 maxCell.set(bin(BinaryOp::Max, maxCell.get(), castTo(a, read(in, at(k1))))));
    if (!rowInPlace) {
      T::Stmt sum = T::forLoop(k2, i32(0), i32(extent), T::ForKind::Serial, sumCell.set(add(sumCell.get(), shifted(k2))));
      T::Stmt write = T::forLoop(k3, i32(0), i32(extent), T::ForKind::Serial,
                                 T::store(l.out, at(k3), castTo(l.out->dtype, bin(BinaryOp::Div, shifted(k3), sumCell.get()))));
      T::Stmt body = T::seq({maxCell.set(lowest(a)), findMax, sumCell.set(constOf(a, 0)), sum, write});
      return T::allocate(maxCell.buffer, T::allocate(sumCell.buffer, body));
    }
    // The host, along a contiguous axis: the exponentials go to the output row
    // in a vectorized loop (LLVM calls a vector exp there), their sum reads
    // them back in partial sums, and a second vectorized pass divides. A sum of
    // exp() calls is a floating-point reduction LLVM keeps scalar, with a
    // scalar exp call per element, and the row's exponentials were computed twice.
    T::Stmt exps = T::forLoop(k2, i32(0), i32(extent), T::ForKind::Vectorized, T::store(l.out, at(k2), shifted(k2)));
    auto lanes = T::makeBuffer("exp_lanes", a, {kLanes});
    PrimExpr total;
    std::vector<T::Stmt> steps = {maxCell.set(lowest(a)), findMax, exps};
    for (T::Stmt& s : laneSums(lanes, a, extent, [&](const PrimExpr& k) { return T::load(l.out, at(k)); }, total)) steps.push_back(std::move(s));
    steps.push_back(sumCell.set(total));
    steps.push_back(T::forLoop(k3, i32(0), i32(extent), T::ForKind::Vectorized,
                               T::store(l.out, at(k3), bin(BinaryOp::Div, T::load(l.out, at(k3)), sumCell.get()))));
    return T::allocate(maxCell.buffer, T::allocate(sumCell.buffer, T::allocate(lanes, T::seq(steps))));
  }, NestSchedule{l.host && numElements(outer) >= 16, false});
}

/// dense (and matmul/batch_matmul with transpose_b) on the host: B rows are
/// contiguous along K like A rows, so each output is a dot product summed in
/// one vector of partial sums over K (16 on AVX-512, 8 on AVX2). Tiles of rows x columns (2 x 4,
/// or 1 x 8 for a single row) run their dot products together: every A vector
/// loaded serves the tile's columns and every B vector its rows, and the
/// independent sums keep the floating-point adders busy instead of waiting on
/// one chain.
template <typename ReadA, typename ReadB>
T::Stmt lowerTransposedMatmulTiles(const OpLowering& l, int64_t K, DataType accType, const ReadA& A, const ReadB& B) {
  // One AVX-512 vector of partial sums, or half of one when that leaves no
  // tail; one AVX2 vector (8) on a target without AVX-512.
  const int64_t kVec = isaVectorForSums(l.isa, K);
  const std::vector<int64_t>& outShape = l.out->shape;
  const int64_t N = outShape.back();
  const std::vector<int64_t> rowShape(outShape.begin(), outShape.end() - 1);
  const int64_t R = numElements(rowShape);
  const int64_t rowTile = R >= 2 ? 2 : 1, colTile = R >= 2 ? 4 : 8;
  if (l.choice)
    choose(l, RemarkRule::LegalizeDenseTile,
           "register tiles of " + std::to_string(rowTile) + (rowTile == 1 ? " row" : " rows") + " x " + std::to_string(colTile) +
               " columns over " + std::to_string(R) + (R == 1 ? " row" : " rows") + " x " + std::to_string(N) + " columns, each output a dot product along K = " +
               std::to_string(K) + " in " + std::to_string(kVec) + " partial sums" +
               (R / rowTile > 1 ? ", parallel over " + std::to_string(R / rowTile) + " row blocks" : std::string()),
           std::string(l.op.id == OpId::Dense ? "the weight is [N, K]" : "transpose_b") +
               ": both operands contiguous along K, so each loaded vector serves the whole tile" +
               (R == 1 ? "; a single row, so a wider tile of columns" : ""));
  auto tile = [&](const PrimExpr& r0, int64_t mr, const PrimExpr& j0, int64_t nr) {
    std::vector<std::vector<PrimExpr>> rows;
    for (int64_t mi = 0; mi < mr; ++mi) rows.push_back(unflattenIndex(mi == 0 ? r0 : add(r0, i32(mi)), rowShape));
    auto outIndex = [&](int64_t mi, int64_t nj) {
      std::vector<PrimExpr> o = rows[static_cast<size_t>(mi)];
      o.push_back(nj == 0 ? j0 : add(j0, i32(nj)));
      return o;
    };
    // A[row, k] * B[col, k] for every (row, col) of the tile.
    return reductionTile(
        "dense", accType, mr, nr, kVec, K,
        [&](int64_t mi, int64_t nj, const PrimExpr& k) {
          std::vector<PrimExpr> o = outIndex(mi, nj);
          return mul(A(rows[static_cast<size_t>(mi)], k), B(o, k, o.back()));
        },
        [&](int64_t mi, int64_t nj, const PrimExpr& total) { return finishElement(l, outIndex(mi, nj), total); });
  };
  return coverWithTiles(R, N, rowTile, colTile, tile);
}

/// matmul with B as [K, N] (contiguous along N) on a 16-register ISA
/// (AVX2): tiles of 2 rows x 6 vectors of columns. A row's whole
/// accumulator (120 columns: 15 ymm registers) with the B vector and the
/// product did not fit in 16 registers, so every k stored and reloaded the
/// sums. Here 12 sums, a B vector and two broadcast A values make 15, and
/// each B vector loaded serves both rows. Every output is still summed over
/// k in increasing order.
template <typename ReadA, typename ReadB>
T::Stmt lowerMatmulRowTiles(const OpLowering& l, int64_t K, DataType accType, const ReadA& A, const ReadB& B) {
  const std::vector<int64_t>& outShape = l.out->shape;
  const int64_t N = outShape.back();
  const std::vector<int64_t> rowShape(outShape.begin(), outShape.end() - 1);
  const int64_t R = numElements(rowShape);
  const int64_t rowTile = R >= 2 ? 2 : 1, colTile = 6 * l.isa.floats;
  if (l.choice)
    choose(l, RemarkRule::LegalizeMatmulRows,
           "register tiles of " + std::to_string(rowTile) + (rowTile == 1 ? " row" : " rows") + " x " + std::to_string(colTile) +
               " columns (" + std::to_string(colTile / l.isa.floats) + " vectors each) over " + std::to_string(R) + (R == 1 ? " row" : " rows") +
               " x " + std::to_string(N) + " columns, the reduction over K = " + std::to_string(K) + " outside a vectorized loop over the tile's columns",
           std::string(l.weightTransposed ? "LegalizeOps transposed the constant weight to [K, N] at compile time (several rows of data)"
                                          : "the second operand is [K, N]") +
               ", contiguous along N; " + std::to_string(l.isa.registers) + " vector registers hold " + std::to_string(rowTile * colTile / l.isa.floats) +
               " vectors of sums with a B vector and the broadcast A values");
  auto tile = [&](const PrimExpr& r0, int64_t mr, const PrimExpr& j0, int64_t width) {
    std::vector<std::vector<PrimExpr>> rows;
    for (int64_t mi = 0; mi < mr; ++mi) rows.push_back(unflattenIndex(mi == 0 ? r0 : add(r0, i32(mi)), rowShape));
    auto acc = T::makeBuffer("matmul_acc", accType, {mr, width});
    T::Var j0v = T::makeVar("j"), j1 = T::makeVar("j"), j2 = T::makeVar("j"), k = T::makeVar("k");
    std::vector<T::Stmt> zero, update, finish;
    for (int64_t mi = 0; mi < mr; ++mi) {
      const std::vector<PrimExpr>& r = rows[static_cast<size_t>(mi)];
      std::vector<PrimExpr> o = r;
      o.push_back(add(j0, j1));
      zero.push_back(T::store(acc, {i32(mi), j0v}, constOf(accType, 0)));
      update.push_back(T::store(acc, {i32(mi), j1}, add(T::load(acc, {i32(mi), j1}), mul(A(r, k), B(o, k, add(j0, j1))))));
      std::vector<PrimExpr> oi = r;
      oi.push_back(add(j0, j2));
      finish.push_back(finishElement(l, oi, T::load(acc, {i32(mi), j2})));
    }
    T::Stmt init = T::forLoop(j0v, i32(0), i32(width), T::ForKind::Vectorized, T::seq(std::move(zero)));
    T::Stmt body = T::forLoop(k, i32(0), i32(K), T::ForKind::Serial,
                              T::forLoop(j1, i32(0), i32(width), T::ForKind::Vectorized, T::seq(std::move(update))));
    T::Stmt store = T::forLoop(j2, i32(0), i32(width), T::ForKind::Vectorized, T::seq(std::move(finish)));
    return T::allocate(acc, T::seq({init, body, store}));
  };
  return coverWithTiles(R, N, rowTile, colTile, tile);
}

T::Stmt lowerMatmul(const OpLowering& l) {
  const Operand& a = l.args.at(0);
  const Operand& b = l.args.at(1);
  if (!a.buffer || !b.buffer) throw Unsupported("LegalizeOps: " + std::string(l.op.name) + " expects tensor operands");
  bool batched = l.op.id == OpId::BatchMatmul;
  bool transA = l.op.id != OpId::Dense && attr(l, "transpose_a").asBool();
  bool transB = l.op.id == OpId::Dense ? !l.weightTransposed : attr(l, "transpose_b").asBool();
  // dense: [..., K] x [N, K]; matmul: [..., M, K] (transpose_a: [..., K, M]) x
  // 2-d b; batch_matmul: [Ba, M, K] x [Bb, K, N] with a batch of 1 broadcast.
  // The output has a's rank in every case, so a's index is the output's with
  // the last axis (or the last two, transposed) replaced by the reduction.
  size_t rank = l.out->shape.size();
  if (a.shape.size() != rank || a.shape.size() < (transA ? 2u : 1u) || b.shape.size() != (batched ? 3u : 2u) ||
      (batched && rank != 3))
    throw Unsupported("LegalizeOps: " + std::string(l.op.name) + " cannot lower operands of rank " + std::to_string(a.shape.size()) +
                      " and " + std::to_string(b.shape.size()));
  int64_t K = a.shape[rank - (transA ? 2 : 1)];
  DataType accType = accumulatorType(l.out->dtype);
  // `r` is the output index without its last axis (the row).
  auto A = [&](const std::vector<PrimExpr>& r, const PrimExpr& k) {
    std::vector<PrimExpr> idx(r.begin(), r.end() - (transA ? 1 : 0));
    if (batched && a.shape[0] == 1) idx[0] = i32(0);
    if (transA) idx.insert(idx.end(), {k, r.back()});
    else idx.push_back(k);
    return castTo(accType, read(a, idx));
  };
  auto B = [&](const std::vector<PrimExpr>& o, const PrimExpr& k, const PrimExpr& j) {
    std::vector<PrimExpr> idx;
    if (batched) idx.push_back(b.shape[0] == 1 ? i32(0) : o[0]);
    if (transB) idx.insert(idx.end(), {j, k});
    else idx.insert(idx.end(), {k, j});
    return castTo(accType, read(b, idx));
  };
  const std::vector<int64_t>& outShape = l.out->shape;
  if (!transB) {
    // B is (K, N), contiguous along N: one accumulator row per output row, the
    // reduction outside a vectorized loop over N.
    int64_t N = outShape.back();
    std::vector<int64_t> rows(outShape.begin(), outShape.end() - 1);
    if (l.choice)
      choose(l, RemarkRule::LegalizeMatmulRows,
             "one accumulator row of " + std::to_string(N) + " per output row (" + std::to_string(numElements(rows)) +
                 " rows), the reduction over K = " + std::to_string(K) + " outside a vectorized loop over N",
             l.weightTransposed ? "LegalizeOps transposed the constant weight to [K, N] at compile time (several rows of data): "
                                  "rows of N are contiguous"
                                : "the second operand is [K, N], contiguous along N");
    if (l.host && l.isa.registers < 32 && N >= 6 * l.isa.floats) return lowerMatmulRowTiles(l, K, accType, A, B);
    auto acc = T::makeBuffer("matmul_acc", accType, {N});
    return loopNest(rows, "ax", [&](const std::vector<PrimExpr>& o) {
      T::Var j0 = T::makeVar("j"), j1 = T::makeVar("j"), j2 = T::makeVar("j"), k = T::makeVar("k");
      T::Stmt init = T::forLoop(j0, i32(0), i32(N), T::ForKind::Vectorized, T::store(acc, {j0}, constOf(accType, 0)));
      T::Stmt update = T::forLoop(k, i32(0), i32(K), T::ForKind::Serial,
                                  T::forLoop(j1, i32(0), i32(N), T::ForKind::Vectorized,
                                             T::store(acc, {j1}, add(T::load(acc, {j1}), mul(A(o, k), B(o, k, j1))))));
      std::vector<PrimExpr> oi = o;
      oi.push_back(j2);
      T::Stmt store = T::forLoop(j2, i32(0), i32(N), T::ForKind::Vectorized, finishElement(l, oi, T::load(acc, {j2})));
      return T::allocate(acc, T::seq({init, update, store}));
    }, NestSchedule{l.host, false});
  }
  if (l.host) return lowerTransposedMatmulTiles(l, K, accType, A, B);
  // B is (N, K), contiguous along K like A: kLanes partial sums over K in a
  // vectorized loop, added together at the end (and a scalar tail).
  auto acc = T::makeBuffer("dense_acc", accType, {kLanes});
  return loopNest(outShape, "ax", [&](const std::vector<PrimExpr>& o) {
    PrimExpr j = o.back();
    const std::vector<PrimExpr> r(o.begin(), o.end() - 1);
    PrimExpr total;
    std::vector<T::Stmt> body = laneSums(acc, accType, K, [&](const PrimExpr& k) { return mul(A(r, k), B(o, k, j)); }, total);
    body.push_back(finishElement(l, o, total));
    return T::allocate(acc, T::seq(std::move(body)));
  }, NestSchedule{l.host, false});
}

T::Stmt lowerPool(const OpLowering& l) {
  const Operand& data = l.args.at(0);
  if (!data.buffer || data.shape.size() != 4) throw Unsupported("LegalizeOps: pooling expects 4-d data");
  std::string layout = attr(l, "layout").asString(), outLayout = attr(l, "out_layout").asString();
  if (outLayout.empty()) outLayout = layout;
  std::vector<size_t> dp = layoutPositions(l, layout, "NCHW", "layout");
  std::vector<size_t> op = layoutPositions(l, outLayout, "NCHW", "out_layout");
  int64_t H = data.shape[dp[2]], W = data.shape[dp[3]];
  DataType d = data.dtype;
  bool isMax = l.op.id == OpId::MaxPool2D;
  bool global = l.op.id == OpId::GlobalAvgPool2D;
  std::vector<int64_t> pool = global ? std::vector<int64_t>{H, W} : attrInts(l, "pool_size");
  std::vector<int64_t> strides = global ? std::vector<int64_t>{1, 1} : attrInts(l, "strides");
  std::vector<int64_t> dilation = global ? std::vector<int64_t>{1, 1} : attrInts(l, "dilation");
  for (auto* v : {&pool, &strides, &dilation})
    if (v->size() == 1) v->push_back(v->at(0));
  auto pad = global ? std::array<int64_t, 4>{0, 0, 0, 0} : padding4(l);
  bool includePad = !isMax && !global && attr(l, "count_include_pad").asBool();
  // Without padding or ceil_mode overhang every tap is inside the data.
  bool anyPad = pad[0] || pad[1] || pad[2] || pad[3] || (!global && attr(l, "ceil_mode").asBool());
  DataType accType = isMax ? d : accumulatorType(d);
  if (global && l.host && dp == std::vector<size_t>{0, 1, 2, 3}) {
    // A channel's H x W values are contiguous: summed along the flat plane
    // in kLanes partial sums (as dense sums a row), not window by window.
    // Nested window loops made LLVM vectorize across channels, a gather per tap.
    const int64_t plane = H * W;
    auto sums = T::makeBuffer("pool_acc", accType, {kLanes});
    return loopNest(l.out->shape, "ax", [&](const std::vector<PrimExpr>& o) {
      PrimExpr base = mul(add(mul(o[op[0]], i32(data.shape[1])), o[op[1]]), i32(plane));
      PrimExpr total;
      std::vector<T::Stmt> body =
          laneSums(sums, accType, plane, [&](const PrimExpr& k) { return castTo(accType, read(data, {add(base, k)})); }, total);
      body.push_back(T::store(l.out, o, castTo(l.out->dtype, bin(BinaryOp::Div, total, constOf(accType, static_cast<double>(std::max<int64_t>(plane, 1)))))));
      return T::allocate(sums, T::seq(std::move(body)));
    }, NestSchedule{l.host, false});
  }
  Cell acc("pool_acc", accType), count("pool_count", DTypeCode::Int32);
  return loopNest(l.out->shape, "ax", [&](const std::vector<PrimExpr>& o) {
    PrimExpr n = o[op[0]], c = o[op[1]], y = o[op[2]], x = o[op[3]];
    T::Var ky = T::makeVar("ry"), kx = T::makeVar("rx");
    PrimExpr iy = add(bin(BinaryOp::Sub, mul(y, i32(strides[0])), i32(pad[0])), mul(ky, i32(dilation[0])));
    PrimExpr ix = add(bin(BinaryOp::Sub, mul(x, i32(strides[1])), i32(pad[1])), mul(kx, i32(dilation[1])));
    std::vector<PrimExpr> di(4);
    di[dp[0]] = n, di[dp[1]] = c, di[dp[2]] = iy, di[dp[3]] = ix;
    PrimExpr v = castTo(accType, read(data, di));
    T::Stmt take = isMax ? acc.set(bin(BinaryOp::Max, acc.get(), v)) : acc.set(add(acc.get(), v));
    T::Stmt tap = take;
    // Taps outside the data are skipped by a statement-level guard (never loaded);
    // count_include_pad also counts taps inside the padded extent.
    PrimExpr inside = bin(BinaryOp::And, bin(BinaryOp::And, bin(BinaryOp::GE, iy, i32(0)), bin(BinaryOp::LT, iy, i32(H))),
                          bin(BinaryOp::And, bin(BinaryOp::GE, ix, i32(0)), bin(BinaryOp::LT, ix, i32(W))));
    T::Stmt counted = count.set(add(count.get(), i32(1)));
    if (!isMax) {
      if (includePad) {
        PrimExpr inPadded = bin(BinaryOp::And, bin(BinaryOp::LT, iy, i32(H + pad[2])), bin(BinaryOp::LT, ix, i32(W + pad[3])));
        tap = T::seq({T::ifThenElse(inside, take), T::ifThenElse(inPadded, counted)});
      } else {
        tap = T::ifThenElse(inside, T::seq({take, counted}));
      }
    } else {
      tap = T::ifThenElse(inside, take);
    }
    if (!anyPad && !isMax && !includePad) tap = T::seq({take, counted});
    if (!anyPad && isMax) tap = take;
    T::Stmt taps = T::forLoop(ky, i32(0), i32(pool[0]), T::ForKind::Serial, T::forLoop(kx, i32(0), i32(pool[1]), T::ForKind::Serial, tap));
    std::vector<T::Stmt> body{acc.set(isMax ? lowest(accType) : constOf(accType, 0))};
    if (isMax) {
      body.push_back(taps);
      body.push_back(T::store(l.out, o, acc.get()));
      return T::allocate(acc.buffer, T::seq(std::move(body)));
    }
    body.push_back(count.set(i32(0)));
    body.push_back(taps);
    // An empty window (all padding, ceil_mode overhang) averages to 0.
    PrimExpr mean = bin(BinaryOp::Div, acc.get(), castTo(accType, bin(BinaryOp::Max, count.get(), i32(1))));
    body.push_back(T::store(l.out, o, castTo(l.out->dtype, mean)));
    return T::allocate(acc.buffer, T::allocate(count.buffer, T::seq(std::move(body))));
  }, NestSchedule{l.host, false});
}

}  // namespace passlab::legalize
