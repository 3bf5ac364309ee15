// The LLVM emitter of one PrimFunc (internal to codegen/). FunctionEmitter
// holds the IR builder and what is in scope (variables, buffers); its parts
// are defined by concern:
//   llvm_emit.cpp       declaring and emitting a function; emitModule
//   llvm_emit_expr.cpp  conversions, integer arithmetic, expressions, intrinsics, addresses
//   llvm_emit_stmt.cpp  statements, loops (serial, vectorized, parallel), scratch and constants
// The semantics it follows are in llvm_emit.cpp's header.
#pragma once

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "codegen/codegen.h"
#include "core/ir/module.h"
#include "core/ir/tir.h"

namespace passlab::codegen {

/// How the emitter lowers a float intrinsic of TIR (one row of core/ir/float_intrinsics.def).
struct FloatIntrinsic {
  /// The TIR name (without a "tir." or "T." prefix).
  const char* name;
  enum How { LlvmIntrinsic, CLibrary, ReciprocalSqrt, Sigmoid, Power } how;
  /// The LLVM intrinsic the lowering calls (not_intrinsic for a C library call).
  llvm::Intrinsic::ID intrinsic;
  /// Whether it is an instruction on the host rather than a call of a
  /// (vector) math function: a loop of calls needs a vector variant's width.
  bool oneInstruction;
};

/// The lowering of float intrinsic `name` ("tir." or "T." prefix allowed), or
/// null for a name that is not a float intrinsic.
const FloatIntrinsic* floatIntrinsic(std::string_view name);

/// A buffer in scope and the address of its first element.
struct BufferBinding {
  const tir::BufferNode* buffer;
  llvm::Value* base;  // pointer to the element type
};

/// Emits one PrimFunc into an LLVM module.
class FunctionEmitter {
 public:
  /// An emitter of one PrimFunc (`name` in `mod`) into `m`; the flags are EmitRequest's.
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

  /// Throws CodegenError("@kernel: message").
  [[noreturn]] void fail(const std::string& message) const { throw CodegenError("@" + name_ + ": " + message); }

  /// The LLVM type of a value of dtype `d` in registers (bool: i1).
  llvm::Type* valueType(DataType d);
  /// The LLVM type of an element in memory (bool: a byte).
  llvm::Type* memType(DataType d) { return d.isBool() ? b_.getInt8Ty() : valueType(d); }

  /// The function `symbol` for `fn` (declared once; a call may declare it first).
  llvm::Function* declare(const PrimFuncNode& fn, const std::string& symbol);

  /// Emits the body of `fn` into `f`.
  void emit(const PrimFuncNode& fn, llvm::Function* f);

  /// Where the outer parallel loops' decisions go (EmitRequest::parallelLoops).
  void recordParallelLoopsIn(std::vector<std::string>* out) { parallelDecisions_ = out; }

 private:
  // ---- helpers -----------------------------------------------------------
  static bool isSigned(DataType d) { return !d.isUnsigned() && !d.isBool(); }

  /// `v` (of dtype `d`) as an i1: nonzero.
  llvm::Value* truthy(llvm::Value* v, DataType d);

  /// Converts a value of dtype `from` to `to` as the interpreter's convert().
  llvm::Value* convert(llvm::Value* v, DataType from, DataType to);

  /// Half values are computed in float.
  llvm::Value* widenHalf(llvm::Value* v, DataType d) { return d.code == DTypeCode::Float16 ? b_.CreateFPExt(v, b_.getFloatTy()) : v; }
  llvm::Value* narrowHalf(llvm::Value* v, DataType d) { return d.code == DTypeCode::Float16 ? b_.CreateFPTrunc(v, b_.getHalfTy()) : v; }

  /// cond ? t : f evaluating only the branch taken (guarded loads stay in bounds).
  llvm::Value* lazySelect(const tir::PrimExpr& cond, const tir::PrimExpr& t, const tir::PrimExpr& f, DataType d);

  // ---- integer arithmetic (wrapping, or i64 nsw for indices) ---------------
  /// Division and modulo as the interpreter computes them: x / 0 is 0, INT_MIN / -1 wraps.
  llvm::Value* intDivision(tir::BinaryOp op, llvm::Value* x, llvm::Value* y, bool sign);

  /// An integer operator; `nsw` for index arithmetic (see the file header).
  llvm::Value* intBinary(tir::BinaryOp op, llvm::Value* x, llvm::Value* y, bool sign, bool nsw);

  /// `high * extent + low` as one expression when `low` is floormod(x, extent)
  /// and `high` is floordiv(x, extent) or floordiv(y, extent * m) with x =
  /// floordiv(y, m) (unflattenIndex's forms); null otherwise. Exact for any
  /// integer x, as floor division and modulo are.
  static tir::PrimExpr refolded(const tir::PrimExpr& high, const tir::PrimExpr& low, int64_t extent);

  /// The value of an integer literal, -1 otherwise.
  static int64_t constantIndex(const tir::PrimExpr& e);

  /// An index expression as i64 (nsw arithmetic).
  llvm::Value* index(const tir::PrimExpr& e);

