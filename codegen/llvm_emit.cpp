// TIR -> LLVM IR. Values follow the reference interpreter's semantics
// (core/interp/tir_interpreter.cpp) so compiled code can be checked against
// it: integer arithmetic wraps to the dtype's width, float16 arithmetic is done
// in float and rounded to half after every operation (float has enough bits
// for that to be correctly rounded), float->int conversions saturate, bools
// are i1 in registers and a byte in memory. Index arithmetic is done in i64
// with no-signed-wrap, since an index that overflowed would be out of bounds
// anyway; that lets LLVM widen and vectorize loops.
#include "codegen/llvm_emit.h"

#include "core/ir/limits.h"
#include "codegen/llvm_entry.h"
#include "codegen/tir_scan.h"
#include "core/ir/tir_lower_blocks.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <set>
#include <tuple>
#include <unordered_map>

#include "core/analysis/structural_equal.h"

namespace passlab::codegen {

namespace {

/// How the emitter lowers a float intrinsic of TIR.
struct FloatIntrinsic {
  /// The TIR name (without a "tir." or "T." prefix).
  const char* name;
  enum How { LlvmIntrinsic, CLibrary, ReciprocalSqrt, Sigmoid, Power } how;
  /// For LlvmIntrinsic: which one.
  llvm::Intrinsic::ID intrinsic;
  /// For CLibrary: the double version's name (float appends "f").
  const char* libraryName;
  /// Whether it is an instruction on the host rather than a call of a
  /// (vector) math function: a loop of calls needs a vector variant's width.
  bool oneInstruction;
};

/// Every float intrinsic the emitter knows.
constexpr FloatIntrinsic kFloatIntrinsics[] = {
    {"exp", FloatIntrinsic::LlvmIntrinsic, llvm::Intrinsic::exp, nullptr, false},
    {"exp2", FloatIntrinsic::LlvmIntrinsic, llvm::Intrinsic::exp2, nullptr, false},
    {"log", FloatIntrinsic::LlvmIntrinsic, llvm::Intrinsic::log, nullptr, false},
    {"log2", FloatIntrinsic::LlvmIntrinsic, llvm::Intrinsic::log2, nullptr, false},
    {"sqrt", FloatIntrinsic::LlvmIntrinsic, llvm::Intrinsic::sqrt, nullptr, true},
    {"rsqrt", FloatIntrinsic::ReciprocalSqrt, llvm::Intrinsic::not_intrinsic, nullptr, true},
    {"fabs", FloatIntrinsic::LlvmIntrinsic, llvm::Intrinsic::fabs, nullptr, true},
    {"abs", FloatIntrinsic::LlvmIntrinsic, llvm::Intrinsic::fabs, nullptr, true},
    {"round", FloatIntrinsic::LlvmIntrinsic, llvm::Intrinsic::nearbyint, nullptr, true},
    {"nearbyint", FloatIntrinsic::LlvmIntrinsic, llvm::Intrinsic::nearbyint, nullptr, true},
    {"floor", FloatIntrinsic::LlvmIntrinsic, llvm::Intrinsic::floor, nullptr, true},
    {"ceil", FloatIntrinsic::LlvmIntrinsic, llvm::Intrinsic::ceil, nullptr, true},
    {"trunc", FloatIntrinsic::LlvmIntrinsic, llvm::Intrinsic::trunc, nullptr, true},
    {"sin", FloatIntrinsic::LlvmIntrinsic, llvm::Intrinsic::sin, nullptr, false},
    {"cos", FloatIntrinsic::LlvmIntrinsic, llvm::Intrinsic::cos, nullptr, false},
    {"tanh", FloatIntrinsic::CLibrary, llvm::Intrinsic::not_intrinsic, "tanh", false},
    {"erf", FloatIntrinsic::CLibrary, llvm::Intrinsic::not_intrinsic, "erf", false},
    {"tan", FloatIntrinsic::CLibrary, llvm::Intrinsic::not_intrinsic, "tan", false},
    {"asin", FloatIntrinsic::CLibrary, llvm::Intrinsic::not_intrinsic, "asin", false},
    {"acos", FloatIntrinsic::CLibrary, llvm::Intrinsic::not_intrinsic, "acos", false},
    {"atan", FloatIntrinsic::CLibrary, llvm::Intrinsic::not_intrinsic, "atan", false},
    {"sinh", FloatIntrinsic::CLibrary, llvm::Intrinsic::not_intrinsic, "sinh", false},
    {"cosh", FloatIntrinsic::CLibrary, llvm::Intrinsic::not_intrinsic, "cosh", false},
    {"asinh", FloatIntrinsic::CLibrary, llvm::Intrinsic::not_intrinsic, "asinh", false},
    {"acosh", FloatIntrinsic::CLibrary, llvm::Intrinsic::not_intrinsic, "acosh", false},
    {"atanh", FloatIntrinsic::CLibrary, llvm::Intrinsic::not_intrinsic, "atanh", false},
    {"sigmoid", FloatIntrinsic::Sigmoid, llvm::Intrinsic::not_intrinsic, nullptr, false},
    {"pow", FloatIntrinsic::Power, llvm::Intrinsic::not_intrinsic, nullptr, false},
};

/// An intrinsic's name without its "tir." or "T." prefix.
std::string_view withoutIntrinsicPrefix(std::string_view name) {
  for (std::string_view prefix : {"tir.", "T."})
    if (name.substr(0, prefix.size()) == prefix) name.remove_prefix(prefix.size());
  return name;
}

/// The lowering of float intrinsic `name` (prefix allowed), or null for a
/// name that is not a float intrinsic.
const FloatIntrinsic* floatIntrinsic(std::string_view name) {
  name = withoutIntrinsicPrefix(name);
  for (const FloatIntrinsic& f : kFloatIntrinsics)
    if (name == f.name) return &f;
  return nullptr;
}

using namespace tir;

struct BufferBinding {
  const BufferNode* buffer;
  llvm::Value* base;  // pointer to the element type
};

class FunctionEmitter {
 public:
  FunctionEmitter(llvm::Module& m, const IRModule& mod, std::string name, bool allowContract, bool forceFloatVectorize,
                  bool inlinable, bool storageByAddress, bool parallel = false)
      : m_(m), ctx_(m.getContext()), b_(ctx_), mod_(mod), name_(std::move(name)), forceFloatVectorize_(forceFloatVectorize),
        inlinable_(inlinable), storageByAddress_(storageByAddress), parallel_(parallel) {
    if (allowContract) {
      llvm::FastMathFlags fmf;
      fmf.setAllowContract(true);
      b_.setFastMathFlags(fmf);
    }
  }

  [[noreturn]] void fail(const std::string& message) const { throw CodegenError("@" + name_ + ": " + message); }

  llvm::Type* valueType(DataType d) {
    switch (d.code) {
      case DTypeCode::Bool: return b_.getInt1Ty();
      case DTypeCode::Int8:
      case DTypeCode::UInt8: return b_.getInt8Ty();
      case DTypeCode::Int16: return b_.getInt16Ty();
      case DTypeCode::Int32: return b_.getInt32Ty();
      case DTypeCode::Int64: return b_.getInt64Ty();
      case DTypeCode::Float16: return b_.getHalfTy();
      case DTypeCode::Float32: return b_.getFloatTy();
      case DTypeCode::Float64: return b_.getDoubleTy();
    }
    return b_.getInt32Ty();
  }
  llvm::Type* memType(DataType d) { return d.isBool() ? b_.getInt8Ty() : valueType(d); }

