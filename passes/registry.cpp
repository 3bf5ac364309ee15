#include "passes/registry.h"

#include <set>
#include <stdexcept>

#include "core/pass/scoped_pass.h"
#include "passes/annotate_target.h"
#include "passes/bind_target.h"
#include "passes/build_pipeline.h"
#include "passes/convert_layout.h"
#include "passes/dead_code.h"
#include "passes/defuse_ops.h"
#include "passes/eliminate_common_subexpr.h"
#include "passes/fold_constant.h"
#include "passes/fold_scale_axis.h"
#include "passes/fuse_ops.h"
#include "passes/infer_type.h"
#include "passes/inline.h"
#include "passes/inline_private_functions.h"
#include "passes/lambda_lifting.h"
#include "passes/legalize_ops.h"
#include "passes/registry_relax.h"
#include "passes/remove_purity_checking.h"
#include "passes/mark_compiler_functions_as_extern.h"
#include "passes/merge_compiler_regions.h"
#include "passes/outline_compiler_functions.h"
#include "passes/partition_graph.h"
#include "passes/plan_devices.h"
#include "passes/simplify_expr.h"
#include "passes/simplify_inference.h"
#include "passes/to_mixed_precision.h"
#include "passes/to_non_dataflow.h"
#include "passes/vm_builtin_lower.h"

