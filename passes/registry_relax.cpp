#include "passes/registry_relax.h"

#include "passes/annotate_tir_op_pattern.h"
#include "passes/bind_params.h"
#include "passes/call_tir_rewrite.h"
#include "passes/canonicalize_bindings.h"
#include "passes/fuse_tir.h"
#include "passes/kill_after_last_use.h"
#include "passes/lower_alloc_tensor.h"
#include "passes/lower_runtime_builtin.h"
#include "passes/normalize.h"
#include "passes/static_plan_block_memory.h"

namespace passlab {

void addRelaxPasses(std::vector<PassRegistration>& table) {
  {
    PassRegistration r;
    r.info.name = "AnnotateTIROpPattern";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {0, 1, 2};
    r.info.description =
        "Sets op_pattern on every PrimFunc that has none: the fusion pattern its block-form body shows (TVM's "
        "AnalyzeOpPatternKind: elementwise, broadcast, injective, comm-reduce, out-ewise-fusable, opaque).";
    r.info.guarantees = "Every PrimFunc has an integer op_pattern attribute; nothing else changes.";
    r.create = [](const AttrDict&) { return createAnnotateTIROpPatternPass(); };
    table.push_back(std::move(r));
  }
  {
    using Kind = AttrValue::Kind;
    PassRegistration r;
    r.info.name = "BindParams";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {0, 1, 2};
    r.info.description =
        "Binds named parameters of one function to constants: they leave its signature and their uses read the "
        "constant. Values are given inline, as `BindParams{func_name=main,params=\"w=[[1,2],[3,4]];b=0.5\"}`: "
        "`name=value` entries separated by `;`, each value a number or nested list whose nesting is the parameter's "
        "static shape, stored in the parameter's dtype.";
    r.info.guarantees = "The bound parameters are gone from the function; every use reads its constant.";
    r.options = {
        {"func_name", Kind::String, AttrValue::string("main"), "the function whose parameters are bound"},
        {"params", Kind::String, AttrValue::string(""), "name=value entries separated by ';' (values: numbers or nested lists)"},
    };
    r.create = [](const AttrDict& options) {
      BindParamsOptions o;
      o.funcName = options.getString("func_name", "main");
      o.params = options.getString("params", "");
      return createBindParamsPass(o);
    };
    table.push_back(std::move(r));
  }
  {
    PassRegistration r;
    r.info.name = "CanonicalizeBindings";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {0, 1, 2};
    r.info.description =
        "Removes variable-to-variable bindings (y = x: uses of y read x); in a dataflow block an output bound to a "
        "dataflow variable takes over that variable's binding; empty dataflow blocks go.";
    r.info.guarantees = "No let or dataflow binding of one variable to another remains outside skipped functions.";
    r.create = [](const AttrDict&) { return createCanonicalizeBindingsPass(); };
    table.push_back(std::move(r));
  }
  {
    PassRegistration r;
    r.info.name = "CallTIRRewrite";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {2};
    r.info.description =
        "Gives every call_tir / call_dps_packed its outputs explicitly: R.builtin.alloc_tensor per output tensor, then "
        "a call of the PrimFunc (or R.call_packed) with inputs and outputs; the binding reads the allocation(s).";
    r.info.guarantees = "No call_tir or call_dps_packed remains in Relax functions outside skipped ones.";
    r.create = [](const AttrDict&) { return createCallTIRRewritePass(); };
    table.push_back(std::move(r));
  }
  {
    PassRegistration r;
    r.info.name = "StaticPlanBlockMemory";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {2};
    r.info.description =
        "TVM's static memory planning: static-shape R.builtin.alloc_tensor calls share storages (per dtype and scope, "
        "by size within 16x) once earlier tensors are past their last use; planned ones become R.memory.alloc_storage "
        "+ R.memory.alloc_tensor. Remarks (memplan.*) say why an allocation did or did not reuse a storage.";
    r.info.guarantees = "Every planned allocation lives in a storage no live tensor uses; returned tensors are not planned.";
    r.create = [](const AttrDict&) { return createStaticPlanBlockMemoryPass(); };
    table.push_back(std::move(r));
  }
  {
    PassRegistration r;
    r.info.name = "LowerAllocTensor";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {2};
    r.info.description =
        "Every R.builtin.alloc_tensor left after memory planning gets its own uint8 R.memory.alloc_storage and an "
        "R.memory.alloc_tensor at offset 0.";
    r.info.guarantees = "No R.builtin.alloc_tensor remains in Relax functions outside skipped ones.";
    r.create = [](const AttrDict&) { return createLowerAllocTensorPass(); };
    table.push_back(std::move(r));
  }
  {
    PassRegistration r;
    r.info.name = "KillAfterLastUse";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {2};
    r.info.description =
        "Removes trivial bindings, then frees each tensor, storage and VM object right after its last use "
        "(R.memory.kill_tensor / kill_storage, R.vm.kill_object); returned values are never killed.";
    r.info.guarantees = "Every value the function neither returns nor uses later is killed once, after its last use.";
    r.create = [](const AttrDict&) { return createKillAfterLastUsePass(); };
    table.push_back(std::move(r));
  }
  {
    PassRegistration r;
    r.info.name = "LowerRuntimeBuiltin";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {2};
    r.info.phaseAfter = 3;
    r.info.description =
        "TVM's LowerRuntimeBuiltin (formerly VMBuiltinLower) on Relax's memory ops: R.memory.* become R.vm.alloc_storage "
        "/ alloc_tensor / kill_object and R.reshape becomes R.call_packed(\"vm.builtin.reshape\"). Moves the module from "
        "phase 2 to phase 3. passlab's VMBuiltinLower is the one-step lowering `build` consumes.";
    r.info.guarantees = "No R.memory.* op and no R.reshape remains in Relax functions outside skipped ones; phase 3.";
    r.create = [](const AttrDict&) { return createLowerRuntimeBuiltinPass(); };
    table.push_back(std::move(r));
  }
  {
    PassRegistration r;
    r.info.name = "FuseTIR";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {2};
    r.info.description =
        "Merges the PrimFuncs of every fused group (a Primitive function of call_tir bindings from FuseOps) into one "
        "PrimFunc of the group's name; intermediate results become root-block allocations. Callers call it through "
        "call_tir.";
    r.info.guarantees =
        "No global Primitive function of call_tirs remains; each became a PrimFunc of the same name computing the same "
        "values; PrimFuncs only the groups called are removed.";
    r.create = [](const AttrDict&) { return createFuseTIRPass(); };
    table.push_back(std::move(r));
  }
  {
    PassRegistration r;
    r.info.name = "Normalize";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {0, 1, 2};
    r.info.description =
        "Puts functions in TVM's Relax normal form: an operand that is not a variable, constant, global, op or tuple "
        "(a nested call, a projection, an if) is bound to a fresh variable before its use, innermost first, in the "
        "enclosing block; a body or if branch ending in such a value binds it.";
    r.info.guarantees =
        "Call operands, tuple fields, projected tuples and if conditions are leaves or tuples; bodies end in one.";
    r.create = [](const AttrDict&) { return createNormalizePass(); };
    table.push_back(std::move(r));
  }
}

}  // namespace passlab