  llvm::Function* declare(const PrimFuncNode& fn, const std::string& symbol) {
    std::vector<llvm::Type*> params;
    for (const Param& p : fn.params) params.push_back(p.buffer ? b_.getInt8PtrTy() : valueType(p.var->dtype));
    auto* type = llvm::FunctionType::get(b_.getVoidTy(), params, false);
    llvm::Function* f = m_.getFunction(symbol);
    if (!f) f = llvm::Function::Create(type, llvm::Function::ExternalLinkage, symbol, m_);
    return f;
  }

  void emit(const PrimFuncNode& fn, llvm::Function* f) {
    fn_ = f;
    for (size_t i = 0; i < fn.params.size(); ++i)
      if (fn.params[i].buffer) f->addParamAttr(static_cast<unsigned>(i), llvm::Attribute::NoAlias);
    f->addFnAttr(llvm::Attribute::NoUnwind);
    if (!inlinable_) f->addFnAttr(llvm::Attribute::NoInline);
    auto* entry = llvm::BasicBlock::Create(ctx_, "entry", f);
    allocaBlock_ = entry;
    b_.SetInsertPoint(entry);
    for (size_t i = 0; i < fn.params.size(); ++i) {
      const Param& p = fn.params[i];
      llvm::Value* arg = f->getArg(static_cast<unsigned>(i));
      if (p.buffer) {
        arg->setName(p.buffer->name);
        llvm::Value* typed = b_.CreateBitCast(arg, memType(p.buffer->dtype)->getPointerTo());
        buffers_.push_back({p.buffer.get(), typed});
        if (p.var) dataVars_[p.var.get()] = buffers_.size() - 1;
      } else {
        arg->setName(p.var->name);
        vars_[p.var.get()] = arg;
      }
    }
    if (fn.body) exec(fn.body);
    b_.CreateRetVoid();
  }

 private:
  // ---- helpers -----------------------------------------------------------
  static bool isSigned(DataType d) { return !d.isUnsigned() && !d.isBool(); }

  llvm::Value* truthy(llvm::Value* v, DataType d) {
    if (d.isBool()) return v;
    if (d.isFloat()) return b_.CreateFCmpUNE(v, llvm::ConstantFP::get(v->getType(), 0.0));
    return b_.CreateICmpNE(v, llvm::ConstantInt::get(v->getType(), 0));
  }

  /// Converts a value of dtype `from` to `to` as the interpreter's convert().
  llvm::Value* convert(llvm::Value* v, DataType from, DataType to) {
    if (from == to) return v;
    llvm::Type* t = valueType(to);
    if (to.isBool()) return truthy(v, from);
    if (to.isFloat()) {
      if (from.isFloat()) return from.bits() < to.bits() ? b_.CreateFPExt(v, t) : b_.CreateFPTrunc(v, t);
      if (to.code == DTypeCode::Float16) {  // through float: exact up to half's range
        llvm::Value* f = isSigned(from) ? b_.CreateSIToFP(v, b_.getFloatTy()) : b_.CreateUIToFP(v, b_.getFloatTy());
        return b_.CreateFPTrunc(f, t);
      }
      return isSigned(from) ? b_.CreateSIToFP(v, t) : b_.CreateUIToFP(v, t);
    }
    if (from.isFloat()) {  // saturate to int64 (NaN -> 0), then wrap to the width
      llvm::Value* wide = v;
      if (from.code == DTypeCode::Float16) wide = b_.CreateFPExt(v, b_.getFloatTy());
      llvm::Function* sat = llvm::Intrinsic::getDeclaration(&m_, llvm::Intrinsic::fptosi_sat, {b_.getInt64Ty(), wide->getType()});
      llvm::Value* i = b_.CreateCall(sat, {wide});
      return b_.CreateTrunc(i, t);
    }
    return b_.CreateIntCast(v, t, isSigned(from));
  }

  /// Half values are computed in float.
  llvm::Value* widenHalf(llvm::Value* v, DataType d) { return d.code == DTypeCode::Float16 ? b_.CreateFPExt(v, b_.getFloatTy()) : v; }
  llvm::Value* narrowHalf(llvm::Value* v, DataType d) { return d.code == DTypeCode::Float16 ? b_.CreateFPTrunc(v, b_.getHalfTy()) : v; }

  /// cond ? t : f evaluating only the branch taken (guarded loads stay in bounds).
  llvm::Value* lazySelect(const PrimExpr& cond, const PrimExpr& t, const PrimExpr& f, DataType d) {
    llvm::Value* c = truthy(eval(cond), cond->dtype);
    if (!hasSideEffectsOrLoads(t) && !hasSideEffectsOrLoads(f))
      return b_.CreateSelect(c, convert(eval(t), t->dtype, d), convert(eval(f), f->dtype, d));
    auto* thenBB = llvm::BasicBlock::Create(ctx_, "sel.t", fn_);
    auto* elseBB = llvm::BasicBlock::Create(ctx_, "sel.f", fn_);
    auto* join = llvm::BasicBlock::Create(ctx_, "sel.end", fn_);
    b_.CreateCondBr(c, thenBB, elseBB);
    b_.SetInsertPoint(thenBB);
    llvm::Value* tv = convert(eval(t), t->dtype, d);
    llvm::BasicBlock* thenEnd = b_.GetInsertBlock();
    b_.CreateBr(join);
    b_.SetInsertPoint(elseBB);
    llvm::Value* fv = convert(eval(f), f->dtype, d);
    llvm::BasicBlock* elseEnd = b_.GetInsertBlock();
    b_.CreateBr(join);
    b_.SetInsertPoint(join);
    llvm::PHINode* phi = b_.CreatePHI(valueType(d), 2);
    phi->addIncoming(tv, thenEnd);
    phi->addIncoming(fv, elseEnd);
    return phi;
  }

