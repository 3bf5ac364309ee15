// Internal to LegalizeOps: how one op call becomes a loop nest over buffers.
// Shared by legalize_lower*.cpp; not part of any public API.
#pragma once

#include <array>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/ir/expr.h"
#include "core/ir/module.h"
#include "core/ir/tir.h"
#include "core/pass/remark.h"

namespace passlab {
class PassContext;
}

namespace passlab::legalize {

/// What an op reads inside a PrimFunc: a buffer, or a scalar immediate
/// (rank-0 constants are folded into the expression instead of a buffer).
struct Operand {
  /// Null for a scalar immediate.
  tir::Buffer buffer;
  /// The immediate when `buffer` is null.
  tir::PrimExpr scalar;
  /// Tensor shape ({} for a scalar).
  std::vector<int64_t> shape;
  /// Element type (the immediate's dtype for a scalar).
  DataType dtype;
  /// Set for an elementwise result computed where it is read instead of in a
  /// buffer of its own (a producer inlined into its one elementwise consumer).
  std::function<tir::PrimExpr(const std::vector<tir::PrimExpr>&)> lazy;
};

/// An op the table has but LegalizeOps cannot lower (or an attribute value it
/// does not handle); LegalizeOps reports it as a diagnostic at the call.
struct Unsupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The vector unit the schedules shape their tiles for: how many float32
/// lanes one vector register holds and how many such registers there are
/// (accumulator tiles are sized to leave room for the operands). Chosen from
/// the target by vectorIsaFor (legalize_isa.cpp).
struct VectorIsa {
  /// "avx512", "avx2", "sse", "neon" or "hvx".
  std::string name = "avx512";
  /// float32 lanes per vector register.
  int64_t floats = 16;
  /// Architectural vector registers.
  int64_t registers = 32;
  /// Why this one: "host CPU", "-mattr=-avx512f", "-mcpu=haswell", "hexagon".
  std::string reason = "default";
  /// "avx2: 8 float32 lanes, 16 vector registers (-mattr=-avx512f)".
  std::string describe() const;
};

/// The vector unit of a target: `kind` is the target kind ("llvm", "hexagon",
/// ...), `mcpu` and `mattr` its -mcpu / -mattr values ("" when absent). With
/// neither, a host target is this process's CPU. Features in -mattr apply in
/// order after the CPU's, as LLVM applies them ("-avx512f" on an AVX-512 CPU
/// is AVX2; "+avx512bw" implies AVX-512).
VectorIsa vectorIsaFor(const std::string& kind, const std::string& mcpu, const std::string& mattr);
/// The vector unit LegalizeOps shapes its schedules for: the target's
/// -mcpu/-mattr (the context's target, else the module's `target`
/// attribute), recorded as the decision "legalize.vector_isa".
VectorIsa scheduleIsa(const IRModule& mod, PassContext& ctx, const std::string& kind);

/// The schedule a lowering chose for one op, for LegalizeOps' analysis
/// remarks (core/pass/remarks.def, `legalize.*`). Lowerings fill it only when
/// OpLowering::choice is set, which it is only while remarks are on.
struct ScheduleChoice {
  /// legalize.conv-pointwise, legalize.dense-tile, ...; set == false: nothing chosen yet.
  RemarkRule rule{};
  bool set = false;
  /// The schedule with its sizes: "pointwise GEMM: register tiles of 8 channels x 32 positions".
  std::string what;
  /// Why this one, with the values that decided it.
  std::string why;
};
/// Records `rule`, `what` and `why` in `l.choice` when it is set (callers
/// test `l.choice` first, so nothing is formatted while remarks are off).
struct OpLowering;
void choose(const OpLowering& l, RemarkRule rule, std::string what, std::string why);
/// "1x16x56x56".
std::string shapeText(const std::vector<int64_t>& shape);
/// Unless the lowering chose a schedule itself, records `legalize.loop-nest`
/// with the parallel and vectorized loops `nest` has (legalize_choice.cpp).
void describeLoopNest(const OpLowering& l, const tir::Stmt& nest);

/// One op call to lower: its arguments as operands and the buffer to write.
struct OpLowering {
  /// The call: its attributes and (through checkedType) its result type.
  const CallNode& call;
  /// The op, from the table.
  const OpDef& op;
  /// The arguments in order; a tuple argument (concatenate) contributes its fields.
  std::vector<Operand> args;
  /// Where the result goes: an output parameter or a scratch allocation.
  tir::Buffer out;
  /// Host targets get a parallel outer loop (the device path runs one thread).
  bool host = true;
  /// For conv2d/dense/matmul: what to do with each finished output element
  /// (its index and value) instead of storing it in `out`, so an elementwise
  /// epilogue runs while the value is still in the accumulator.
  std::function<tir::Stmt(const std::vector<tir::PrimExpr>&, tir::PrimExpr)> epilogue;
  /// dense only: the weight operand holds [K, N], the transpose of the op's
  /// [N, K] (a constant LegalizeOps transposed; see GroupLowering).
  bool weightTransposed = false;
  /// The target's vector unit: vector widths and register tiles follow it.
  VectorIsa isa;
  /// Where the lowering records the schedule it chose (null: remarks off).
  ScheduleChoice* choice = nullptr;
};

/// Stores `value` (cast to the output dtype) at `idx` of `l.out`, or hands it to `l.epilogue`.
tir::Stmt finishElement(const OpLowering& l, const std::vector<tir::PrimExpr>& idx, tir::PrimExpr value);

/// How an op is lowered: the one switch over the op table (ops.def).
enum class LoweringFamily : uint8_t { Elementwise, Transform, Reduce, Softmax, Conv2D, Conv2DTranspose, Matmul, Pool, Resize, Split, None };
/// The family of `id`; None for ops without a lowering.
LoweringFamily loweringFamily(OpId id);

/// The loop nest computing `l.out`, dispatched on loweringFamily (ops without
/// a lowering throw Unsupported naming the op).
tir::Stmt lowerOpCall(const OpLowering& l);
/// The value of an Elementwise-family op at output index `idx` (what its loop
/// nest stores there), so a consumer can compute it inline.
tir::PrimExpr elementwiseValue(const OpLowering& l, const std::vector<tir::PrimExpr>& idx);
/// Whether `call` (an op call) can be computed where it is read (through
/// elementwiseValue): the Elementwise family except integer power, whose
/// value needs let-bound intermediates and so is a loop nest of its own.
bool computedInline(const CallNode& call);

// ---- Building blocks shared by the per-family lowerings ----

/// An int32 immediate (loop bounds and indices are int32).
tir::PrimExpr i32(int64_t v);
/// `v` as an immediate of `d` (float or integer/bool).
tir::PrimExpr constOf(DataType d, double v);
/// `a op b`.
tir::PrimExpr bin(tir::BinaryOp op, tir::PrimExpr a, tir::PrimExpr b);
/// Width of the partial sums of dot-product reductions (one 256-bit float
/// vector): dense's reduction, a pointwise convolution of one position.
constexpr int64_t kLanes = 8;

/// The statements summing term(k) for k in [0, length) into kLanes partial
/// sums held in `sums` (a [kLanes] buffer of the accumulator type): zero it,
/// add vectors of kLanes terms, then the scalar tail lane by lane. `total`
/// becomes the lanes added in order. Dense rows, a pointwise convolution of
/// one position and global pooling reduce this way.
std::vector<tir::Stmt> laneSums(const tir::Buffer& sums, DataType accType, int64_t length,
                                const std::function<tir::PrimExpr(const tir::PrimExpr&)>& term, tir::PrimExpr& total);

/// Tiles of `width` positions over [0, total) for a schedule whose position
/// loop must vectorize: the whole tiles in a loop of `kind`, then, when
/// `total` is not a multiple of `width`, a last tile of whole vectors (of
/// `vectorFloats` lanes) ending
/// at `total` that recomputes a few positions of the tile before (a narrow
/// tail would not vectorize: LLVM leaves a 17-wide loop scalar). Each
/// position's value does not depend on its tile, so the stores agree. Fewer
/// positions than that last tile: one tile of all of them. `tile(start,
/// positions)` builds one tile. Pointwise convolutions and the GEMMs of a
/// stride-sized conv2d_transpose tile their flattened positions this way.
tir::Stmt overlappingTiles(int64_t total, int64_t width, int64_t vectorFloats, tir::ForKind kind,
                           const std::function<tir::Stmt(const tir::PrimExpr&, int64_t)>& tile);

/// The width of the partial sums of a dot product of length `K` vectorized
/// along K: one AVX-512 vector (16), or half of one when that leaves no tail;
/// one AVX2 vector (8) on targets without AVX-512.
int64_t isaVectorForSums(const VectorIsa& isa, int64_t K);

/// One register tile of a dot-product reduction of length `K` (dense, and the
/// small-spatial convolution): an `mr` x `nr` tile of outputs, each with a
/// vector of `kVec` partial sums over the whole vectors of K and a scalar sum
/// over its tail (kept apart, at constant positions: a variable index into
/// the vectors would keep LLVM from holding them in registers); then each
/// output's lanes are added. `term(mi, nj, k)` is output (mi, nj)'s product
/// at reduction index k, `finish(mi, nj, total)` stores the output. The
/// scratch is named `<name>_acc` / `<name>_tail`.
tir::Stmt reductionTile(const std::string& name, DataType accType, int64_t mr, int64_t nr, int64_t kVec, int64_t K,
                        const std::function<tir::PrimExpr(int64_t, int64_t, const tir::PrimExpr&)>& term,
                        const std::function<tir::Stmt(int64_t, int64_t, const tir::PrimExpr&)>& finish);

/// a + b and a * b (the arithmetic every lowering writes most).
tir::PrimExpr add(tir::PrimExpr a, tir::PrimExpr b);
tir::PrimExpr mul(tir::PrimExpr a, tir::PrimExpr b);

/// Where N, C, H, W (data and output) and O, I, H, W (kernel) sit in a
/// convolution's layouts.
struct ConvLayouts {
  std::vector<size_t> data, kernel, out;
};
/// The layouts of a conv2d / conv2d_transpose call with 4-d data and weight
/// (out_layout defaults to data_layout), or Unsupported naming the op.
ConvLayouts convLayouts(const OpLowering& l);

/// The `padding` attribute as (top, left, bottom, right) from 1, 2 or 4
/// non-negative values, or Unsupported naming the op.
std::array<int64_t, 4> padding4(const OpLowering& l);
/// The element of `o` at `indices` (a scalar ignores them).
tir::PrimExpr read(const Operand& o, std::vector<tir::PrimExpr> indices);
/// The element of `o` broadcast (numpy rules, right-aligned) to an output indexed by `outIndices`.
tir::PrimExpr readBroadcast(const Operand& o, const std::vector<tir::PrimExpr>& outIndices);
/// `v` converted to `d` unless it already has that dtype.
tir::PrimExpr castTo(DataType d, tir::PrimExpr v);
/// The dtype sums of `d` accumulate in: float32 for float16/float32 (as the
/// reference kernels do), the dtype itself otherwise.
DataType accumulatorType(DataType d);

/// How loopNest schedules the nest.
struct NestSchedule {
  /// Mark the outermost loop of extent > 1 parallel.
  bool parallelOuter = false;
  /// Mark the innermost loop vectorized (unless it is the parallel one).
  bool vectorizeInner = false;
  /// Merge trailing loops into one when every buffer access indexes them
  /// together as whole trailing axes (a (1, C, 14, 14) elementwise op becomes
  /// C loops of 196, which vectorize, instead of 14 x 14). Only for bodies
  /// that build nothing outside the statement: the body is built twice.
  bool collapseInner = false;
};

/// Nested loops over `shape` (outermost first) with variables `<prefix>0..`;
/// `body` receives the index of every dimension. Rank 0 is the body alone.
tir::Stmt loopNest(const std::vector<int64_t>& shape, const std::string& prefix,
                   const std::function<tir::Stmt(const std::vector<tir::PrimExpr>&)>& body, NestSchedule schedule = {});

/// The elementwise schedule for `l`: parallel outer loop on host targets and
/// a vectorized inner loop.
NestSchedule elementwiseSchedule(const OpLowering& l);

/// The int values of attribute `key` of the call (schema default when absent).
std::vector<int64_t> attrInts(const OpLowering& l, std::string_view key);
/// Attribute `key` of the call (schema default when absent).
const AttrValue& attr(const OpLowering& l, std::string_view key);
/// Position of each letter of `want` (e.g. "NCHW") in the call's layout string
/// `layout`; Unsupported naming the op and the attribute `what` unless `layout`
/// is a permutation of `want`.
std::vector<size_t> layoutPositions(const OpLowering& l, const std::string& layout, const std::string& want,
                                    const std::string& what);
/// The indices into a row-major tensor of `shape` of element number `flat`.
std::vector<tir::PrimExpr> unflattenIndex(tir::PrimExpr flat, const std::vector<int64_t>& shape);
/// Row-major element count of `shape`.
int64_t numElements(const std::vector<int64_t>& shape);

// ---- Per-family lowerings (legalize_lower_*.cpp) ----

/// False for Elementwise-family ops whose value reads an operand more than once
/// (leaky_relu, integer abs): inlining a producer there would copy it, and a
/// chain of them would grow exponentially, so their operands get buffers.
bool readsOperandsOnce(OpId id);

/// Broadcast binary ops, where, unary math, clip, relu, leaky_relu, cast, bias_add, zeros/ones/full.
tir::Stmt lowerElementwise(const OpLowering& l);
/// reshape, squeeze, expand_dims, transpose, layout_transform, concatenate, strided_slice, pad, take.
tir::Stmt lowerTransform(const OpLowering& l);
/// split (the Split family): `pieces` are the tuple fields' buffers in order;
/// `l.out` is unused, since a split writes several results.
tir::Stmt lowerSplit(const OpLowering& l, const std::vector<tir::Buffer>& pieces);
/// sum, mean, max, min, prod, argmax, argmin.
tir::Stmt lowerReduce(const OpLowering& l);
/// softmax over one axis.
tir::Stmt lowerSoftmax(const OpLowering& l);
/// nn.conv2d in any permutation of NCHW / OIHW layouts, groups included.
tir::Stmt lowerConv2D(const OpLowering& l);
/// The sizes of a conv2d (NCHW data and output, OIHW weight, float32) for
/// the small-spatial schedule.
struct SmallConvGeometry {
  int64_t N, C, H, W, OC, OH, OW, kh, kw, sh, sw, dh, dw, padTop, padLeft;
};
/// Whether a conv2d of `positions` outputs per channel and `reduction` =
/// C * kh * kw products per output is better vectorized along the reduction
/// (lowerSmallSpatialConv) than along positions: no groups, a reduction of
/// at least two vectors, and positions that would leave more than a third of
/// the position vectors' lanes idle (9 positions in a vector of 16 or 8).
bool smallSpatialConvFits(const VectorIsa& isa, int64_t positions, int64_t reduction, int64_t groups);
/// The dot-product schedule of a small-spatial conv2d (legalize_lower_conv_small.cpp).
tir::Stmt lowerSmallSpatialConv(const OpLowering& l, const Operand& data, const Operand& weight, const SmallConvGeometry& g);
/// Whether a depthwise conv2d of `channels` channels and `positions` outputs
/// per channel, which the wide-grid schedule would compute as `gridLanes`
/// lanes per channel, is better vectorized along its channels
/// (lowerDepthwiseChannels): the channels fill a vector and the grid would
/// leave more than a third of its lanes idle (a 3x3 or 6x6 output), on
/// ISAs without AVX-512 (see the definition for why).
bool depthwiseChannelsFit(const VectorIsa& isa, int64_t channels, int64_t positions, int64_t gridLanes);
/// The channels-vectorized schedule of a depthwise NCHW float32 conv2d with an
/// OIHW weight (legalize_lower_conv_small.cpp).
tir::Stmt lowerDepthwiseChannels(const OpLowering& l, const Operand& data, const Operand& weight, const SmallConvGeometry& g);
/// nn.conv2d_transpose (legalize_lower_conv_transpose.cpp).
tir::Stmt lowerConv2DTranspose(const OpLowering& l);
/// image.resize2d: nearest, linear and cubic (legalize_lower_image.cpp).
tir::Stmt lowerResize2D(const OpLowering& l);
/// nn.dense, nn.matmul, nn.batch_matmul.
tir::Stmt lowerMatmul(const OpLowering& l);
/// nn.max_pool2d, nn.avg_pool2d, nn.global_avg_pool2d.
tir::Stmt lowerPool(const OpLowering& l);

}  // namespace passlab::legalize
