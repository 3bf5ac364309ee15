// LegalizeOps: elementwise and broadcast ops as one loop nest over the output.
// Each op computes in its own dtype and rounds once per element, as the
// reference kernels do (math intrinsics are evaluated in double and rounded).
#include "core/ir/op.h"
#include "core/ir/float_math.h"
#include "passes/legalize_lower.h"

namespace passlab::legalize {

namespace {

namespace T = tir;
using T::BinaryOp;
using T::PrimExpr;

/// A math intrinsic of `x`'s dtype.
PrimExpr intrinsic(std::string_view name, PrimExpr x) {
  DataType d = x->dtype;
  return T::call(d, std::string(name), {std::move(x)});
}

/// The value of a unary op at one element.
PrimExpr unaryValue(const OpLowering& l, PrimExpr x) {
  DataType d = x->dtype;
  bool isFloat = d.isFloat();
  auto requireFloat = [&] {
    if (!isFloat) throw Unsupported("LegalizeOps: op '" + std::string(l.op.name) + "' expects a floating-point tensor, got " + std::string(d.name()));
  };
  switch (l.op.id) {
    // x * -1 keeps the sign of zero, which 0 - x would lose.
    case OpId::Negative: return isFloat ? bin(BinaryOp::Mul, x, constOf(d, -1)) : bin(BinaryOp::Sub, constOf(d, 0), x);
    case OpId::Abs: return isFloat ? intrinsic("fabs", x) : T::select(bin(BinaryOp::LT, x, constOf(d, 0)), bin(BinaryOp::Sub, constOf(d, 0), x), x);
    case OpId::Round: return isFloat ? intrinsic("round", x) : x;
    case OpId::Floor: return isFloat ? intrinsic("floor", x) : x;
    case OpId::Ceil: return isFloat ? intrinsic("ceil", x) : x;
    case OpId::Relu: return bin(BinaryOp::Max, x, constOf(d, 0));
    case OpId::Clip: {
      PrimExpr lo = constOf(d, attr(l, "a_min").asFloat()), hi = constOf(d, attr(l, "a_max").asFloat());
      return bin(BinaryOp::Min, bin(BinaryOp::Max, x, lo), hi);
    }
    case OpId::LeakyRelu: {
      PrimExpr alpha = constOf(d, attr(l, "alpha").asFloat());
      return T::select(bin(BinaryOp::GT, x, constOf(d, 0)), x, bin(BinaryOp::Mul, x, alpha));
    }
    case OpId::Cast: return castTo(l.out->dtype, x);
    // TVM's legalization: x * (0.5 + erf(x * 1/sqrt(2)) * 0.5), and x * sigmoid(x).
    case OpId::Gelu:
      requireFloat();
      return bin(BinaryOp::Mul, x,
                 bin(BinaryOp::Add, constOf(d, 0.5),
                     bin(BinaryOp::Mul, intrinsic("erf", bin(BinaryOp::Mul, x, constOf(d, 0.70710678118654752440))), constOf(d, 0.5))));
    case OpId::Silu: requireFloat(); return bin(BinaryOp::Mul, x, intrinsic("sigmoid", x));
    default: break;
  }
  if (std::string_view name = floatMathIntrinsic(l.op.id); !name.empty()) {
    requireFloat();
    return intrinsic(name, x);
  }
  throw Unsupported("LegalizeOps: op '" + std::string(l.op.name) + "' is not unary");
}

/// The value of a broadcast binary op at one element.
PrimExpr binaryValue(const OpLowering& l, PrimExpr a, PrimExpr b) {
  switch (l.op.id) {
    case OpId::Add: return bin(BinaryOp::Add, a, b);
    case OpId::Subtract: return bin(BinaryOp::Sub, a, b);
    case OpId::Multiply: return bin(BinaryOp::Mul, a, b);
    case OpId::Divide: return bin(BinaryOp::Div, a, b);  // truncating on integers, as Relay's divide
    case OpId::Power: {
      // Integer power is not an expression: lowerElementwise builds it (intPower).
      if (!a->dtype.isFloat()) throw Unsupported("LegalizeOps: power of integer tensors is not computed inline");
      DataType d = a->dtype;
      return T::call(d, "pow", {a, b});
    }
    case OpId::Mod: return bin(BinaryOp::Mod, a, b);  // truncated (C fmod / %): exact in every dtype
    case OpId::FloorMod: {
      if (!a->dtype.isFloat()) return bin(BinaryOp::FloorMod, a, b);
      // x - floor(x / y) * y in double, rounded once, as the reference kernel
      // computes it: in float32 the quotient's rounding shows in the result.
      DataType d = a->dtype, f64 = DTypeCode::Float64;
      return castTo(d, bin(BinaryOp::FloorMod, castTo(f64, a), castTo(f64, b)));
    }
    case OpId::Maximum: return bin(BinaryOp::Max, a, b);
    case OpId::Minimum: return bin(BinaryOp::Min, a, b);
    case OpId::Equal: return bin(BinaryOp::EQ, a, b);
    case OpId::Less: return bin(BinaryOp::LT, a, b);
    case OpId::Greater: return bin(BinaryOp::GT, a, b);
    default: break;
  }
  throw Unsupported("LegalizeOps: op '" + std::string(l.op.name) + "' is not binary");
}

/// Integer power as the reference kernel computes it (wrapping; a negative
/// exponent gives 1 / a^|b| truncated). Square-and-multiply from the top bit
/// down, each step a let-bound variable: a TIR expression tree would repeat
/// the shared square 2^bits times. 0 to a negative power (an error in the
/// kernel) gives 0 here rather than trapping.
T::Stmt intPower(const OpLowering& l, const std::vector<PrimExpr>& idx) {
  DataType d = l.out->dtype;
  T::Var a = T::makeVar("base", d), b = T::makeVar("exponent", d);
  // A non-negative exponent of a signed type has one bit fewer than the type.
  int bits = d.isBool() ? 1 : d.bytes() * 8 - (d.code == DTypeCode::UInt8 ? 0 : 1);
  // A constant exponent (power(x, 3)) needs only its own bits.
  const Operand& exponent = l.args.at(1);
  if (const auto* c = !exponent.buffer && !exponent.lazy ? T::as<T::IntImmNode>(exponent.scalar) : nullptr; c && c->value >= 0) {
    bits = 1;
    while (bits < 63 && (c->value >> bits) != 0) ++bits;
  }
  PrimExpr one = constOf(d, 1);
  std::vector<T::Var> steps;
  std::vector<PrimExpr> values;
  for (int k = bits - 1; k >= 0; --k) {
    PrimExpr bit = d.isBool() ? PrimExpr(b)
                              : bin(BinaryOp::EQ, bin(BinaryOp::FloorMod, k == 0 ? PrimExpr(b) : bin(BinaryOp::FloorDiv, b, constOf(d, static_cast<double>(int64_t{1} << k))), constOf(d, 2)), one);
    PrimExpr factor = T::select(bit, a, one);
    values.push_back(steps.empty() ? factor : bin(BinaryOp::Mul, bin(BinaryOp::Mul, steps.back(), steps.back()), factor));
    steps.push_back(T::makeVar("pow" + std::to_string(k), d));
  }
  PrimExpr result = steps.back();
  if (!d.isBool() && d.code != DTypeCode::UInt8) {
    PrimExpr zero = constOf(d, 0);
    PrimExpr odd = bin(BinaryOp::NE, bin(BinaryOp::FloorMod, b, constOf(d, 2)), zero);
    PrimExpr negative = T::select(bin(BinaryOp::EQ, a, one), one,
                                  T::select(bin(BinaryOp::EQ, a, constOf(d, -1)), T::select(odd, constOf(d, -1), one), zero));
    result = T::select(bin(BinaryOp::LT, b, zero), negative, result);
  }
  T::Stmt s = T::store(l.out, idx, result);
  for (size_t k = steps.size(); k-- > 0;) s = T::letStmt(steps[k], values[k], s);
  s = T::letStmt(b, castTo(d, readBroadcast(l.args.at(1), idx)), s);
  return T::letStmt(a, castTo(d, readBroadcast(l.args.at(0), idx)), s);
}

/// The element of a boolean condition operand (non-bool tensors compare with 0).
PrimExpr truthy(PrimExpr v) {
  if (v->dtype.isBool()) return v;
  DataType d = v->dtype;
  return bin(BinaryOp::NE, v, constOf(d, 0));
}

}  // namespace

T::PrimExpr elementwiseValue(const OpLowering& l, const std::vector<PrimExpr>& idx) {
  DataType outType = l.out->dtype;
  switch (l.op.id) {
    case OpId::Zeros: return constOf(outType, 0);
    case OpId::Ones: return constOf(outType, 1);
    case OpId::Full: return castTo(outType, readBroadcast(l.args.at(0), idx));
    case OpId::Where:
      return T::select(truthy(readBroadcast(l.args.at(0), idx)), readBroadcast(l.args.at(1), idx), readBroadcast(l.args.at(2), idx));
    case OpId::BiasAdd: {
      // bias (C) runs along `axis` of the data.
      int64_t rank = static_cast<int64_t>(l.out->shape.size());
      int64_t axis = attr(l, "axis").asInt();
      if (axis < 0) axis += rank;
      if (axis < 0 || axis >= rank) throw Unsupported("LegalizeOps: bias_add axis out of range");
      return bin(BinaryOp::Add, read(l.args.at(0), idx), read(l.args.at(1), {idx[static_cast<size_t>(axis)]}));
    }
    case OpId::Add:
    case OpId::Subtract:
    case OpId::Multiply:
    case OpId::Divide:
    case OpId::Power:
    case OpId::Mod:
    case OpId::FloorMod:
    case OpId::Maximum:
    case OpId::Minimum:
    case OpId::Equal:
    case OpId::Less:
    case OpId::Greater: return binaryValue(l, readBroadcast(l.args.at(0), idx), readBroadcast(l.args.at(1), idx));
    default: return unaryValue(l, read(l.args.at(0), idx));
  }
}

bool readsOperandsOnce(OpId id) { return id != OpId::LeakyRelu && id != OpId::Abs && id != OpId::Gelu && id != OpId::Silu; }

bool computedInline(const CallNode& call) {
  const OpDef* op = call.op();
  if (!op || loweringFamily(op->id) != LoweringFamily::Elementwise) return false;
  if (op->id != OpId::Power) return true;
  const auto* t = as<TensorTypeNode>(call.checkedType);
  return t && t->dtype.isFloat();
}

T::Stmt lowerElementwise(const OpLowering& l) {
  if (l.op.id == OpId::Power && !l.out->dtype.isFloat())
    return loopNest(l.out->shape, "ax", [&](const std::vector<PrimExpr>& idx) { return intPower(l, idx); }, NestSchedule{elementwiseSchedule(l).parallelOuter, false});
  return loopNest(l.out->shape, "ax", [&](const std::vector<PrimExpr>& idx) { return T::store(l.out, idx, elementwiseValue(l, idx)); },
                  elementwiseSchedule(l));
}

}  // namespace passlab::legalize
