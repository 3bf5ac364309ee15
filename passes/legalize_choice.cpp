// LegalizeOps: the schedule each lowering chose, recorded for the
// `legalize.*` analysis remarks (core/pass/remarks.def). The convolution and
// matmul lowerings name their schedule where they pick it; every other op's
// schedule is read off the loop nest it got (its parallel and vectorized loops).
#include <string>

#include "core/ir/op.h"
#include "core/ir/tir_functor.h"
#include "core/pass/remark_rules.h"
#include "passes/legalize_lower.h"

namespace passlab::legalize {

namespace T = tir;

void choose(const OpLowering& l, RemarkRule rule, std::string what, std::string why) {
  if (!l.choice) return;
  l.choice->rule = rule;
  l.choice->set = true;
  l.choice->what = std::move(what);
  l.choice->why = std::move(why);
}

std::string shapeText(const std::vector<int64_t>& shape) {
  if (shape.empty()) return "scalar";
  std::string out;
  for (size_t i = 0; i < shape.size(); ++i) out += (i ? "x" : "") + std::to_string(shape[i]);
  return out;
}

namespace {

/// What one family's single schedule is for, in a sentence.
std::string familyReason(const OpLowering& l, LoweringFamily family) {
  switch (family) {
    case LoweringFamily::Elementwise:
    case LoweringFamily::Transform:
    case LoweringFamily::Split:
      return "elementwise and layout ops have one schedule: the outermost loop parallel on the host when the output "
             "has at least 1024 elements, the innermost axis (short trailing axes merged) vectorized";
    case LoweringFamily::Reduce:
    case LoweringFamily::Softmax:
      return "reductions have one schedule: each output's accumulator in a scalar, the outer loop parallel on the host";
    case LoweringFamily::Pool:
      return l.op.id == OpId::GlobalAvgPool2D && l.host
                 ? "global average pooling on the host sums each channel's contiguous plane in partial sums"
                 : "window pooling: one accumulator per output, taps in the padding skipped by a guard";
    case LoweringFamily::Matmul:
      return l.host ? "a matmul shape without a tiled schedule" : "device target: one thread, dot products in partial sums";
    case LoweringFamily::Conv2DTranspose:
      return "conv2d_transpose: a GEMM per stride phase when the kernel is as large as its stride (host, NCHW, float32), "
             "else the scatter-free gather nest";
    case LoweringFamily::Resize: return "resize has one schedule: one loop nest over the output";
    default: return "the op's one schedule";
  }
}

const char* familyName(LoweringFamily family) {
  switch (family) {
    case LoweringFamily::Elementwise: return "elementwise";
    case LoweringFamily::Transform: return "transform";
    case LoweringFamily::Reduce: return "reduction";
    case LoweringFamily::Softmax: return "softmax";
    case LoweringFamily::Conv2D: return "conv2d";
    case LoweringFamily::Conv2DTranspose: return "conv2d_transpose";
    case LoweringFamily::Matmul: return "matmul";
    case LoweringFamily::Pool: return "pooling";
    case LoweringFamily::Resize: return "resize";
    case LoweringFamily::Split: return "split";
    case LoweringFamily::None: break;
  }
  return "op";
}

}  // namespace

void describeLoopNest(const OpLowering& l, const T::Stmt& nest) {
  if (!l.choice || l.choice->set) return;
  // The loops the nest got: the first parallel one, and the vectorized ones' extents.
  std::string parallel, vectors;
  size_t vectorLoops = 0;
  T::preOrderVisit(
      nest,
      [&](const T::Stmt& s) {
        const auto* loop = T::as<T::ForNode>(s);
        if (!loop) return true;
        const auto* extent = T::as<T::IntImmNode>(loop->extent);
        std::string n = extent ? std::to_string(extent->value) : "?";
        if (loop->forKind == T::ForKind::Parallel && parallel.empty()) parallel = "parallel loop of " + n;
        if (loop->forKind == T::ForKind::Vectorized && ++vectorLoops <= 3) vectors += (vectors.empty() ? "" : ", ") + n;
        return true;
      },
      [](const T::PrimExpr&) { return false; });
  const LoweringFamily family = loweringFamily(l.op.id);
  std::string what = std::string(familyName(family)) + " loop nest: ";
  what += parallel.empty() ? "serial outer loops" : parallel;
  what += vectors.empty() ? ", nothing vectorized"
                          : ", vectorized loop" + std::string(vectorLoops > 1 ? "s" : "") + " of " + vectors +
                                (vectorLoops > 3 ? ", ..." : "");
  choose(l, RemarkRule::LegalizeLoopNest, std::move(what), familyReason(l, family));
}

}  // namespace passlab::legalize
