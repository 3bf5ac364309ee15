// LegalizeOps in Relax form: on a module written in TVMScript (a Relax module),
// each op call becomes `R.call_tir(cls.<name>, ...)` of a private PrimFunc in
// block form, written and named the way TVM's Relax legalization (topi through
// te.create_prim_func) writes it: `add` with block "T_add", `relu` with block
// "compute", `conv2d` with "pad_temp" and "conv2d_nchw", `tir_exp`, ...
#pragma once

#include <map>
#include <string>

#include "core/ir/module.h"
#include "core/ir/tir.h"
#include "core/pass/pass.h"

namespace passlab {

/// True when `mod` is a Relax module: some graph-level function carries a
/// `global_symbol` (TVMScript gives one to every public function; Relay text
/// and ONNX imports never do). LegalizeOps then takes the Relax form.
bool isRelaxModule(const IRModule& mod);

/// True when `fn` can be legalized in Relax form: a function of a Relax module
/// without inner function literals (fused Primitive groups from the graph-level
/// FuseOps are lowered whole by the Relay form instead).
bool legalizeInRelaxForm(const IRModule& mod, const FunctionNode& fn);

/// Where the Relax-form remarks go (legalize.kernel, legalize.not-legalized).
struct RelaxLegalizeRemarks {
  PassContext& ctx;
  std::string pass;
  /// The global function being legalized.
  std::string function;
};

/// `body` with every op call that has a Relax-form legalization replaced by a
/// call_tir of a new private PrimFunc, added to `newFuncs` under TVM's name
/// (a structurally equal PrimFunc already made is reused, as TVM's
/// BlockBuilder does; other names get TVM's numeric suffix: add, add1, ...).
/// Ops without one are left as they are (the Relay-form lowering takes them).
/// With `remarks`, each op call gets a remark: the kernel made (or reused), or why none was.
Expr legalizeRelaxBody(const Expr& body, const IRModule& mod, std::map<std::string, Expr>& newFuncs,
                       const RelaxLegalizeRemarks* remarks = nullptr);

namespace legalize_relax {

/// One input of a kernel: a buffer parameter, or a rank-0 constant inlined as
/// an immediate (TVM's call_te inlines scalar constants the same way).
struct KernelInput {
  tir::Buffer buffer;
  tir::PrimExpr immediate;
};

/// A kernel: the PrimFunc's name hint (TVM's), its body and output buffer.
struct Kernel {
  std::string name;
  tir::Buffer output;
  tir::Stmt body;
};

/// A kernel of an op whose result is a tuple of tensors: `kernel.output` is
/// the first output, `moreOutputs` the others in order.
struct TupleKernel {
  Kernel kernel;
  std::vector<tir::Buffer> moreOutputs;
};

/// The block-form kernel of `call` (an op call whose argument types and result
/// type are static tensors), or no kernel when the op has no Relax-form
/// legalization in passlab yet.
std::optional<Kernel> buildKernel(const CallNode& call, const std::vector<KernelInput>& inputs, const TensorTypeNode& out);

/// The block-form kernel of `call` whose result is the tuple of static tensors
/// `outs` (nn.batch_norm's (out, moving_mean, moving_var)), or no kernel.
std::optional<TupleKernel> buildTupleKernel(const CallNode& call, const std::vector<KernelInput>& inputs,
                                       const std::vector<const TensorTypeNode*>& outs);

/// True when the kernel of `call` names some of its blocks after its inputs'
/// names (topi's reductions over an input `x`: block "x_red"), so calls that
/// differ only in their arguments' names get different PrimFuncs. Otherwise a
/// kernel is made of the op, its attributes, and its inputs' and outputs'
/// types, and LegalizeOps builds it once per such combination. A builder that
/// puts an input's name into a block's name is listed here.
bool kernelDependsOnInputNames(const CallNode& call);

}  // namespace legalize_relax

}  // namespace passlab
