// FunctionEmitter's statements (see llvm_function_emitter.h): stores, lets,
// branches, loops with their vectorization metadata, parallel loops on the
// host's thread pool, scratch and constant buffers.
#include "codegen/llvm_function_emitter.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/MDBuilder.h>

#include <algorithm>
#include <map>
#include <optional>

#include "codegen/llvm_emit.h"
#include "codegen/llvm_entry.h"
#include "codegen/tir_scan.h"
#include "core/ir/limits.h"
#include "core/ir/tir_lower_blocks.h"

namespace passlab::codegen {

using namespace tir;

bool FunctionEmitter::storesToStackBuffer(const Stmt& s) {
  return anyStatement(s, [&](const Stmt& t) {
    if (t->kind != StmtKind::Store) return false;
    const BufferNode* b = static_cast<const StoreNode&>(*t).buffer.get();
    for (size_t i = buffers_.size(); i-- > 0;)
      if (buffers_[i].buffer == b) return llvm::isa<llvm::AllocaInst>(buffers_[i].base->stripPointerCasts());
    return false;
  });
}

bool FunctionEmitter::callsLibraryFunction(const tir::Stmt& body) {
  std::vector<std::string> names;
  collectIntrinsicCalls(body, names);
  return std::any_of(names.begin(), names.end(), [](const std::string& n) {
    const FloatIntrinsic* lowering = floatIntrinsic(n);
    return !lowering || !lowering->oneInstruction;
  });
}

llvm::MDNode* FunctionEmitter::loopMetadata(const ForNode& f, bool registerTile) {
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
  } else if (forceFloatVectorize_ && (containsVectorizedLoop(f.body) || isStridedCopy(f.body, f.var.get()))) {
    // The schedule chose the vector axis inside this loop. Once LLVM fully
    // unrolls that short inner loop it would vectorize this one instead,
    // across strided rows or channels: a gather per access (host only).
    // A serial copy that transposes (a convolution's patches) stays scalar
    // for the same reason: its gathers and scatters cost compile time and
    // ran no faster.
    flag("llvm.loop.vectorize.enable", i1(false));
  }
  if (ops.size() == 1) return nullptr;
  llvm::MDNode* node = llvm::MDNode::getDistinct(ctx_, ops);
  node->replaceOperandWith(0, node);
  return node;
}

bool FunctionEmitter::allocatesGlobalScratch(const Stmt& body) {
  return anyStatement(body, [&](const Stmt& t) {
    if (t->kind != StmtKind::Allocate) return false;
    const BufferNode& b = *static_cast<const AllocateNode&>(*t).buffer;
    return bufferElements(b) * b.dtype.bytes() > kStackScratchBytes;
  });
}

void FunctionEmitter::parallelLoop(const ForNode& f) {
  DataType d = f.var->dtype;
  llvm::Value* begin = b_.CreateSExt(convert(eval(f.min), f.min->dtype, d), b_.getInt64Ty());
  llvm::Value* extent = b_.CreateSExt(convert(eval(f.extent), f.extent->dtype, d), b_.getInt64Ty());
  llvm::Value* end = b_.CreateAdd(begin, extent);
  ParallelScope scope = captureScope();
  std::vector<llvm::Type*> types{b_.getInt64Ty(), b_.getInt64Ty()};
  for (llvm::Value* v : scope.captured) types.push_back(v->getType());
  std::string base = fn_->getName().str() + ".par" + std::to_string(parallelLoops_++);
  auto* bodyType = llvm::FunctionType::get(b_.getVoidTy(), types, false);
  auto* body = llvm::Function::Create(bodyType, llvm::Function::InternalLinkage, base, m_);
  body->addFnAttr(llvm::Attribute::NoUnwind);
  body->addFnAttr(llvm::Attribute::NoInline);
  for (size_t i = 0; i < scope.captured.size(); ++i)
    if (scope.captured[i]->getType()->isPointerTy()) body->addParamAttr(static_cast<unsigned>(i + 2), llvm::Attribute::NoAlias);
  auto* closureType = llvm::StructType::get(ctx_, std::vector<llvm::Type*>(types.begin() + 2, types.end()));
  llvm::Function* task = parallelTask(base, body, closureType);
  parallelBody(f, body, scope);
  // The call: the closure on this kernel's stack, the range to the pool.
  llvm::IRBuilder<> entry(allocaBlock_, allocaBlock_->begin());
  llvm::AllocaInst* closure = entry.CreateAlloca(closureType, nullptr, base + ".closure");
  for (size_t i = 0; i < scope.captured.size(); ++i)
    b_.CreateStore(scope.captured[i], b_.CreateStructGEP(closureType, closure, static_cast<unsigned>(i)));
  llvm::Type* taskPointer = task->getFunctionType()->getPointerTo();
  auto* runType = llvm::FunctionType::get(b_.getVoidTy(), {taskPointer, b_.getInt8PtrTy(), b_.getInt64Ty(), b_.getInt64Ty()}, false);
  llvm::FunctionCallee run = m_.getOrInsertFunction(kParallelForSymbol, runType);
  b_.CreateCall(run, {task, b_.CreateBitCast(closure, b_.getInt8PtrTy()), begin, end});
}

