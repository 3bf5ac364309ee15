// FunctionEmitter's expressions (see llvm_function_emitter.h): conversions,
// integer arithmetic, index arithmetic, operators, intrinsics, calls and
// buffer addresses. The semantics are in llvm_emit.cpp's header.
#include "codegen/llvm_function_emitter.h"

#include <llvm/IR/Constants.h>

#include <algorithm>

#include "codegen/entry_plan.h"
#include "codegen/tir_scan.h"
#include "core/analysis/structural_equal.h"
#include "core/ir/limits.h"

namespace passlab::codegen {

using namespace tir;

namespace {

/// Every float intrinsic the emitter knows.
constexpr FloatIntrinsic kFloatIntrinsics[] = {
#define PASSLAB_FLOAT_UNARY(name, reference, lowering, llvmId, oneInstruction, libmvec, libm) \
  {#name, FloatIntrinsic::lowering, llvm::Intrinsic::llvmId, oneInstruction},
#define PASSLAB_FLOAT_BINARY(name, lowering, llvmId, oneInstruction, libmvec, libm) \
  {#name, FloatIntrinsic::lowering, llvm::Intrinsic::llvmId, oneInstruction},
#include "core/ir/float_intrinsics.def"
};

/// An intrinsic's name without its "tir." or "T." prefix.
std::string_view withoutIntrinsicPrefix(std::string_view name) {
  for (std::string_view prefix : {"tir.", "T."})
    if (name.substr(0, prefix.size()) == prefix) name.remove_prefix(prefix.size());
  return name;
}

}  // namespace

const FloatIntrinsic* floatIntrinsic(std::string_view name) {
  name = withoutIntrinsicPrefix(name);
  for (const FloatIntrinsic& f : kFloatIntrinsics)
    if (name == f.name) return &f;
  return nullptr;
}

llvm::Value* FunctionEmitter::truthy(llvm::Value* v, DataType d) {
  if (d.isBool()) return v;
  if (d.isFloat()) return b_.CreateFCmpUNE(v, llvm::ConstantFP::get(v->getType(), 0.0));
  return b_.CreateICmpNE(v, llvm::ConstantInt::get(v->getType(), 0));
}

llvm::Value* FunctionEmitter::convert(llvm::Value* v, DataType from, DataType to) {
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

llvm::Value* FunctionEmitter::lazySelect(const PrimExpr& cond, const PrimExpr& t, const PrimExpr& f, DataType d) {
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

llvm::Value* FunctionEmitter::intDivision(BinaryOp op, llvm::Value* x, llvm::Value* y, bool sign) {
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

llvm::Value* FunctionEmitter::intBinary(BinaryOp op, llvm::Value* x, llvm::Value* y, bool sign, bool nsw) {
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

PrimExpr FunctionEmitter::refolded(const PrimExpr& high, const PrimExpr& low, int64_t extent) {
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

int64_t FunctionEmitter::constantIndex(const PrimExpr& e) {
  const auto* imm = as<IntImmNode>(e);
  return imm ? imm->value : -1;
}

llvm::Value* FunctionEmitter::index(const PrimExpr& e) {
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

llvm::Value* FunctionEmitter::binary(const BinaryNode& n) {
  if (n.op == BinaryOp::And || n.op == BinaryOp::Or) return logical(n);
  DataType da = n.a->dtype, db = n.b->dtype, d = n.dtype;
  bool isFloat = da.isFloat() || db.isFloat();
  if (n.op >= BinaryOp::EQ && n.op <= BinaryOp::GE) return comparison(n, isFloat);
  if (isFloat || d.isFloat()) return floatArithmetic(n);
  llvm::Value* x = convert(eval(n.a), da, d);
  llvm::Value* y = convert(eval(n.b), db, d);
  if (d.isBool()) {  // arithmetic on bools: in a byte, then back to 0/1
    llvm::Value* r = intBinary(n.op, b_.CreateZExt(x, b_.getInt8Ty()), b_.CreateZExt(y, b_.getInt8Ty()), false, false);
    return b_.CreateICmpNE(r, b_.getInt8(0));
  }
  return intBinary(n.op, x, y, isSigned(d), false);
}

llvm::Value* FunctionEmitter::logical(const BinaryNode& n) {
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

llvm::Value* FunctionEmitter::comparison(const BinaryNode& n, bool isFloat) {
  DataType da = n.a->dtype, db = n.b->dtype;
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

llvm::Value* FunctionEmitter::floatArithmetic(const BinaryNode& n) {
  DataType da = n.a->dtype, db = n.b->dtype, d = n.dtype;
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

llvm::Value* FunctionEmitter::intrinsic(const tir::CallNode& c) {
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
    case FloatIntrinsic::CLibrary: r = libm(lowering->name); break;
    case FloatIntrinsic::ReciprocalSqrt: r = b_.CreateFDiv(llvm::ConstantFP::get(t, 1.0), unaryIntr(lowering->intrinsic)); break;
    case FloatIntrinsic::Sigmoid: {
      need(1);
      llvm::Value* e = b_.CreateUnaryIntrinsic(lowering->intrinsic, b_.CreateFNeg(x[0]));
      r = b_.CreateFDiv(llvm::ConstantFP::get(t, 1.0), b_.CreateFAdd(llvm::ConstantFP::get(t, 1.0), e));
      break;
    }
    case FloatIntrinsic::Power:
      need(2);
      r = b_.CreateBinaryIntrinsic(lowering->intrinsic, x[0], x[1]);
      break;
  }
  return convert(r, cd, c.dtype);
}

llvm::Value* FunctionEmitter::globalCall(const tir::CallNode& c) {
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

const BufferBinding* FunctionEmitter::bufferArgument(const PrimExpr& arg) {
  const auto* v = as<tir::VarNode>(arg);
  if (!v) return nullptr;
  if (auto it = dataVars_.find(v); it != dataVars_.end()) return &buffers_[it->second];
  for (size_t i = buffers_.size(); i-- > 0;)
    if (buffers_[i].buffer->name == v->name) return &buffers_[i];
  return nullptr;
}

const BufferBinding& FunctionEmitter::slotFor(const BufferNode* b) {
  for (size_t i = buffers_.size(); i-- > 0;)
    if (buffers_[i].buffer == b) return buffers_[i];
  for (size_t i = buffers_.size(); i-- > 0;)  // text naming a buffer twice may build distinct nodes
    if (buffers_[i].buffer->name == b->name) return buffers_[i];
  fail("buffer " + b->name + " is not allocated here");
}

llvm::Value* FunctionEmitter::address(const BufferBinding& slot, const std::vector<PrimExpr>& indices) {
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

llvm::Value* FunctionEmitter::eval(const PrimExpr& e) {
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
    case PrimExprKind::Let: {
      const auto& l = static_cast<const tir::LetNode&>(*e);
      llvm::Value* value = convert(eval(l.value), l.value->dtype, l.var->dtype);
      auto [it, added] = vars_.try_emplace(l.var.get(), value);
      llvm::Value* shadowed = added ? nullptr : it->second;
      it->second = value;
      llvm::Value* result = eval(l.body);
      if (shadowed) vars_[l.var.get()] = shadowed;
      else vars_.erase(l.var.get());
      return result;
    }
  }
  fail("unknown expression");
}

}  // namespace passlab::codegen