namespace passlab {

namespace {

using Kind = AttrValue::Kind;

/// The strings of an array option (empty when the option is absent).
std::vector<std::string> strings(const AttrValue* array) {
  std::vector<std::string> out;
  if (!array) return out;
  for (const AttrValue& v : array->asArray()) out.push_back(v.kind() == Kind::String ? v.asString() : v.toString());
  return out;
}

AttrValue stringArray(const std::vector<std::string>& items) {
  std::vector<AttrValue> out;
  for (const std::string& s : items) out.push_back(AttrValue::string(s));
  return AttrValue::array(std::move(out));
}

/// The optimization passes of the FoldConstant/FuseOps/link_params scenario and
/// their companions (SimplifyInference, DefuseOps, ToMixedPrecision,
/// ConvertLayout, FoldScaleAxis), with TVM's opt levels.
void addOptimizationPasses(std::vector<PassRegistration>& table) {
  {
    PassRegistration r;
    r.info.name = "SimplifyInference";
    r.info.optLevel = 0;
    r.info.required = {"InferType"};
    r.info.acceptedPhases = {0, 1};
    r.info.description = "Rewrites nn.batch_norm (element 0) and nn.layer_norm in inference form into elementwise arithmetic.";
    r.info.guarantees =
        "No batch_norm(...).0 and no layer_norm remains outside skipped functions; every rewritten expression keeps its type.";
    r.create = [](const AttrDict&) { return createSimplifyInferencePass(); };
    table.push_back(std::move(r));
  }
  {
    PassRegistration r;
    r.info.name = "FoldConstant";
    r.info.optLevel = 2;
    r.info.required = {"InferType"};
    r.info.acceptedPhases = {0, 1, 2};  // 2: call_tir of constants, as TVM's zero pipeline folds after LegalizeOps
    r.info.description =
        "Evaluates constant subexpressions (a nested InferType,FuseOps pipeline in a clean CPU child context, then the "
        "interpreter; a call_tir of constants runs its PrimFunc on the TIR interpreter); folds shape_of from static "
        "types, constant lets, tuple projections and constant ifs.";
    r.info.guarantees =
        "No call with only constant arguments remains outside Primitive functions, except zero-argument, stateful and "
        "later-phase calls; values are exactly what the interpreter computes.";
    r.configKeys = {{kFoldConstantLeakKey, Kind::Bool, AttrValue::boolean(false),
                     "teaching switch: the evaluation module inherits the module's executor attribute (TVM's historical "
                     "leak), so the nested FuseOps reads link-params from the module while its own context is clean CPU"},
                    {kFoldConstantMaxBytesKey, Kind::Int, AttrValue::integer(kFoldConstantDefaultMaxBytes),
                     "largest value (in bytes) FoldConstant computes: a constant subexpression with a result or an "
                     "intermediate value larger than this stays unfolded, and the event's diagnostics say so",
                     0}};
    r.create = [](const AttrDict&) { return createFoldConstantPass(); };
    table.push_back(std::move(r));
  }
  {
    FuseOpsOptions defaults;
    PassRegistration r;
    r.info.name = "FuseOps";
    r.info.optLevel = 0;
    r.info.required = {"InferType"};
    r.info.acceptedPhases = {0, 1, 2};  // 2: the Relax form, over call_tir after LegalizeOps
    r.info.description =
        "Groups op calls by fusion pattern (post-dominator rules of TVM) into Primitive=1 functions called in place; "
        "link_params decides whether constants stay inline.";
    r.info.guarantees =
        "Every fusible op call outside skipped functions is inside a Primitive function; no group exceeds "
        "relay.FuseOps.max_depth nodes; without link_params no fused function holds a non-scalar constant.";
    r.options = {{"fuse_opt_level", Kind::Int, AttrValue::integer(defaults.fuseOptLevel),
                  "fusion level: -1 takes the context's opt_level; 0 wraps every op alone", -1, 4}};
    r.configKeys = {
        {kFuseOpsMaxDepthKey, Kind::Int, AttrValue::integer(256), "maximum number of ops fused into one function", 1},
        {kFuseOpsLinkParamsKey, Kind::Bool, AttrValue::boolean(false),
         "keep constants inline in fused functions (else they become parameters); when not set, the module's executor "
         "link-params, then the target's -link-params decide"},
    };
    r.create = [](const AttrDict& options) {
      FuseOpsOptions o;
      o.fuseOptLevel = static_cast<int>(options.getInt("fuse_opt_level", -1));
      return createFuseOpsPass(o);
    };
    table.push_back(std::move(r));
  }
  {
    PassRegistration r;
    r.info.name = "DefuseOps";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {0, 1};
    r.info.description = "Inlines every call to a Primitive function literal: the inverse of FuseOps.";
    r.info.guarantees = "No call to a Primitive function literal remains outside skipped functions.";
    r.create = [](const AttrDict&) { return createDefuseOpsPass(); };
    table.push_back(std::move(r));
  }
  {
    ToMixedPrecisionOptions defaults;
    PassRegistration r;
    r.info.name = "ToMixedPrecision";
    r.info.optLevel = 0;
    r.info.required = {"InferType"};
    r.info.acceptedPhases = {0, 1};
    r.info.description =
        "Computes float32 graphs in float16 by TVM's always/follow/never op lists; float32 constants become float16 constants.";
    r.info.guarantees =
        "Always-list ops compute in float16 (accumulating in relay.ToMixedPrecision.accumulation_dtype); never-list ops "
        "see only float32; function parameters keep their types.";
    r.options = {{"mixed_precision_type", Kind::String, AttrValue::string(defaults.mixedPrecisionType),
                  "the reduced floating-point type (float16)"},
                 {"out_dtype", Kind::String, AttrValue::string(defaults.outDtype),
                  "Relax form: accumulation dtype of conv2d/matmul (TVM's relax ToMixedPrecision out_dtype)"}};
    r.configKeys = {
        {kKeepOrigOutputDtypeKey, Kind::Bool, AttrValue::boolean(false), "cast @main's result back to its original dtype"},
        {kAccumulationDtypeKey, Kind::String, AttrValue::string("float16"),
         "accumulation dtype (out_dtype) of conv2d/dense/matmul in float16; float32 accumulates wide and casts the result"},
    };
    r.create = [](const AttrDict& options) {
      ToMixedPrecisionOptions o;
      o.mixedPrecisionType = options.getString("mixed_precision_type", "float16");
      o.outDtype = options.getString("out_dtype", "float32");
      return createToMixedPrecisionPass(o);
    };
    table.push_back(std::move(r));
  }
  {
    ConvertLayoutOptions defaults;
    PassRegistration r;
    r.info.name = "ConvertLayout";
    r.info.optLevel = 3;
    r.info.required = {"InferType"};
    r.info.acceptedPhases = {0, 1};
    r.info.description =
        "Converts nn.conv2d to the desired data/kernel layouts, inserting layout_transform where needed and "
        "propagating the layout through layout-agnostic ops.";
    r.info.guarantees =
        "Every ungrouped NCHW/NHWC conv2d uses the desired layouts; function signatures and results are unchanged.";
    r.options = {
        {"data_layout", Kind::String, AttrValue::string(defaults.dataLayout), "desired conv2d data layout: NCHW or NHWC"},
        {"kernel_layout", Kind::String, AttrValue::string(defaults.kernelLayout),
         "desired conv2d kernel layout: OIHW, HWIO, OHWI or default"},
        {"desired_layouts", Kind::Dict, AttrValue::dict(AttrDict{}),
         "TVM's form: {nn.conv2d=[DATA,KERNEL]} (or relax.nn.conv2d); replaces data_layout/kernel_layout"},
    };
    r.create = [](const AttrDict& options) {
      ConvertLayoutOptions o;
      o.dataLayout = options.getString("data_layout", "NHWC");
      o.kernelLayout = options.getString("kernel_layout", "default");
      if (const AttrValue* desired = options.find("desired_layouts"); desired && desired->kind() == Kind::Dict)
        applyDesiredLayouts(desired->asDict(), o);
      return createConvertLayoutPass(o);
    };
    table.push_back(std::move(r));
  }
  {
    PassRegistration r;
    r.info.name = "FoldScaleAxis";
    r.info.optLevel = 3;
    r.info.required = {"InferType"};
    r.info.acceptedPhases = {0, 1};
    r.info.description =
        "Folds a per-channel constant multiply after (backward) or before (forward) conv2d/dense into the weights.";
    r.info.guarantees = "Every folded multiply is gone; the weights carry the scale as multiply(w, constant).";
    r.create = [](const AttrDict&) { return createFoldScaleAxisPass(); };
    table.push_back(std::move(r));
  }
}

/// BYOC: annotation, region merging and partitioning for external codegens
/// (passes/external_codegen.h), then the outlining and extern marking of
/// apache/tvm#11474 (seeds 001 and 003).
void addByocPasses(std::vector<PassRegistration>& table) {
  {
    PassRegistration r;
    r.info.name = "AnnotateTarget";
    r.info.optLevel = 0;
    r.info.required = {"InferType"};
    r.info.acceptedPhases = {0, 1};
    r.info.description =
        "Marks each op call an external codegen takes (alone or in one of its composite patterns) as a one-op "
        "compiler region: a call to a function literal with Compiler=\"<codegen>\".";
    r.info.guarantees =
        "Every op call outside skipped functions and nested function literals that a listed codegen supports is "
        "inside a region of the first such codegen; types are unchanged.";
    r.options = {{"compilers", Kind::Array, stringArray(AnnotateTargetOptions{}.compilers),
                  "external codegens to offload to, in priority order"}};
    r.create = [](const AttrDict& options) {
      AnnotateTargetOptions o;
      if (options.contains("compilers")) o.compilers = strings(options.find("compilers"));
      return createAnnotateTargetPass(o);
    };
    table.push_back(std::move(r));
  }
  {
    PassRegistration r;
    r.info.name = "MergeCompilerRegions";
    r.info.optLevel = 0;
    r.info.required = {"AnnotateTarget"};
    r.info.acceptedPhases = {0, 1};
    r.info.description =
        "Merges a compiler region into the region of the same codegen that consumes it when it has no other user.";
    r.info.guarantees =
        "No region has an argument that is a single-use region of the same codegen; every region has one output, "
        "so no merge creates a cycle through the main compiler's ops.";
    r.create = [](const AttrDict&) { return createMergeCompilerRegionsPass(); };
    table.push_back(std::move(r));
  }
  {
    PassRegistration r;
    r.info.name = "PartitionGraph";
    r.info.optLevel = 0;
    r.info.required = {"AnnotateTarget"};
    r.info.acceptedPhases = {0, 1};
    r.info.description =
        "Lifts every compiler region to a global @tvmgen_default_<codegen>_main_<k> with Compiler, Primitive=1, "
        "Inline=1 and global_symbol; composite patterns inside become Composite functions.";
    r.info.guarantees =
        "No compiler region without a global_symbol remains; each partition is called in place with the region's "
        "arguments and the module type-checks.";
    r.create = [](const AttrDict&) { return createPartitionGraphPass(); };
    table.push_back(std::move(r));
  }
  {
    PassRegistration r;
    r.info.name = "OutlineCompilerFunctions";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {0, 1};
    r.info.description =
        "Lifts function literals carrying Compiler (inlined partitions) back to globals; structurally equal ones "
        "share one global (a cache keyed by structural hash).";
    r.info.guarantees =
        "No call to a Compiler function literal remains outside skipped functions; attributes, Inline=1 included, "
        "are kept; structurally equal functions (global_symbol aside) have one global.";
    r.options = {{"compiler", Kind::String, AttrValue::string(""), "only functions of this codegen (empty: all)"}};
    r.create = [](const AttrDict& options) {
      OutlineCompilerFunctionsOptions o;
      o.compiler = options.getString("compiler", "");
      return createOutlineCompilerFunctionsPass(o);
    };
    table.push_back(std::move(r));
  }
  {
    PassRegistration r;
    r.info.name = "MarkCompilerFunctionsAsExtern";
    r.info.optLevel = 0;
    r.info.required = {"OutlineCompilerFunctions"};
    r.info.acceptedPhases = {0, 1};
    r.info.description =
        "Turns every global Compiler function (compiled by its codegen by now) into an Extern=1 stub with every "
        "other attribute dropped.";
    r.info.guarantees = "No global function of the codegen keeps Compiler, Primitive, Inline or global_symbol; each has Extern=1.";
    r.options = {{"compiler", Kind::String, AttrValue::string(""), "only functions of this codegen (empty: all)"}};
    r.create = [](const AttrDict& options) {
      MarkCompilerFunctionsAsExternOptions o;
      o.compiler = options.getString("compiler", "");
      return createMarkCompilerFunctionsAsExternPass(o);
    };
    table.push_back(std::move(r));
  }
}

/// Gives a function-level pass the `compiler` option (docs/pipelines.md,
/// "Scoped passes"): set, the pass runs only on that codegen's functions.
void addCompilerScope(PassRegistration& r) {
  r.options.insert(r.options.begin(), PassOptionInfo{"compiler", Kind::String, AttrValue::string(""),
                                                     "run only on the functions with this Compiler attribute (empty: "
                                                     "every function but Compiler ones, which are skipped)"});
  r.create = [inner = std::move(r.create)](const AttrDict& options) {
    std::string compiler = options.getString("compiler", "");
    AttrDict rest;
    for (const auto& [key, value] : options.entries())
      if (key != "compiler") rest.set(key, value);
    PassPtr pass = inner(rest);
    return compiler.empty() ? pass : scopeToCompiler(std::move(pass), std::move(compiler));
  };
}

/// The passes of the phase machinery (seed 002): the transitions LambdaLifting
/// (0 -> 1) and VMBuiltinLower (2 -> 3), and the lowering passes between them.
/// LegalizeOps (1 -> 2) comes with the TIR work.
void addPhasePasses(std::vector<PassRegistration>& table) {
  {
    PassRegistration r;
    r.info.name = "LambdaLifting";
    r.aliases = {"LambdaLift"};
    r.info.optLevel = 0;
    r.info.acceptedPhases = {0};
    r.info.phaseAfter = 1;
    r.info.description =
        "Lifts every inner function (except those with a Compiler attribute) to a new global; captured variables "
        "become leading parameters. Moves the module from phase 0 to phase 1.";
    r.info.guarantees =
        "No inner function remains outside Compiler functions; the module is in phase 1. A capturing function used "
        "as a value is an error (no closures).";
    r.create = [](const AttrDict&) { return createLambdaLiftingPass(); };
    table.push_back(std::move(r));
  }
  {
    PassRegistration r;
    r.info.name = "ToNonDataflow";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {0, 1, 2};
    r.info.description = "Turns every dataflow block into a chain of let bindings; dataflow variables become ordinary ones.";
    r.info.guarantees = "No dataflow block and no dataflow variable remains outside skipped functions.";
    r.create = [](const AttrDict&) { return createToNonDataflowPass(); };
    table.push_back(std::move(r));
  }
  {
    PassRegistration r;
    r.info.name = "RemovePurityChecking";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {2};
    r.info.description =
        "Marks every function not marked impure (is_pure=0) force-pure (force_pure=1; on a Relax module TVM's "
        "relax.force_pure=True) and unwraps call_pure_packed / "
        "invoke_pure_closure into plain calls.";
    r.info.guarantees = "Every graph-level function outside skipped ones is impure or force-pure; no purity wrapper remains.";
    r.create = [](const AttrDict&) { return createRemovePurityCheckingPass(); };
    table.push_back(std::move(r));
  }
  {
    PassRegistration r;
    r.info.name = "VMBuiltinLower";
    r.info.optLevel = 0;
    r.info.required = {"ToNonDataflow", "RemovePurityChecking"};
    r.info.acceptedPhases = {2};
    r.info.phaseAfter = 3;
    r.info.description =
        "Lowers call_tir / call_dps_packed to vm.builtin.alloc_storage + vm.builtin.alloc_tensor + vm.builtin.call_tir "
        "(or a plain packed call) and puts function bodies in A-normal form. Moves the module from phase 2 to phase 3.";
    r.info.guarantees =
        "No call_tir or call_dps_packed remains outside skipped functions; bodies are let chains with atomic operands; "
        "the module is in phase 3.";
    r.create = [](const AttrDict&) { return createVMBuiltinLowerPass(); };
    table.push_back(std::move(r));
  }
}

/// Device planning (seed 004, TVM's heterogeneous execution): PlanDevices.
void addDevicePasses(std::vector<PassRegistration>& table) {
  PassRegistration r;
  r.info.name = "PlanDevices";
  r.info.optLevel = 0;
  r.info.required = {"InferType"};
  r.info.acceptedPhases = {0, 1};
  r.info.description =
      "Decides the virtual device of every value from on_device and device_copy annotations, parameter and function "
      "virtual_device annotations and the targets of called functions; inserts device_copy where a value crosses "
      "devices. Every decision is recorded with the annotation or target that made it.";
  r.info.guarantees =
      "Every parameter of a planned function has a virtual_device and every planned function a virtual_device "
      "attribute; every on_device has constrain_result=True; a value used on another device than its own goes through "
      "device_copy; the virtual_devices table holds every device referenced. Idempotent.";
  r.configKeys = {{kFallbackDeviceTypeKey, Kind::Int, AttrValue::integer(1),
                   "DLPack device type of the default device (1 cpu, 2 cuda, 16 hexagon); when not set, the context "
                   "target's kind decides, else cpu", 1, 17}};
  r.create = [](const AttrDict&) { return createPlanDevicesPass(); };
  table.push_back(std::move(r));
}

/// The lowering passes of the TIR work (seeds 000 and 004): LegalizeOps
/// (1 -> 2), BindTarget and InlinePrivateFunctions.
void addLoweringPasses(std::vector<PassRegistration>& table) {
  {
    PassRegistration r;
    r.info.name = "LegalizeOps";
    r.info.optLevel = 0;
    r.info.required = {"InferType"};
    r.info.acceptedPhases = {1};
    r.info.phaseAfter = 2;
    r.info.description =
        "Lowers every op call, and every fused Primitive function as a whole, to a PrimFunc (a loop nest over buffers, "
        "scheduled for the target) called through call_tir; link_params embeds constants in the PrimFuncs. Moves the "
        "module from phase 1 to phase 2.";
    r.info.guarantees =
        "No op call remains outside skipped functions except the lowering builtins; every PrimFunc computes what the "
        "reference kernel computes; with link_params every non-scalar constant of a lowered call is an allocate_const "
        "with its exact bits, without it a call_tir argument; no on_device remains; every call of an Extern function "
        "is a call_lowered; the module is in phase 2.";
    r.configKeys = {{kLegalizeCallFormKey, Kind::String, AttrValue::string("call_tir"),
                     "how lowered PrimFuncs are called: \"call_tir\" (Relax's destination-passing call, out_shape and "
                     "out_dtype given) or \"call_lowered\" (TVM Relay's TE-compiler form; outputs from the PrimFunc's "
                     "signature)"}};
    r.create = [](const AttrDict&) { return createLegalizeOpsPass(); };
    table.push_back(std::move(r));
  }
  {
    PassRegistration r;
    r.info.name = "BindTarget";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {0, 1, 2, 3};  // attributes only: meaningful in every phase
    r.info.description =
        "Sets the target attribute of every function that has none; a function with another target keeps it "
        "(warning bind-target.conflict).";
    r.info.guarantees = "Every PrimFunc and non-external function has a target; no existing target attribute changed.";
    r.options = {{"target", Kind::String, AttrValue::string(""), "target to bind (TVM style); empty takes the context's target"}};
    r.create = [](const AttrDict& options) {
      BindTargetOptions o;
      o.target = options.getString("target", "");
      return createBindTargetPass(o);
    };
    table.push_back(std::move(r));
  }
  {
    PassRegistration r;
    r.info.name = "InlinePrivateFunctions";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {0, 1, 2, 3};  // PrimFuncs can be written by hand in any phase
    r.info.required = {"BindTarget"};
    r.info.description =
        "Inlines calls of private PrimFuncs (no global_symbol) into callers whose target's code generator cannot emit "
        "calls, and removes the subroutines left unused.";
    r.info.guarantees =
        "No PrimFunc whose target kind is in tir.InlinePrivateFunctions.targets_without_calls calls a private PrimFunc; "
        "callers on other targets are unchanged.";
    std::vector<AttrValue> kinds;
    for (const std::string& k : defaultTargetsWithoutCalls()) kinds.push_back(AttrValue::string(k));
    r.configKeys = {{kTargetsWithoutCallsKey, Kind::Array, AttrValue::array(kinds),
                     "target kinds whose code generator cannot emit calls between PrimFuncs"}};
    r.create = [](const AttrDict&) { return createInlinePrivateFunctionsPass(); };
    table.push_back(std::move(r));
  }
}

/// The table. Phases: 0 ingestion, 1 optimization, 2 lowering, 3 build.
const std::vector<PassRegistration>& builtinTable() {
  static const std::vector<PassRegistration> kTable = [] {
    std::vector<PassRegistration> table;

    {
      PassRegistration r;
      r.info.name = "InferType";
      r.info.optLevel = 0;
      r.info.acceptedPhases = {0, 1, 2, 3};
      r.info.description = "Infers the type of every expression of every graph-level function.";
      r.info.guarantees = "Every expression of every graph-level function has a checked type; the module object is returned as is.";
      r.create = [](const AttrDict&) { return createInferTypePass(); };
      table.push_back(std::move(r));
    }
    {
      DeadCodeEliminationOptions defaults;
      PassRegistration r;
      r.info.name = "DeadCodeElimination";
      r.info.optLevel = 1;
      r.info.acceptedPhases = {0, 1, 2};
      r.info.description =
          "Removes let and dataflow bindings whose variable is unused and whose value is pure. On a Relax module "
          "(TVMScript), as TVM's Relax DCE, public functions are entries too and unreachable private functions go.";
      r.info.guarantees =
          "No unused pure binding remains; functions with nothing to remove are unchanged (same pointer). "
          "With remove_unused_functions, every global is reachable from an entry function.";
      r.options = {
          {"remove_unused_functions", Kind::Bool, AttrValue::boolean(defaults.removeUnusedFunctions),
           "also remove global functions no entry function reaches"},
          {"entry_functions", Kind::Array, stringArray(defaults.entryFunctions), "roots kept by remove_unused_functions"},
      };
      r.create = [](const AttrDict& options) {
        DeadCodeEliminationOptions o;
        o.removeUnusedFunctions = options.getBool("remove_unused_functions");
        if (options.contains("entry_functions")) o.entryFunctions = strings(options.find("entry_functions"));
        return createDeadCodeEliminationPass(o);
      };
      table.push_back(std::move(r));
    }
    {
      PassRegistration r;
      r.info.name = "SimplifyExpr";
      r.info.optLevel = 0;
      r.info.required = {"InferType"};
      r.info.acceptedPhases = {0, 1};
      r.info.description =
          "Algebraic identities that keep the type: x*1, x+0, x-0, x/1, reshape of reshape, transpose of transpose, "
          "cast to the same dtype, double negation, relu of relu.";
      r.info.guarantees = "Every rewritten expression has exactly the type of the one it replaces.";
      std::string rules;
      for (const std::string& rule : simplifyExprRuleNames()) rules += (rules.empty() ? "" : ", ") + rule;
      r.options = {{"disabled_rules", Kind::Array, AttrValue::array({}), "rule families not to apply: " + rules}};
      r.create = [](const AttrDict& options) {
        SimplifyExprOptions o;
        o.disabledRules = strings(options.find("disabled_rules"));
        return createSimplifyExprPass(o);
      };
      table.push_back(std::move(r));
    }
    {
      PassRegistration r;
      r.info.name = "Inline";
      r.info.optLevel = 1;
      r.info.acceptedPhases = {0, 1};
      r.info.description = "Inlines calls to global functions marked Inline=1 and removes those left unused.";
      r.info.guarantees = "No call to a global function with a non-zero Inline attribute remains outside skipped functions.";
      r.create = [](const AttrDict&) { return createInlinePass(); };
      table.push_back(std::move(r));
    }
    {
      PassRegistration r;
      r.info.name = "EliminateCommonSubexpr";
      r.info.optLevel = 3;
      r.info.acceptedPhases = {0, 1};
      r.info.description = "Merges repeated pure op calls with equal attributes and identical arguments.";
      r.info.guarantees = "No two pure op calls in one scope have the same op, attributes and argument nodes; stateful ops are untouched.";
      r.options = {{"skip_ops", Kind::Array, AttrValue::array({}), "op names never merged (besides stateful ops)"}};
      r.create = [](const AttrDict& options) {
        EliminateCommonSubexprOptions o;
        o.skipOps = strings(options.find("skip_ops"));
        return createEliminateCommonSubexprPass(o);
      };
      table.push_back(std::move(r));
    }
    addOptimizationPasses(table);
    addPhasePasses(table);
    addByocPasses(table);
    addDevicePasses(table);
    addLoweringPasses(table);
    addRelaxPasses(table);
    // Function-level passes can be scoped to one external codegen's functions.
    const std::set<std::string> functionLevel = {"SimplifyExpr",     "DeadCodeElimination", "EliminateCommonSubexpr",
                                                 "SimplifyInference", "FoldConstant",        "FuseOps",
                                                 "DefuseOps",         "ToMixedPrecision",    "ConvertLayout",
                                                 "FoldScaleAxis"};
    for (PassRegistration& r : table)
      if (functionLevel.count(r.info.name)) addCompilerScope(r);
    return table;
  }();
  return kTable;
}

}  // namespace

void registerBuiltinPasses(PassRegistry& registry) {
  for (const PassRegistration& r : builtinTable()) registry.add(r);
  for (const NamedPipeline& p : builtinNamedPipelines()) registry.addPipeline(p);
}

const PassInfo& builtinPassInfo(std::string_view name) {
  for (const PassRegistration& r : builtinTable())
    if (r.info.name == name) return r.info;
  throw std::out_of_range("no built-in pass named '" + std::string(name) + "'");
}

}  // namespace passlab