  // ---- integer arithmetic (wrapping, or i64 nsw for indices) ---------------
  llvm::Value* intDivision(BinaryOp op, llvm::Value* x, llvm::Value* y, bool sign) {
    llvm::Type* t = x->getType();
    auto* zero = llvm::ConstantInt::get(t, 0);
    auto* one = llvm::ConstantInt::get(t, 1);
    if (!sign) {  // uint8 / bool: plain unsigned, x / 0 := 0 (the interpreter reports it; compiled code must not trap)
      llvm::Value* safe = b_.CreateSelect(b_.CreateICmpEQ(y, zero), one, y);
      bool quotient = op == BinaryOp::Div || op == BinaryOp::FloorDiv;
      return quotient ? b_.CreateUDiv(x, safe) : b_.CreateURem(x, safe);
    }
    auto* minusOne = llvm::ConstantInt::getSigned(t, -1);
    llvm::Value* special = b_.CreateOr(b_.CreateICmpEQ(y, zero), b_.CreateICmpEQ(y, minusOne));
    llvm::Value* safe = b_.CreateSelect(special, one, y);
    llvm::Value* q = b_.CreateSDiv(x, safe);
    llvm::Value* r = b_.CreateSRem(x, safe);
    llvm::Value* rNonZero = b_.CreateICmpNE(r, zero);
    llvm::Value* signsDiffer = b_.CreateICmpNE(b_.CreateICmpSLT(r, zero), b_.CreateICmpSLT(y, zero));
    llvm::Value* adjust = b_.CreateAnd(rNonZero, signsDiffer);
    llvm::Value* result = nullptr;
    bool byMinusOne = false;
    switch (op) {
      case BinaryOp::Div: result = q; byMinusOne = true; break;
      case BinaryOp::Mod: result = r; break;
      case BinaryOp::FloorDiv: result = b_.CreateSelect(adjust, b_.CreateSub(q, one), q); byMinusOne = true; break;
      default: result = b_.CreateSelect(adjust, b_.CreateAdd(r, safe), r); break;
    }
    llvm::Value* isMinusOne = b_.CreateICmpEQ(y, minusOne);
    return b_.CreateSelect(isMinusOne, byMinusOne ? b_.CreateSub(zero, x) : static_cast<llvm::Value*>(zero), result);
  }

  llvm::Value* intBinary(BinaryOp op, llvm::Value* x, llvm::Value* y, bool sign, bool nsw) {
    switch (op) {
      case BinaryOp::Add: return b_.CreateAdd(x, y, "", false, nsw);
      case BinaryOp::Sub: return b_.CreateSub(x, y, "", false, nsw);
      case BinaryOp::Mul: return b_.CreateMul(x, y, "", false, nsw);
      case BinaryOp::Div:
      case BinaryOp::Mod:
      case BinaryOp::FloorDiv:
      case BinaryOp::FloorMod: {
        // A positive constant divisor (the common index case) needs no guards.
        if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(y); c && c->getSExtValue() > 0 && sign) {
          llvm::Value* q = b_.CreateSDiv(x, y);
          llvm::Value* r = b_.CreateSRem(x, y);
          if (op == BinaryOp::Div) return q;
          if (op == BinaryOp::Mod) return r;
          llvm::Value* neg = b_.CreateICmpSLT(r, llvm::ConstantInt::get(x->getType(), 0));
          if (op == BinaryOp::FloorDiv) return b_.CreateSelect(neg, b_.CreateSub(q, llvm::ConstantInt::get(x->getType(), 1)), q);
          return b_.CreateSelect(neg, b_.CreateAdd(r, y), r);
        }
        return intDivision(op, x, y, sign);
      }
      case BinaryOp::Min:
        return b_.CreateBinaryIntrinsic(sign ? llvm::Intrinsic::smin : llvm::Intrinsic::umin, x, y);
      case BinaryOp::Max:
        return b_.CreateBinaryIntrinsic(sign ? llvm::Intrinsic::smax : llvm::Intrinsic::umax, x, y);
      default: break;
    }
    fail("unsupported integer operator " + std::string(binaryOpName(op)));
  }

  /// `high * extent + low` as one expression when `low` is floormod(x, extent)
  /// and `high` is floordiv(x, extent) or floordiv(y, extent * m) with x =
  /// floordiv(y, m) (unflattenIndex's forms); null otherwise. Exact for any
  /// integer x, as floor division and modulo are.
  static PrimExpr refolded(const PrimExpr& high, const PrimExpr& low, int64_t extent) {
    const auto* mod = as<BinaryNode>(low);
    const auto* div = as<BinaryNode>(high);
    if (!mod || !div || mod->op != BinaryOp::FloorMod || div->op != BinaryOp::FloorDiv || extent <= 0) return nullptr;
    if (constantIndex(mod->b) != extent) return nullptr;
    const PrimExpr& x = mod->a;
    const int64_t divisor = constantIndex(div->b);
    if (divisor == extent && structuralEqual(div->a, x)) return x;
    const auto* inner = as<BinaryNode>(x);
    if (inner && inner->op == BinaryOp::FloorDiv && constantIndex(inner->b) > 0 && divisor == extent * constantIndex(inner->b) &&
        structuralEqual(div->a, inner->a))
      return x;
    return nullptr;
  }

  static int64_t constantIndex(const PrimExpr& e) {
    const auto* imm = as<IntImmNode>(e);
    return imm ? imm->value : -1;
  }

  /// An index expression as i64 (nsw arithmetic).
  llvm::Value* index(const PrimExpr& e) {
    if (const auto* imm = as<IntImmNode>(e)) return b_.getInt64(imm->value);
    if (const auto* n = as<BinaryNode>(e); n && n->dtype.isInt() && n->a->dtype.isInt() && n->b->dtype.isInt()) {
      switch (n->op) {
        case BinaryOp::Add:
        case BinaryOp::Sub:
        case BinaryOp::Mul:
        case BinaryOp::FloorDiv:
        case BinaryOp::FloorMod:
        case BinaryOp::Div:
        case BinaryOp::Mod:
        case BinaryOp::Min:
        case BinaryOp::Max: return intBinary(n->op, index(n->a), index(n->b), true, true);
        default: break;
      }
    }
    llvm::Value* v = eval(e);
    return convert(v, e->dtype, DTypeCode::Int64);
  }

