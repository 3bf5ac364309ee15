// TIR -> LLVM IR. Values follow the reference interpreter's semantics
// (core/interp/tir_interpreter.cpp) so compiled code can be checked against
// it: integer arithmetic wraps to the dtype's width, float16 arithmetic is done
// in float and rounded to half after every operation (float has enough bits
// for that to be correctly rounded), float->int conversions saturate, bools
// are i1 in registers and a byte in memory. Index arithmetic is done in i64
// with no-signed-wrap, since an index that overflowed would be out of bounds
// anyway; that lets LLVM widen and vectorize loops.
//
// The emitter itself is FunctionEmitter (llvm_function_emitter.h); this file
// declares and emits functions and assembles the module.
#include "codegen/llvm_emit.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <set>
#include <tuple>
#include <unordered_map>

#include "codegen/llvm_entry.h"
#include "codegen/llvm_function_emitter.h"
#include "codegen/llvm_machine.h"
#include "core/analysis/structural_equal.h"

namespace passlab::codegen {

using namespace tir;

llvm::Type* FunctionEmitter::valueType(DataType d) {
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

llvm::Function* FunctionEmitter::declare(const PrimFuncNode& fn, const std::string& symbol) {
  std::vector<llvm::Type*> params;
  for (const Param& p : fn.params) params.push_back(p.buffer ? b_.getInt8PtrTy() : valueType(p.var->dtype));
  auto* type = llvm::FunctionType::get(b_.getVoidTy(), params, false);
  llvm::Function* f = m_.getFunction(symbol);
  if (!f) f = llvm::Function::Create(type, llvm::Function::ExternalLinkage, symbol, m_);
  return f;
}

void FunctionEmitter::emit(const PrimFuncNode& fn, llvm::Function* f) {
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
    if (request.watch) {
      request.watch->throwIfCancelled();
      request.watch->at(name);
    }
    const auto& fn = static_cast<const PrimFuncNode&>(*e);
    FunctionEmitter emitter(*m, request.mod, name, request.allowContract, request.forceFloatVectorize, request.inlineKernels,
                            request.storageByAddress, request.parallel);
    emitter.recordParallelLoopsIn(request.parallelLoops);
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