  // ---- expressions -------------------------------------------------------
  /// A binary operator; && and || short-circuit like the interpreter.
  llvm::Value* binary(const tir::BinaryNode& n);
  /// && and ||: the right operand is evaluated only when it decides (when it may load or call).
  llvm::Value* logical(const tir::BinaryNode& n);
  /// ==, !=, <, <=, >, >=: ordered float compares (!= unordered), signed or unsigned integer ones.
  llvm::Value* comparison(const tir::BinaryNode& n, bool isFloat);
  /// Float arithmetic, float16 computed in float; min/max propagate a NaN.
  llvm::Value* floatArithmetic(const tir::BinaryNode& n);

  /// A float intrinsic (float_intrinsics.def), lowered as its table row says.
  llvm::Value* intrinsic(const tir::CallNode& c);

  /// A call of another PrimFunc of the module (buffers passed by their data variable).
  llvm::Value* globalCall(const tir::CallNode& c);

  /// The buffer a call argument names (a data variable), or null.
  const BufferBinding* bufferArgument(const tir::PrimExpr& arg);

  /// The innermost binding of buffer `b` (fails when it is not in scope).
  const BufferBinding& slotFor(const tir::BufferNode* b);

  /// The address of an element, its row-major offset in i64.
  llvm::Value* address(const BufferBinding& slot, const std::vector<tir::PrimExpr>& indices);

  /// The value of an expression, with the interpreter's semantics.
  llvm::Value* eval(const tir::PrimExpr& e);

  // ---- statements ----------------------------------------------------------
  /// Whether `s` stores into a stack buffer allocated around it: a register
  /// tile (an accumulator row) that SROA keeps in registers once LLVM has
  /// fully unrolled the loop over it.
  bool storesToStackBuffer(const tir::Stmt& s);

  /// `registerTile`: the loop stores into a stack buffer (storesToStackBuffer).
  /// True when `body` calls a math function that is a library call rather
  /// than an instruction (exp, tanh, sigmoid's exp...). Its vector variants
  /// are at most one register wide (16 floats with AVX-512), so a loop forced
  /// to a wider vector (a 32-position tile's epilogue) called the scalar
  /// function for every lane; LLVM's own choice of width finds the variant.
  static bool callsLibraryFunction(const tir::Stmt& body);

  /// The llvm.loop metadata of a loop: vectorize and unroll hints from its kind and body.
  llvm::MDNode* loopMetadata(const tir::ForNode& f, bool registerTile);

  /// Whether `body` allocates scratch too large for the stack: such scratch
  /// is one zeroed global per kernel, which threads would share.
  bool allocatesGlobalScratch(const tir::Stmt& body);

  /// A parallel loop on the host's thread pool (EmitRequest::parallel): its
  /// body becomes `void <kernel>.par<N>(i64 begin, i64 end, noalias ptr
  /// buffers..., scalars...)` running iterations [begin, end), called through
  /// a task `void (i8* closure, i64 begin, i64 end)` that unpacks the values
  /// in scope from a closure; the loop itself becomes one call of
  /// passlab_parallel_for(task, closure, min, min + extent), which splits the
  /// range over the pool's threads (runtime in llvm_backend.cpp). The body
  /// stays a function of its own with its buffers noalias, as in the kernel.
  void parallelLoop(const tir::ForNode& f);
  /// The values in scope of a parallel body: each buffer base once, then the
  /// variables; `slot` is each value's index in `captured`.
  struct ParallelScope {
    std::vector<llvm::Value*> captured;
    std::map<llvm::Value*, size_t> slot;
  };
  ParallelScope captureScope() const;
  /// The task `void (i8* closure, i64 begin, i64 end)`: unpacks the closure and calls `body`.
  llvm::Function* parallelTask(const std::string& base, llvm::Function* body, llvm::StructType* closureType);
  /// Emits the loop of `f` into `body` over [begin, end), the values in scope
  /// rebound to its parameters, then returns to the kernel.
  void parallelBody(const tir::ForNode& f, llvm::Function* body, const ParallelScope& scope);

  /// A loop: serial (with loop metadata), or parallel on the thread pool.
  void forLoop(const tir::ForNode& f);

  /// The element count of `b` (overflow-checked: TIR text and passes build buffers too).
  int64_t bufferElements(const tir::BufferNode& b);

  /// Storage for an Allocate: on the stack when small, else a zeroed global
  /// (the generated code is single-threaded and not re-entrant per function).
  llvm::Value* scratch(const tir::BufferNode& b);

  /// A private global holding an AllocateConst's data.
  llvm::Value* constantData(const tir::BufferNode& b, const NDArray& data);

  /// Emits a statement.
  void exec(const tir::Stmt& s);
  /// A store, bools as a byte.
  void store(const tir::StoreNode& st);
  /// An assert: when the condition is false, calls kAssertFailSymbol with
  /// "@kernel: assert failed: <kind>: <message>" and returns from the
  /// function being emitted; otherwise runs the body.
  void assertion(const tir::AssertStmtNode& a);
  /// if/else (else optional) as basic blocks joining after it.
  void branch(const tir::IfThenElseNode& i);

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
  std::vector<std::string>* parallelDecisions_ = nullptr;
  int parallelDepth_ = 0;
  /// Scratch up to this size lives on the stack, larger is a zeroed global.
  static constexpr int64_t kStackScratchBytes = 64 * 1024;
  std::unordered_map<const tir::VarNode*, llvm::Value*> vars_;
  std::vector<BufferBinding> buffers_;
  std::unordered_map<const tir::VarNode*, size_t> dataVars_;
};

}  // namespace passlab::codegen