  // ---- expressions -------------------------------------------------------
  llvm::Value* binary(const BinaryNode& n) {
    if (n.op == BinaryOp::And || n.op == BinaryOp::Or) {  // short-circuit like the interpreter
      llvm::Value* a = truthy(eval(n.a), n.a->dtype);
      if (!hasSideEffectsOrLoads(n.b)) {
        llvm::Value* bv = truthy(eval(n.b), n.b->dtype);
        return n.op == BinaryOp::And ? b_.CreateAnd(a, bv) : b_.CreateOr(a, bv);
      }
      llvm::BasicBlock* start = b_.GetInsertBlock();
      auto* rhs = llvm::BasicBlock::Create(ctx_, "sc.rhs", fn_);
      auto* join = llvm::BasicBlock::Create(ctx_, "sc.end", fn_);
      if (n.op == BinaryOp::And) b_.CreateCondBr(a, rhs, join);
      else b_.CreateCondBr(a, join, rhs);
      b_.SetInsertPoint(rhs);
      llvm::Value* bv = truthy(eval(n.b), n.b->dtype);
      llvm::BasicBlock* rhsEnd = b_.GetInsertBlock();
      b_.CreateBr(join);
      b_.SetInsertPoint(join);
      llvm::PHINode* phi = b_.CreatePHI(b_.getInt1Ty(), 2);
      phi->addIncoming(b_.getInt1(n.op == BinaryOp::Or), start);
      phi->addIncoming(bv, rhsEnd);
      return phi;
    }
    DataType da = n.a->dtype, db = n.b->dtype, d = n.dtype;
    bool isFloat = da.isFloat() || db.isFloat();
    bool comparison = n.op >= BinaryOp::EQ && n.op <= BinaryOp::GE;
    if (comparison) {
      if (isFloat) {
        DataType common = da == db ? da : DataType(DTypeCode::Float64);
        llvm::Value* x = widenHalf(convert(eval(n.a), da, common), common);
        llvm::Value* y = widenHalf(convert(eval(n.b), db, common), common);
        static const llvm::CmpInst::Predicate preds[] = {llvm::CmpInst::FCMP_OEQ, llvm::CmpInst::FCMP_UNE, llvm::CmpInst::FCMP_OLT,
                                                         llvm::CmpInst::FCMP_OLE, llvm::CmpInst::FCMP_OGT, llvm::CmpInst::FCMP_OGE};
        return b_.CreateFCmp(preds[static_cast<int>(n.op) - static_cast<int>(BinaryOp::EQ)], x, y);
      }
      DataType common = da == db ? da : DataType(DTypeCode::Int64);
      bool sign = isSigned(common);
      llvm::Value* x = convert(eval(n.a), da, common);
      llvm::Value* y = convert(eval(n.b), db, common);
      static const llvm::CmpInst::Predicate spreds[] = {llvm::CmpInst::ICMP_EQ, llvm::CmpInst::ICMP_NE, llvm::CmpInst::ICMP_SLT,
                                                        llvm::CmpInst::ICMP_SLE, llvm::CmpInst::ICMP_SGT, llvm::CmpInst::ICMP_SGE};
      static const llvm::CmpInst::Predicate upreds[] = {llvm::CmpInst::ICMP_EQ, llvm::CmpInst::ICMP_NE, llvm::CmpInst::ICMP_ULT,
                                                        llvm::CmpInst::ICMP_ULE, llvm::CmpInst::ICMP_UGT, llvm::CmpInst::ICMP_UGE};
      int k = static_cast<int>(n.op) - static_cast<int>(BinaryOp::EQ);
      return b_.CreateICmp(sign ? spreds[k] : upreds[k], x, y);
    }
    if (isFloat || d.isFloat()) {
      DataType cd = d.isFloat() ? d : DataType(DTypeCode::Float64);
      llvm::Value* x = widenHalf(convert(eval(n.a), da, cd), cd);
      llvm::Value* y = widenHalf(convert(eval(n.b), db, cd), cd);
      llvm::Value* r = nullptr;
      switch (n.op) {
        case BinaryOp::Add: r = b_.CreateFAdd(x, y); break;
        case BinaryOp::Sub: r = b_.CreateFSub(x, y); break;
        case BinaryOp::Mul: r = b_.CreateFMul(x, y); break;
        case BinaryOp::Div: r = b_.CreateFDiv(x, y); break;
        case BinaryOp::Mod: r = b_.CreateFRem(x, y); break;
        case BinaryOp::FloorDiv: r = b_.CreateUnaryIntrinsic(llvm::Intrinsic::floor, b_.CreateFDiv(x, y)); break;
        case BinaryOp::FloorMod: {
          llvm::Value* q = b_.CreateUnaryIntrinsic(llvm::Intrinsic::floor, b_.CreateFDiv(x, y));
          r = b_.CreateFSub(x, b_.CreateFMul(q, y));
          break;
        }
        case BinaryOp::Min:
        case BinaryOp::Max: {
          // The interpreter's min/max propagate a NaN from either side. The
          // NaN test is a select of its own, around the ordered choice:
          // LLVM 14's Hexagon backend selects sfmin/sfmax (which return the
          // number, not the NaN) for a select on an ordered-or-unordered
          // compare, so a NaN folded into the condition would be lost there.
          llvm::Value* wins = n.op == BinaryOp::Min ? b_.CreateFCmpOLT(x, y) : b_.CreateFCmpOGT(x, y);
          llvm::Value* ordered = b_.CreateSelect(wins, x, y);
          r = b_.CreateSelect(b_.CreateFCmpUNO(x, y), b_.CreateFAdd(x, y), ordered);
          break;
        }
        default: fail("unsupported float operator " + std::string(binaryOpName(n.op)));
      }
      return convert(narrowHalf(r, cd), cd, d);
    }
    llvm::Value* x = convert(eval(n.a), da, d);
    llvm::Value* y = convert(eval(n.b), db, d);
    if (d.isBool()) {  // arithmetic on bools: in a byte, then back to 0/1
      llvm::Value* r = intBinary(n.op, b_.CreateZExt(x, b_.getInt8Ty()), b_.CreateZExt(y, b_.getInt8Ty()), false, false);
      return b_.CreateICmpNE(r, b_.getInt8(0));
    }
    return intBinary(n.op, x, y, isSigned(d), false);
  }

  llvm::Value* intrinsic(const tir::CallNode& c) {
    const std::string_view name = withoutIntrinsicPrefix(c.callee);
    if (name == "if_then_else") {
      if (c.args.size() != 3) fail("if_then_else takes 3 arguments");
      return lazySelect(c.args[0], c.args[1], c.args[2], c.dtype);
    }
    // float16 and float32 compute in float, everything else in double.
    DataType cd = (c.dtype.code == DTypeCode::Float16 || c.dtype.code == DTypeCode::Float32) ? DTypeCode::Float32 : DTypeCode::Float64;
    std::vector<llvm::Value*> x;
    for (const PrimExpr& a : c.args) x.push_back(convert(eval(a), a->dtype, cd));
    llvm::Type* t = valueType(cd);
    bool f32 = cd.code == DTypeCode::Float32;
    auto need = [&](size_t n) {
      if (x.size() != n) fail(std::string(name) + " takes " + std::to_string(n) + " argument" + (n == 1 ? "" : "s"));
    };
    auto unaryIntr = [&](llvm::Intrinsic::ID id) {
      need(1);
      return b_.CreateUnaryIntrinsic(id, x[0]);
    };
    auto libm = [&](const char* base) {
      need(1);
      std::string fname = std::string(base) + (f32 ? "f" : "");
      llvm::FunctionCallee callee = m_.getOrInsertFunction(fname, llvm::FunctionType::get(t, {t}, false));
      auto* call = b_.CreateCall(callee, {x[0]});
      call->setDoesNotAccessMemory();
      call->setDoesNotThrow();
      return static_cast<llvm::Value*>(call);
    };
    const FloatIntrinsic* lowering = floatIntrinsic(name);
    if (!lowering) fail("unknown intrinsic " + c.callee);
    llvm::Value* r = nullptr;
    switch (lowering->how) {
      case FloatIntrinsic::LlvmIntrinsic: r = unaryIntr(lowering->intrinsic); break;
      case FloatIntrinsic::CLibrary: r = libm(lowering->libraryName); break;
      case FloatIntrinsic::ReciprocalSqrt: r = b_.CreateFDiv(llvm::ConstantFP::get(t, 1.0), unaryIntr(llvm::Intrinsic::sqrt)); break;
      case FloatIntrinsic::Sigmoid: {
        need(1);
        llvm::Value* e = b_.CreateUnaryIntrinsic(llvm::Intrinsic::exp, b_.CreateFNeg(x[0]));
        r = b_.CreateFDiv(llvm::ConstantFP::get(t, 1.0), b_.CreateFAdd(llvm::ConstantFP::get(t, 1.0), e));
        break;
      }
      case FloatIntrinsic::Power:
        need(2);
        r = b_.CreateBinaryIntrinsic(llvm::Intrinsic::pow, x[0], x[1]);
        break;
    }
    return convert(r, cd, c.dtype);
  }

