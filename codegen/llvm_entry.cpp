// The calling side of an emitted module: packed wrappers, the entry and its
// storage (llvm_entry.h). The kernels themselves are emitted by llvm_emit.cpp.
#include "codegen/llvm_entry.h"
#include "codegen/llvm_emit.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <algorithm>

namespace passlab::codegen {

llvm::GlobalVariable* zeroedStorage(llvm::Module& m, llvm::ArrayType* type, const std::string& name, bool byAddress) {
  llvm::GlobalVariable* g =
      byAddress ? new llvm::GlobalVariable(m, type, false, llvm::GlobalValue::ExternalLinkage, nullptr, storageSymbol(name))
                : new llvm::GlobalVariable(m, type, false, llvm::GlobalValue::InternalLinkage, llvm::ConstantAggregateZero::get(type), name);
  g->setAlignment(llvm::Align(64));
  return g;
}

void emitPacked(llvm::Module& m, llvm::Function* target, const PrimFuncNode& fn, const std::string& symbol) {
  llvm::LLVMContext& ctx = m.getContext();
  llvm::IRBuilder<> b(ctx);
  auto* i8pp = b.getInt8PtrTy()->getPointerTo();
  auto* f = llvm::Function::Create(llvm::FunctionType::get(b.getVoidTy(), {i8pp}, false), llvm::Function::ExternalLinkage,
                                   packedSymbol(symbol), m);
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", f));
  std::vector<llvm::Value*> args;
  for (size_t i = 0; i < fn.params.size(); ++i) {
    llvm::Value* p = b.CreateLoad(b.getInt8PtrTy(), b.CreateConstInBoundsGEP1_64(b.getInt8PtrTy(), f->getArg(0), i));
    llvm::Type* want = target->getFunctionType()->getParamType(static_cast<unsigned>(i));
    if (fn.params[i].buffer) {
      args.push_back(p);
    } else if (want->isIntegerTy(1)) {
      args.push_back(b.CreateICmpNE(b.CreateLoad(b.getInt8Ty(), p), b.getInt8(0)));
    } else {
      args.push_back(b.CreateLoad(want, b.CreateBitCast(p, want->getPointerTo())));
    }
  }
  b.CreateCall(target, args);
  b.CreateRetVoid();
}

void emitEntry(llvm::Module& m, const IRModule& mod, const EntryPlan& plan, bool profile,
               const std::map<std::string, std::string>& shared, bool constantsByAddress, bool storageByAddress) {
  llvm::LLVMContext& ctx = m.getContext();
  llvm::IRBuilder<> b(ctx);
  auto* i8p = b.getInt8PtrTy();
  auto* f = llvm::Function::Create(llvm::FunctionType::get(b.getVoidTy(), {i8p->getPointerTo()}, false),
                                   llvm::Function::ExternalLinkage, kEntrySymbol, m);
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", f));
  llvm::GlobalVariable* ticks = nullptr;
  llvm::FunctionCallee clock;
  auto tick = [&](size_t i) {
    if (!ticks) return;
    llvm::CallInst* now = b.CreateCall(clock);
    b.CreateStore(now, b.CreateConstInBoundsGEP2_64(ticks->getValueType(), ticks, 0, i));
  };
  if (profile) {
    auto* at = llvm::ArrayType::get(b.getInt64Ty(), plan.steps.size() + 1);
    ticks = new llvm::GlobalVariable(m, at, false, llvm::GlobalValue::ExternalLinkage, llvm::ConstantAggregateZero::get(at),
                                     kProfileTicksSymbol);
    clock = m.getOrInsertFunction(kProfileClockSymbol, llvm::FunctionType::get(b.getInt64Ty(), false));
  }
  std::vector<llvm::GlobalVariable*> storage;
  for (size_t k = 0; k < plan.storageBytes.size(); ++k) {
    auto* at = llvm::ArrayType::get(b.getInt8Ty(), static_cast<uint64_t>(plan.storageBytes[k]));
    storage.push_back(zeroedStorage(m, at, "entry.storage" + std::to_string(k), storageByAddress));
  }
  std::vector<llvm::Value*> slots;
  for (size_t s = 0; s < plan.slots.size(); ++s) {
    const PlanSlot& slot = plan.slots[s];
    if (slot.kind == PlanSlot::Kind::Temp) {
      slots.push_back(b.CreateBitCast(storage.at(static_cast<size_t>(slot.storage)), i8p));
      continue;
    }
    if (slot.kind == PlanSlot::Kind::Input) {
      slots.push_back(b.CreateLoad(i8p, b.CreateConstInBoundsGEP1_64(i8p, f->getArg(0), static_cast<uint64_t>(slot.index))));
      continue;
    }
    llvm::GlobalVariable* g;
    if (slot.kind == PlanSlot::Kind::Const && constantsByAddress) {
      // No alignment is promised: the arrays are wherever their storage is.
      auto* at = llvm::ArrayType::get(b.getInt8Ty(), static_cast<uint64_t>(std::max<int64_t>(slot.sig.bytes(), 1)));
      g = new llvm::GlobalVariable(m, at, true, llvm::GlobalValue::ExternalLinkage, nullptr, constantSymbol(slot.index));
      slots.push_back(b.CreateBitCast(g, i8p));
      continue;
    }
    const NDArray& data = plan.constants[static_cast<size_t>(slot.index)];
    llvm::Constant* init = llvm::ConstantDataArray::get(ctx, llvm::ArrayRef<uint8_t>(data.rawData(), data.byteSize()));
    g = new llvm::GlobalVariable(m, init->getType(), true, llvm::GlobalValue::PrivateLinkage, init, "entry.const" + std::to_string(slot.index));
    g->setAlignment(llvm::Align(64));
    slots.push_back(b.CreateBitCast(g, i8p));
  }
  tick(0);
  for (size_t stepIndex = 0; stepIndex < plan.steps.size(); ++stepIndex) {
    const PlanStep& step = plan.steps[stepIndex];
    std::vector<llvm::Value*> args;
    std::vector<llvm::Type*> types;
    if (!step.external) {
      const auto& fn = static_cast<const PrimFuncNode&>(*mod->lookup(step.callee));
      if (fn.params.size() != step.args.size())
        throw CodegenError("@" + plan.name + ": @" + step.callee + " takes " + std::to_string(fn.params.size()) + " buffers, call_tir passes " +
                           std::to_string(step.args.size()));
      for (const tir::Param& p : fn.params)
        if (!p.buffer) throw CodegenError("@" + plan.name + ": call_tir callee @" + step.callee + " has a scalar parameter");
    }
    for (int a : step.args) {
      args.push_back(slots[static_cast<size_t>(a)]);
      types.push_back(i8p);
    }
    auto sharedWith = shared.find(step.callee);
    std::string symbol = step.external ? step.callee : symbolOf(mod, sharedWith == shared.end() ? step.callee : sharedWith->second);
    llvm::FunctionCallee callee = m.getOrInsertFunction(symbol, llvm::FunctionType::get(b.getVoidTy(), types, false));
    b.CreateCall(callee, args);
    tick(stepIndex + 1);
  }
  for (size_t o = 0; o < plan.outputs.size(); ++o) {
    llvm::Value* dst = b.CreateLoad(i8p, b.CreateConstInBoundsGEP1_64(i8p, f->getArg(0), static_cast<uint64_t>(plan.inputCount) + o));
    const PlanSlot& src = plan.slots[static_cast<size_t>(plan.outputs[o])];
    b.CreateMemCpy(dst, llvm::MaybeAlign(1), slots[static_cast<size_t>(plan.outputs[o])], llvm::MaybeAlign(1),
                   static_cast<uint64_t>(src.sig.bytes()));
  }
  b.CreateRetVoid();
}

std::vector<std::pair<std::string, uint64_t>> storageOf(const llvm::Module& m) {
  const std::string prefix = storageSymbol("");
  std::vector<std::pair<std::string, uint64_t>> out;
  for (const llvm::GlobalVariable& g : m.globals())
    if (g.isDeclaration() && g.getName().startswith(prefix))
      out.emplace_back(g.getName().str(), m.getDataLayout().getTypeAllocSize(g.getValueType()).getFixedSize());
  return out;
}

}  // namespace passlab::codegen