FunctionEmitter::ParallelScope FunctionEmitter::captureScope() const {
  ParallelScope scope;
  for (const BufferBinding& bb : buffers_)
    if (scope.slot.try_emplace(bb.base, scope.captured.size()).second) scope.captured.push_back(bb.base);
  for (const auto& [var, value] : vars_)
    if (scope.slot.try_emplace(value, scope.captured.size()).second) scope.captured.push_back(value);
  return scope;
}

llvm::Function* FunctionEmitter::parallelTask(const std::string& base, llvm::Function* body, llvm::StructType* closureType) {
  auto* taskType = llvm::FunctionType::get(b_.getVoidTy(), {b_.getInt8PtrTy(), b_.getInt64Ty(), b_.getInt64Ty()}, false);
  auto* task = llvm::Function::Create(taskType, llvm::Function::InternalLinkage, base + ".task", m_);
  task->addFnAttr(llvm::Attribute::NoUnwind);
  llvm::IRBuilder<> t(llvm::BasicBlock::Create(ctx_, "entry", task));
  llvm::Value* closure = t.CreateBitCast(task->getArg(0), closureType->getPointerTo());
  std::vector<llvm::Value*> args{task->getArg(1), task->getArg(2)};
  for (unsigned i = 0; i < closureType->getNumElements(); ++i)
    args.push_back(t.CreateLoad(closureType->getElementType(i), t.CreateStructGEP(closureType, closure, i)));
  t.CreateCall(body, args);
  t.CreateRetVoid();
  return task;
}

void FunctionEmitter::parallelBody(const ForNode& f, llvm::Function* body, const ParallelScope& scope) {
  llvm::Function* savedFn = fn_;
  llvm::BasicBlock* savedAlloca = allocaBlock_;
  llvm::BasicBlock* savedBlock = b_.GetInsertBlock();
  auto savedVars = vars_;
  auto savedBuffers = buffers_;
  fn_ = body;
  allocaBlock_ = llvm::BasicBlock::Create(ctx_, "entry", body);
  b_.SetInsertPoint(allocaBlock_);
  for (BufferBinding& bb : buffers_) bb.base = body->getArg(static_cast<unsigned>(scope.slot.at(bb.base) + 2));
  for (auto& [var, value] : vars_) value = body->getArg(static_cast<unsigned>(scope.slot.at(value) + 2));
  llvm::Value* lo = body->getArg(0);
  llvm::Value* hi = body->getArg(1);
  auto* loop = llvm::BasicBlock::Create(ctx_, "for." + f.var->name, body);
  auto* exit = llvm::BasicBlock::Create(ctx_, "for.end", body);
  b_.CreateCondBr(b_.CreateICmpSLT(lo, hi), loop, exit);
  b_.SetInsertPoint(loop);
  llvm::PHINode* iv = b_.CreatePHI(b_.getInt64Ty(), 2, f.var->name);
  iv->addIncoming(lo, allocaBlock_);
  vars_[f.var.get()] = b_.CreateTrunc(iv, valueType(f.var->dtype));
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
}