  llvm::Value* globalCall(const tir::CallNode& c) {
    Expr fn = mod_->lookup(c.callee);
    if (!fn || fn->kind != ExprKind::PrimFunc) fail("no PrimFunc @" + c.callee + " in the module");
    const auto& callee = static_cast<const PrimFuncNode&>(*fn);
    if (callee.params.size() != c.args.size())
      fail("@" + c.callee + " takes " + std::to_string(callee.params.size()) + " arguments, got " + std::to_string(c.args.size()));
    llvm::Function* f = declare(callee, symbolOf(mod_, c.callee));
    std::vector<llvm::Value*> args;
    for (size_t i = 0; i < c.args.size(); ++i) {
      const Param& p = callee.params[i];
      if (p.buffer) {
        const BufferBinding* slot = bufferArgument(c.args[i]);
        if (!slot) fail("argument " + std::to_string(i) + " of @" + c.callee + " must name a buffer");
        args.push_back(b_.CreateBitCast(slot->base, b_.getInt8PtrTy()));
      } else {
        args.push_back(convert(eval(c.args[i]), c.args[i]->dtype, p.var->dtype));
      }
    }
    b_.CreateCall(f, args);
    return convert(b_.getInt32(0), DTypeCode::Int32, c.dtype);
  }

  const BufferBinding* bufferArgument(const PrimExpr& arg) {
    const auto* v = as<tir::VarNode>(arg);
    if (!v) return nullptr;
    if (auto it = dataVars_.find(v); it != dataVars_.end()) return &buffers_[it->second];
    for (size_t i = buffers_.size(); i-- > 0;)
      if (buffers_[i].buffer->name == v->name) return &buffers_[i];
    return nullptr;
  }

  const BufferBinding& slotFor(const BufferNode* b) {
    for (size_t i = buffers_.size(); i-- > 0;)
      if (buffers_[i].buffer == b) return buffers_[i];
    for (size_t i = buffers_.size(); i-- > 0;)  // text naming a buffer twice may build distinct nodes
      if (buffers_[i].buffer->name == b->name) return buffers_[i];
    fail("buffer " + b->name + " is not allocated here");
  }

  llvm::Value* address(const BufferBinding& slot, const std::vector<PrimExpr>& indices) {
    const BufferNode& b = *slot.buffer;
    llvm::Value* offset = nullptr;
    if (indices.size() == b.shape.size() && !indices.empty()) {
      // The row-major offset is offset * multiplier + last. An index that
      // unflattens a flat position (floordiv(p, W), floormod(p, W) over an
      // axis of W) folds back into p: LLVM cannot undo the division, and a
      // store through it is a scatter (the flattened convolutions' epilogues
      // went scalar, libm calls and all).
      int64_t multiplier = 1;
      PrimExpr last = indices[0];
      auto freeze = [&] {
        llvm::Value* term = index(last);
        offset = offset ? b_.CreateAdd(b_.CreateMul(offset, b_.getInt64(multiplier), "", false, true), term, "", false, true) : term;
      };
      for (size_t d = 1; d < indices.size(); ++d) {
        if (PrimExpr whole = refolded(last, indices[d], b.shape[d])) {
          last = whole;
        } else {
          freeze();
          multiplier = 1;
          last = indices[d];
        }
        multiplier *= b.shape[d];
      }
      freeze();
    } else if (indices.size() == 1) {
      offset = index(indices[0]);
    } else if (indices.empty() && b.shape.empty()) {
      offset = b_.getInt64(0);
    } else {
      fail("buffer " + b.name + " has " + std::to_string(b.shape.size()) + " dimensions but is indexed with " +
           std::to_string(indices.size()));
    }
    return b_.CreateInBoundsGEP(memType(b.dtype), slot.base, offset);
  }

  llvm::Value* eval(const PrimExpr& e) {
    switch (e->kind) {
      case PrimExprKind::IntImm: {
        int64_t v = static_cast<const IntImmNode&>(*e).value;
        if (e->dtype.isBool()) return b_.getInt1(v != 0);
        return llvm::ConstantInt::get(valueType(e->dtype), static_cast<uint64_t>(v), true);
      }
      case PrimExprKind::FloatImm: {
        double v = static_cast<const FloatImmNode&>(*e).value;
        if (e->dtype.isFloat()) return llvm::ConstantFP::get(valueType(e->dtype), v);
        return convert(llvm::ConstantFP::get(b_.getDoubleTy(), v), DTypeCode::Float64, e->dtype);
      }
      case PrimExprKind::Var: {
        const auto* v = static_cast<const tir::VarNode*>(e.get());
        auto it = vars_.find(v);
        if (it == vars_.end()) fail("variable " + v->name + " is not defined");
        return it->second;
      }
      case PrimExprKind::Binary: return binary(static_cast<const BinaryNode&>(*e));
      case PrimExprKind::Not: {
        const auto& n = static_cast<const NotNode&>(*e);
        return b_.CreateNot(truthy(eval(n.a), n.a->dtype));
      }
      case PrimExprKind::Select: {
        const auto& s = static_cast<const SelectNode&>(*e);
        return lazySelect(s.cond, s.trueValue, s.falseValue, e->dtype);
      }
      case PrimExprKind::Cast: {
        const auto& c = static_cast<const CastNode&>(*e);
        return convert(eval(c.value), c.value->dtype, e->dtype);
      }
      case PrimExprKind::Call: {
        const auto& c = static_cast<const tir::CallNode&>(*e);
        return c.isGlobal ? globalCall(c) : intrinsic(c);
      }
      case PrimExprKind::Load: {
        const auto& l = static_cast<const LoadNode&>(*e);
        const BufferBinding& slot = slotFor(l.buffer.get());
        DataType d = slot.buffer->dtype;
        llvm::Value* v = b_.CreateLoad(memType(d), address(slot, l.indices));
        if (d.isBool()) v = b_.CreateICmpNE(v, b_.getInt8(0));
        return convert(v, d, e->dtype);
      }
    }
    fail("unknown expression");
  }

  // ---- statements ----------------------------------------------------------
  /// Whether `s` stores into a stack buffer allocated around it: a register
  /// tile (an accumulator row) that SROA keeps in registers once LLVM has
  /// fully unrolled the loop over it.
  bool storesToStackBuffer(const Stmt& s) {
    return anyStatement(s, [&](const Stmt& t) {
      if (t->kind != StmtKind::Store) return false;
      const BufferNode* b = static_cast<const StoreNode&>(*t).buffer.get();
      for (size_t i = buffers_.size(); i-- > 0;)
        if (buffers_[i].buffer == b) return llvm::isa<llvm::AllocaInst>(buffers_[i].base->stripPointerCasts());
      return false;
    });
  }

  /// `registerTile`: the loop stores into a stack buffer (storesToStackBuffer).
  /// True when `body` calls a math function that is a library call rather
  /// than an instruction (exp, tanh, sigmoid's exp...). Its vector variants
  /// are at most one register wide (16 floats with AVX-512), so a loop forced
  /// to a wider vector (a 32-position tile's epilogue) called the scalar
  /// function for every lane; LLVM's own choice of width finds the variant.
  static bool callsLibraryFunction(const tir::Stmt& body) {
    std::vector<std::string> names;
    collectIntrinsicCalls(body, names);
    return std::any_of(names.begin(), names.end(), [](const std::string& n) {
      const FloatIntrinsic* lowering = floatIntrinsic(n);
      return !lowering || !lowering->oneInstruction;
    });
  }

