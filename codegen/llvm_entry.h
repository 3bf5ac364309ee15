// The calling side of an emitted module (internal to codegen/): the packed
// wrapper of each kernel, the entry that calls the kernels in the plan's
// order, and the zero-initialized storage both the entry and the kernels'
// large scratch live in. Only forward declarations of LLVM types here.
#pragma once

#include <map>
#include <string>

#include "codegen/entry_plan.h"

namespace llvm {
class ArrayType;
class Function;
class GlobalVariable;
class Module;
}  // namespace llvm

namespace passlab::codegen {

/// Zero-initialized storage named `name`: a global of `m` or, `byAddress`,
/// a declaration of storageSymbol(name) (EmitRequest::storageByAddress).
llvm::GlobalVariable* zeroedStorage(llvm::Module& m, llvm::ArrayType* type, const std::string& name, bool byAddress);

/// void __passlab_packed_SYM(i8** args): each arg points at a buffer or at a
/// scalar's value. `symbol` is the PrimFunc's own (`target` may be shared code).
void emitPacked(llvm::Module& m, llvm::Function* target, const PrimFuncNode& fn, const std::string& symbol);

/// void __passlab_entry(i8** args): inputs then outputs; scratch and constants
/// are globals (or, by address, symbols the JIT binds). With `profile`, the
/// clock is read before the first call and after each one into
/// kProfileTicksSymbol. `shared` maps a kernel to the one whose code it calls.
void emitEntry(llvm::Module& m, const IRModule& mod, const EntryPlan& plan, bool profile,
               const std::map<std::string, std::string>& shared, bool constantsByAddress, bool storageByAddress);

}  // namespace passlab::codegen