void FunctionEmitter::forLoop(const ForNode& f) {
  // Parallel loops go to the thread pool when the build asks for it (host
  // only, not nested); otherwise they run serially like any other loop.
  if (f.forKind == ForKind::Parallel && parallel_ && parallelDepth_ == 0 && !allocatesGlobalScratch(f.body)) {
    // A loop whose whole work is less than the pool's hand-off runs serially:
    // a small kernel on two threads was slower than on one.
    const auto* extent = as<IntImmNode>(f.extent);
    constexpr int64_t kCap = int64_t{1} << 50;
    const int64_t body = staticWork(f.body);
    const int64_t work = !extent || extent->value <= 0 ? body : body > kCap / extent->value ? kCap : extent->value * body;
    // A loop whose extent is only known at run time goes to the pool.
    const bool pool = !extent || work >= kParallelMinWork;
    if (parallelDecisions_) {
      parallelDecisions_->push_back("@" + name_ + ": loop " + f.var->name + ", " +
                                    (extent ? std::to_string(extent->value) : std::string("?")) + " iterations, " + std::to_string(work) +
                                    " element operations: " +
                                    (pool ? std::string("thread pool") : "serial (below the pool's threshold of " + std::to_string(kParallelMinWork) + ")"));
    }
    if (pool) return parallelLoop(f);
  }
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

int64_t FunctionEmitter::bufferElements(const BufferNode& b) {
  std::optional<int64_t> n = limits::checkedElementCount(b.shape);
  if (!n) fail("buffer " + b.name + ": " + limits::tooManyElementsMessage(b.shape));
  return *n;
}

llvm::Value* FunctionEmitter::scratch(const BufferNode& b) {
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

llvm::Value* FunctionEmitter::constantData(const BufferNode& b, const NDArray& data) {
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

void FunctionEmitter::exec(const Stmt& s) {
  switch (s->kind) {
    case StmtKind::Store: return store(static_cast<const StoreNode&>(*s));
    case StmtKind::For: return forLoop(static_cast<const ForNode&>(*s));
    case StmtKind::LetStmt: {
      const auto& l = static_cast<const LetStmtNode&>(*s);
      vars_[l.var.get()] = convert(eval(l.value), l.value->dtype, l.var->dtype);
      exec(l.body);
      vars_.erase(l.var.get());
      return;
    }
    case StmtKind::IfThenElse: return branch(static_cast<const IfThenElseNode&>(*s));
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
    case StmtKind::Assert: return assertion(static_cast<const AssertStmtNode&>(*s));
    case StmtKind::Block: exec(tir::lowerBlocks(s)); return;  // compileModule lowers first; kept correct regardless
  }
}

void FunctionEmitter::store(const StoreNode& st) {
  const BufferBinding& slot = slotFor(st.buffer.get());
  DataType d = slot.buffer->dtype;
  llvm::Value* ptr = address(slot, st.indices);
  llvm::Value* v = convert(eval(st.value), st.value->dtype, d);
  if (d.isBool()) v = b_.CreateZExt(v, b_.getInt8Ty());
  b_.CreateStore(v, ptr);
}

void FunctionEmitter::assertion(const AssertStmtNode& a) {
  llvm::Value* c = truthy(eval(a.cond), a.cond->dtype);
  auto* failBB = llvm::BasicBlock::Create(ctx_, "assert.fail", fn_);
  auto* okBB = llvm::BasicBlock::Create(ctx_, "assert.ok", fn_);
  llvm::MDBuilder md(ctx_);
  b_.CreateCondBr(c, okBB, failBB, md.createBranchWeights(1u << 20, 1));
  b_.SetInsertPoint(failBB);
  auto* type = llvm::FunctionType::get(b_.getVoidTy(), {b_.getInt8PtrTy()}, false);
  llvm::FunctionCallee report = m_.getOrInsertFunction(kAssertFailSymbol, type);
  if (auto* f = llvm::dyn_cast<llvm::Function>(report.getCallee())) {
    f->addFnAttr(llvm::Attribute::Cold);
    f->addFnAttr(llvm::Attribute::NoUnwind);
  }
  b_.CreateCall(report, {b_.CreateGlobalStringPtr("@" + name_ + ": " + tir::assertFailureText(a), fn_->getName().str() + ".assert")});
  // The function stops here (a parallel body stops its chunk); the caller
  // learns of the failure from the runtime, not from a return value.
  b_.CreateRetVoid();
  b_.SetInsertPoint(okBB);
  if (a.body) exec(a.body);
}

void FunctionEmitter::branch(const IfThenElseNode& i) {
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
}

}  // namespace passlab::codegen