  llvm::MDNode* loopMetadata(const ForNode& f, bool registerTile) {
    std::vector<llvm::Metadata*> ops{nullptr};
    auto flag = [&](const char* name, llvm::Metadata* value) {
      ops.push_back(llvm::MDNode::get(ctx_, {llvm::MDString::get(ctx_, name), value}));
    };
    auto i1 = [&](bool v) { return llvm::ConstantAsMetadata::get(b_.getInt1(v)); };
    const auto* extent = as<IntImmNode>(f.extent);
    bool single = extent && extent->value < 2;  // nothing to vectorize or unroll (LLVM would warn it could not)
    if (single) return nullptr;
    if (f.forKind == ForKind::Vectorized && (forceFloatVectorize_ || !usesFloat(f.body))) {
      flag("llvm.loop.vectorize.enable", i1(true));
      if (const auto* ext = as<IntImmNode>(f.extent); ext && ext->value >= 2 && ext->value <= 64) {
        uint32_t width = 1;
        while (width * 2 <= ext->value) width *= 2;
        if (width == ext->value && !callsLibraryFunction(f.body)) {
          flag("llvm.loop.vectorize.width", llvm::ConstantAsMetadata::get(b_.getInt32(width)));
        } else if (forceFloatVectorize_ && ext->value < 32 && !registerTile) {
          // A short odd run over memory (a 14-wide row; host only) is one
          // whole vector and a masked tail along this loop (a scalar
          // remainder loop was a quarter of a depthwise layer's time in its
          // 28-wide finish rows). Left to itself,
          // LLVM fully unrolls such a loop before vectorizing and then
          // vectorizes the loop around it, across rows: every access a
          // gather or scatter. A register tile keeps LLVM's full unroll:
          // its accumulators only leave memory that way.
          flag("llvm.loop.vectorize.width", llvm::ConstantAsMetadata::get(b_.getInt32(width)));
          flag("llvm.loop.vectorize.predicate.enable", i1(true));
          ops.push_back(llvm::MDNode::get(ctx_, {llvm::MDString::get(ctx_, "llvm.loop.unroll.disable")}));
        }
      }
    } else if (f.forKind == ForKind::Unrolled) {
      ops.push_back(llvm::MDNode::get(ctx_, {llvm::MDString::get(ctx_, "llvm.loop.unroll.full")}));
    } else if (forceFloatVectorize_ && containsVectorizedLoop(f.body)) {
      // The schedule chose the vector axis inside this loop. Once LLVM fully
      // unrolls that short inner loop it would vectorize this one instead,
      // across strided rows or channels: a gather per access (host only).
      flag("llvm.loop.vectorize.enable", i1(false));
    }
    if (ops.size() == 1) return nullptr;
    llvm::MDNode* node = llvm::MDNode::getDistinct(ctx_, ops);
    node->replaceOperandWith(0, node);
    return node;
  }

  /// Whether `body` allocates scratch too large for the stack: such scratch
  /// is one zeroed global per kernel, which threads would share.
  bool allocatesGlobalScratch(const Stmt& body) {
    return anyStatement(body, [&](const Stmt& t) {
      if (t->kind != StmtKind::Allocate) return false;
      const BufferNode& b = *static_cast<const AllocateNode&>(*t).buffer;
      return bufferElements(b) * b.dtype.bytes() > kStackScratchBytes;
    });
  }

  /// A parallel loop on the host's thread pool (EmitRequest::parallel): its
  /// body becomes `void <kernel>.par<N>(i64 begin, i64 end, noalias ptr
  /// buffers..., scalars...)` running iterations [begin, end), called through
  /// a task `void (i8* closure, i64 begin, i64 end)` that unpacks the values
  /// in scope from a closure; the loop itself becomes one call of
  /// passlab_parallel_for(task, closure, min, min + extent), which splits the
  /// range over the pool's threads (runtime in llvm_backend.cpp). The body
  /// stays a function of its own with its buffers noalias, as in the kernel.
  void parallelLoop(const ForNode& f) {
    DataType d = f.var->dtype;
    llvm::Value* begin = b_.CreateSExt(convert(eval(f.min), f.min->dtype, d), b_.getInt64Ty());
    llvm::Value* extent = b_.CreateSExt(convert(eval(f.extent), f.extent->dtype, d), b_.getInt64Ty());
    llvm::Value* end = b_.CreateAdd(begin, extent);
    // Everything in scope: buffers (each base once) and variables.
    std::vector<llvm::Value*> captured;
    std::map<llvm::Value*, size_t> slot;
    for (const BufferBinding& bb : buffers_)
      if (slot.try_emplace(bb.base, captured.size()).second) captured.push_back(bb.base);
    for (const auto& [var, value] : vars_)
      if (slot.try_emplace(value, captured.size()).second) captured.push_back(value);
    std::vector<llvm::Type*> types{b_.getInt64Ty(), b_.getInt64Ty()};
    for (llvm::Value* v : captured) types.push_back(v->getType());
    std::string base = fn_->getName().str() + ".par" + std::to_string(parallelLoops_++);
    auto* bodyType = llvm::FunctionType::get(b_.getVoidTy(), types, false);
    auto* body = llvm::Function::Create(bodyType, llvm::Function::InternalLinkage, base, m_);
    body->addFnAttr(llvm::Attribute::NoUnwind);
    body->addFnAttr(llvm::Attribute::NoInline);
    for (size_t i = 0; i < captured.size(); ++i)
      if (captured[i]->getType()->isPointerTy()) body->addParamAttr(static_cast<unsigned>(i + 2), llvm::Attribute::NoAlias);
    // The task: unpack the closure, call the body.
    auto* closureType = llvm::StructType::get(ctx_, std::vector<llvm::Type*>(types.begin() + 2, types.end()));
    auto* taskType = llvm::FunctionType::get(b_.getVoidTy(), {b_.getInt8PtrTy(), b_.getInt64Ty(), b_.getInt64Ty()}, false);
    auto* task = llvm::Function::Create(taskType, llvm::Function::InternalLinkage, base + ".task", m_);
    task->addFnAttr(llvm::Attribute::NoUnwind);
    {
      llvm::IRBuilder<> t(llvm::BasicBlock::Create(ctx_, "entry", task));
      llvm::Value* closure = t.CreateBitCast(task->getArg(0), closureType->getPointerTo());
      std::vector<llvm::Value*> args{task->getArg(1), task->getArg(2)};
      for (size_t i = 0; i < captured.size(); ++i)
        args.push_back(t.CreateLoad(types[i + 2], t.CreateStructGEP(closureType, closure, static_cast<unsigned>(i))));
      t.CreateCall(body, args);
      t.CreateRetVoid();
    }
    // The body, emitted with the values in scope rebound to its parameters.
    llvm::Function* savedFn = fn_;
    llvm::BasicBlock* savedAlloca = allocaBlock_;
    llvm::BasicBlock* savedBlock = b_.GetInsertBlock();
    auto savedVars = vars_;
    auto savedBuffers = buffers_;
    fn_ = body;
    allocaBlock_ = llvm::BasicBlock::Create(ctx_, "entry", body);
    b_.SetInsertPoint(allocaBlock_);
    for (BufferBinding& bb : buffers_) bb.base = body->getArg(static_cast<unsigned>(slot[bb.base] + 2));
    for (auto& [var, value] : vars_) value = body->getArg(static_cast<unsigned>(slot[value] + 2));
    llvm::Value* lo = body->getArg(0);
    llvm::Value* hi = body->getArg(1);
    auto* loop = llvm::BasicBlock::Create(ctx_, "for." + f.var->name, body);
    auto* exit = llvm::BasicBlock::Create(ctx_, "for.end", body);
    b_.CreateCondBr(b_.CreateICmpSLT(lo, hi), loop, exit);
    b_.SetInsertPoint(loop);
    llvm::PHINode* iv = b_.CreatePHI(b_.getInt64Ty(), 2, f.var->name);
    iv->addIncoming(lo, allocaBlock_);
    vars_[f.var.get()] = b_.CreateTrunc(iv, valueType(d));
    ++parallelDepth_;
    exec(f.body);
    --parallelDepth_;
    llvm::Value* next = b_.CreateAdd(iv, b_.getInt64(1), "", false, true);
    iv->addIncoming(next, b_.GetInsertBlock());
    b_.CreateCondBr(b_.CreateICmpSLT(next, hi), loop, exit);
    b_.SetInsertPoint(exit);
    b_.CreateRetVoid();
    fn_ = savedFn;
    allocaBlock_ = savedAlloca;
    vars_ = std::move(savedVars);
    buffers_ = std::move(savedBuffers);
    b_.SetInsertPoint(savedBlock);
    // The call: the closure on this kernel's stack, the range to the pool.
    llvm::IRBuilder<> entry(allocaBlock_, allocaBlock_->begin());
    llvm::AllocaInst* closure = entry.CreateAlloca(closureType, nullptr, base + ".closure");
    for (size_t i = 0; i < captured.size(); ++i) b_.CreateStore(captured[i], b_.CreateStructGEP(closureType, closure, static_cast<unsigned>(i)));
    auto* runType = llvm::FunctionType::get(b_.getVoidTy(), {taskType->getPointerTo(), b_.getInt8PtrTy(), b_.getInt64Ty(), b_.getInt64Ty()}, false);
    llvm::FunctionCallee run = m_.getOrInsertFunction(kParallelForSymbol, runType);
    b_.CreateCall(run, {task, b_.CreateBitCast(closure, b_.getInt8PtrTy()), begin, end});
  }

  void forLoop(const ForNode& f) {
    // Parallel loops go to the thread pool when the build asks for it (host
    // only, not nested); otherwise they run serially like any other loop.
    if (f.forKind == ForKind::Parallel && parallel_ && parallelDepth_ == 0 && !allocatesGlobalScratch(f.body)) return parallelLoop(f);
    DataType d = f.var->dtype;
    if (!d.isInt()) fail("loop variable " + f.var->name + " must be an integer");
    llvm::Value* begin = convert(eval(f.min), f.min->dtype, d);
    llvm::Value* extent = convert(eval(f.extent), f.extent->dtype, d);
    llvm::Value* end = b_.CreateAdd(begin, extent);
    llvm::BasicBlock* pre = b_.GetInsertBlock();
    auto* body = llvm::BasicBlock::Create(ctx_, "for." + f.var->name, fn_);
    auto* exit = llvm::BasicBlock::Create(ctx_, "for.end", fn_);
    b_.CreateCondBr(b_.CreateICmpSLT(begin, end), body, exit);
    b_.SetInsertPoint(body);
    llvm::PHINode* iv = b_.CreatePHI(valueType(d), 2, f.var->name);
    iv->addIncoming(begin, pre);
    vars_[f.var.get()] = iv;
    bool registerTile = storesToStackBuffer(f.body);
    exec(f.body);
    llvm::Value* next = b_.CreateAdd(iv, llvm::ConstantInt::get(iv->getType(), 1), "", false, true);
    iv->addIncoming(next, b_.GetInsertBlock());
    llvm::BranchInst* latch = b_.CreateCondBr(b_.CreateICmpSLT(next, end), body, exit);
    if (llvm::MDNode* md = loopMetadata(f, registerTile)) latch->setMetadata(llvm::LLVMContext::MD_loop, md);
    vars_.erase(f.var.get());
    b_.SetInsertPoint(exit);
  }

  /// Storage for an Allocate: on the stack when small, else a zeroed global
  /// (the generated code is single-threaded and not re-entrant per function).
  /// The element count of `b` (overflow-checked: TIR text and passes build buffers too).
  int64_t bufferElements(const BufferNode& b) {
    std::optional<int64_t> n = limits::checkedElementCount(b.shape);
    if (!n) fail("buffer " + b.name + ": " + limits::tooManyElementsMessage(b.shape));
    return *n;
  }

  llvm::Value* scratch(const BufferNode& b) {
    int64_t n = bufferElements(b);
    llvm::Type* t = memType(b.dtype);
    int64_t bytes = n * b.dtype.bytes();
    llvm::Value* p;
    if (bytes <= kStackScratchBytes) {
      llvm::IRBuilder<> entry(allocaBlock_, allocaBlock_->begin());
      auto* a = entry.CreateAlloca(llvm::ArrayType::get(t, static_cast<uint64_t>(n)), nullptr, b.name);
      a->setAlignment(llvm::Align(64));
      p = b_.CreateBitCast(a, t->getPointerTo());
    } else {
      auto* g = zeroedStorage(m_, llvm::ArrayType::get(t, static_cast<uint64_t>(n)), fn_->getName().str() + "." + b.name, storageByAddress_);
      p = b_.CreateBitCast(g, t->getPointerTo());
    }
    // The interpreter zero-fills scratch on every entry; so do we (cheap, and dead stores are removed).
    b_.CreateMemSet(p, b_.getInt8(0), static_cast<uint64_t>(bytes), llvm::MaybeAlign(64));
    return p;
  }

  llvm::Value* constantData(const BufferNode& b, const NDArray& data) {
    int64_t n = bufferElements(b);
    if (data.dtype() != b.dtype || data.numElements() != n)
      fail("constant " + b.name + " holds " + std::to_string(data.numElements()) + " elements of " + std::string(data.dtype().name()) +
           ", its buffer expects " + std::to_string(n) + " of " + std::string(b.dtype.name()));
    llvm::Type* t = memType(b.dtype);
    llvm::StringRef raw(reinterpret_cast<const char*>(data.rawData()), data.byteSize());
    llvm::Constant* init = llvm::ConstantDataArray::getRaw(raw, static_cast<uint64_t>(n), t);
    auto* g = new llvm::GlobalVariable(m_, init->getType(), true, llvm::GlobalValue::PrivateLinkage, init,
                                       fn_->getName().str() + "." + b.name);
    g->setAlignment(llvm::Align(64));
    g->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
    return b_.CreateBitCast(g, t->getPointerTo());
  }

  void exec(const Stmt& s) {
    switch (s->kind) {
      case StmtKind::Store: {
        const auto& st = static_cast<const StoreNode&>(*s);
        const BufferBinding& slot = slotFor(st.buffer.get());
        DataType d = slot.buffer->dtype;
        llvm::Value* ptr = address(slot, st.indices);
        llvm::Value* v = convert(eval(st.value), st.value->dtype, d);
        if (d.isBool()) v = b_.CreateZExt(v, b_.getInt8Ty());
        b_.CreateStore(v, ptr);
        return;
      }
      case StmtKind::For: return forLoop(static_cast<const ForNode&>(*s));
      case StmtKind::LetStmt: {
        const auto& l = static_cast<const LetStmtNode&>(*s);
        vars_[l.var.get()] = convert(eval(l.value), l.value->dtype, l.var->dtype);
        exec(l.body);
        vars_.erase(l.var.get());
        return;
      }
      case StmtKind::IfThenElse: {
        const auto& i = static_cast<const IfThenElseNode&>(*s);
        llvm::Value* c = truthy(eval(i.cond), i.cond->dtype);
        auto* thenBB = llvm::BasicBlock::Create(ctx_, "if.then", fn_);
        auto* elseBB = i.elseCase ? llvm::BasicBlock::Create(ctx_, "if.else", fn_) : nullptr;
        auto* join = llvm::BasicBlock::Create(ctx_, "if.end", fn_);
        b_.CreateCondBr(c, thenBB, elseBB ? elseBB : join);
        b_.SetInsertPoint(thenBB);
        exec(i.thenCase);
        b_.CreateBr(join);
        if (elseBB) {
          b_.SetInsertPoint(elseBB);
          exec(i.elseCase);
          b_.CreateBr(join);
        }
        b_.SetInsertPoint(join);
        return;
      }
      case StmtKind::Allocate: {
        const auto& a = static_cast<const AllocateNode&>(*s);
        buffers_.push_back({a.buffer.get(), scratch(*a.buffer)});
        exec(a.body);
        buffers_.pop_back();
        return;
      }
      case StmtKind::AllocateConst: {
        const auto& a = static_cast<const AllocateConstNode&>(*s);
        buffers_.push_back({a.buffer.get(), constantData(*a.buffer, a.data)});
        exec(a.body);
        buffers_.pop_back();
        return;
      }
      case StmtKind::Seq:
        for (const Stmt& part : static_cast<const SeqNode&>(*s).stmts) exec(part);
        return;
      case StmtKind::Evaluate: eval(static_cast<const EvaluateNode&>(*s).value); return;
      case StmtKind::Block: exec(tir::lowerBlocks(s)); return;  // compileModule lowers first; kept correct regardless
    }
  }

  llvm::Module& m_;
  llvm::LLVMContext& ctx_;
  llvm::IRBuilder<> b_;
  IRModule mod_;
  std::string name_;
  llvm::Function* fn_ = nullptr;
  llvm::BasicBlock* allocaBlock_ = nullptr;
  bool forceFloatVectorize_ = true;
  bool inlinable_ = true;
  /// EmitRequest::storageByAddress.
  bool storageByAddress_ = false;
  /// EmitRequest::parallel; parallel loops emitted so far; whether a parallel body is being emitted.
  bool parallel_ = false;
  int parallelLoops_ = 0;
  int parallelDepth_ = 0;
  /// Scratch up to this size lives on the stack, larger is a zeroed global.
  static constexpr int64_t kStackScratchBytes = 64 * 1024;
  std::unordered_map<const tir::VarNode*, llvm::Value*> vars_;
  std::vector<BufferBinding> buffers_;
  std::unordered_map<const tir::VarNode*, size_t> dataVars_;
};

}  // namespace

std::map<std::string, std::string> structurallyEqualKernels(const IRModule& mod, const std::vector<std::string>& names) {
  std::map<std::string, std::string> shared;
  // Compared without global_symbol (every kernel has its own); the symbol is
  // the only attribute code generation reads that does not shape the code.
  std::unordered_map<size_t, std::vector<std::pair<std::string, Expr>>> byHash;
  for (const std::string& name : names) {
    const auto* fn = passlab::as<PrimFuncNode>(mod->lookup(name));
    if (!fn) continue;
    AttrDict attrs = fn->attrs;
    attrs.erase(fn_attr::kGlobalSymbol);
    Expr key = std::make_shared<PrimFuncNode>(fn->params, fn->body, std::move(attrs), Span{});
    auto& bucket = byHash[structuralHash(key)];
    auto same = std::find_if(bucket.begin(), bucket.end(), [&](const auto& other) { return structuralEqual(other.second, key); });
    if (same != bucket.end()) shared[name] = same->first;
    else bucket.emplace_back(name, std::move(key));
  }
  return shared;
}

std::unique_ptr<llvm::Module> emitModule(llvm::LLVMContext& ctx, const EmitRequest& request) {
  auto m = std::make_unique<llvm::Module>("passlab", ctx);
  std::vector<std::tuple<const PrimFuncNode*, llvm::Function*, std::string>> made;
  std::map<std::string, llvm::Function*> byName;
  for (const std::string& name : request.primFuncs) {
    Expr e = request.mod->lookup(name);
    if (!e || e->kind != ExprKind::PrimFunc) throw CodegenError("no PrimFunc @" + name + " in the module");
    if (request.shared.count(name)) continue;
    const auto& fn = static_cast<const PrimFuncNode&>(*e);
    FunctionEmitter emitter(*m, request.mod, name, request.allowContract, request.forceFloatVectorize, request.inlineKernels,
                            request.storageByAddress, request.parallel);
    std::string symbol = symbolOf(request.mod, name);
    llvm::Function* f = emitter.declare(fn, symbol);
    if (!f->empty()) throw CodegenError("@" + name + ": symbol " + f->getName().str() + " is defined twice");
    emitter.emit(fn, f);
    made.emplace_back(&fn, f, symbol);
    byName[name] = f;
  }
  // A kernel equal to one already emitted gets its symbol as an alias of that
  // code (for calls from other PrimFuncs and the object's symbol table).
  for (const auto& [name, original] : request.shared) {
    auto it = byName.find(original);
    if (it == byName.end()) throw CodegenError("@" + name + " shares the code of @" + original + ", which is not compiled");
    const auto& fn = static_cast<const PrimFuncNode&>(*request.mod->lookup(name));
    std::string symbol = symbolOf(request.mod, name);
    if (m->getNamedValue(symbol)) throw CodegenError("@" + name + ": symbol " + symbol + " is defined twice");
    llvm::GlobalAlias::create(llvm::GlobalValue::ExternalLinkage, symbol, it->second);
    made.emplace_back(&fn, it->second, symbol);
  }
  for (auto& [fn, f, symbol] : made) emitPacked(*m, f, *fn, symbol);
  if (request.plan) emitEntry(*m, request.mod, *request.plan, request.profile, request.shared, request.constantsByAddress,
                                  request.storageByAddress);
  std::string problems;
  llvm::raw_string_ostream os(problems);
  if (llvm::verifyModule(*m, &os)) throw CodegenError("internal error: invalid LLVM IR generated:\n" + os.str());
  return m;
}

}  // namespace passlab::codegen
