// Pass remarks: the API (recorded on the event, nested runs included, nothing
// recorded when off), one small module per rule with the exact remark and the
// nodes it names, the queries the faces use, and docs/remarks.md.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "core/analysis/type_infer.h"
#include "core/pass/remark_rules.h"
#include "core/trace/trace_json.h"
#include "core/workbench/remarks.h"
#include "passes/fold_constant.h"
#include "passes/fuse_ops.h"
#include "repl/format_remarks.h"
#include "tests/opt_test_util.h"

using namespace passlab;
using namespace passlab::testing;

namespace {

/// Every remark of the events of `pass` (any depth) as
/// "rule [node node]: message", nodes named as the event's `before` prints them.
std::vector<std::string> remarksOf(const PipelineRun& run, const std::string& pass, const std::string& rulePrefix = "") {
  std::vector<std::string> out;
  for (const TraceEvent* e : run.events(pass)) {
    RemarkNodeIndex index(e->before, PrintOptions{});
    for (const Remark& r : e->remarks) {
      if (!rulePrefix.empty() && r.ruleId().substr(0, rulePrefix.size()) != rulePrefix) continue;
      std::string nodes;
      for (const Expr& n : r.nodes) nodes += (nodes.empty() ? "" : " ") + index.name(n);
      out.push_back(std::string(r.ruleId()) + " [" + nodes + "]: " + r.message);
    }
  }
  return out;
}

struct Case {
  const char* name;
  const char* module;
  const char* pipeline;
  const char* pass;
  /// Only remarks whose rule starts with this.
  const char* rule;
  std::vector<std::string> expected;
};

}  // namespace

TEST_CASE("Remarks: nothing is recorded while they are off", "[remarks]") {
  PipelineRun r;
  REQUIRE_FALSE(r.ctx->remarksEnabled());
  r.run("InferType,FoldConstant,FuseOps", parse(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(4), float32]) {
  %0 = add(const(Tensor[(4), float32], [1, 2, 3, 4]), 1f);
  %1 = nn.conv2d(reshape(%x, newshape=[1, 1, 2, 2]), ones(shape=[1, 1, 1, 1], dtype="float32"), channels=1, kernel_size=[1, 1]);
  add(reshape(%1, newshape=[4]), %0)
}
)"));
  for (const TraceEvent& e : r.trace->events()) CHECK(e.remarks.empty());
}

TEST_CASE("Remarks: the rule vocabulary is defined once, with unique ids and descriptions", "[remarks]") {
  std::set<std::string_view> ids;
  for (const RemarkRuleInfo& info : allRemarkRules()) {
    CHECK(ids.insert(info.id).second);
    CHECK(&remarkRuleInfo(info.rule) == &info);
    CHECK(findRemarkRule(info.id) == info.rule);
    CHECK_FALSE(info.description.empty());
    CHECK(builtinRegistry().find(std::string(info.pass)));
  }
  CHECK_FALSE(findRemarkRule("fuse.no-such-rule"));
  for (RemarkKind k : {RemarkKind::Applied, RemarkKind::Missed, RemarkKind::Analysis})
    CHECK(parseRemarkKind(remarkKindName(k)) == k);
}

TEST_CASE("Remarks: one module per rule, with the exact remark and its nodes", "[remarks][fuse-ops][fold-constant]") {
  const Case c = GENERATE(values<Case>({
      {"two OutEWiseFusable ops", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 1, 4, 4), float32], %w: Tensor[(1, 1, 1, 1), float32]) {
  %0 = nn.conv2d(%x, %w, channels=1, kernel_size=[1, 1]);
  nn.max_pool2d(%0, pool_size=[2, 2], strides=[2, 2])
}
)",
       "InferType,FuseOps", "FuseOps", "fuse.pattern",
       {"fuse.pattern-boundary [%0 nn.max_pool2d]: nn.conv2d (OutEWiseFusable) → nn.max_pool2d (OutEWiseFusable): two OutEWiseFusable "
        "ops never share a group"}},
      {"a diamond through a convolution", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 1, 4, 4), float32], %w: Tensor[(1, 1, 1, 1), float32]) {
  %0 = exp(%x);
  %1 = nn.conv2d(%0, %w, channels=1, kernel_size=[1, 1]);
  %2 = nn.relu(%0);
  add(%1, %2)
}
)",
       "InferType,FuseOps", "FuseOps", "fuse.fan-out",
       {"fuse.fan-out [%0 %1 %2]: exp (ElemWise) → nn.conv2d (OutEWiseFusable), nn.relu (ElemWise): ElemWise ops fuse "
        "into their post-dominator only along a path that is at most Injective (or ends in a CommReduce); the path to add "
        "is OutEWiseFusable"}},
      {"max_depth", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(4), float32]) {
  %0 = exp(%x);
  %1 = nn.relu(%0);
  negative(%1)
}
)",
       "InferType,FuseOps", "FuseOps", "fuse.max-depth",
       {"fuse.max-depth [%1 negative]: nn.relu (ElemWise) → negative (ElemWise): joining negative's group would make 3 nodes, more "
        "than relay.FuseOps.max_depth = 2"}},
      {"a reduction", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(2, 4), float32]) {
  %0 = mean(%x, axis=[1]);
  multiply(%0, 2f)
}
)",
       "InferType,FuseOps", "FuseOps", "fuse.reduction",
       {"fuse.reduction [%0 multiply]: mean (CommReduce) → multiply (Broadcast): a CommReduce op never fuses into its consumer (its "
        "inputs fuse into it)"}},
      {"an opaque op", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(2, 4), float32], %g: Tensor[(4), float32], %b: Tensor[(4), float32]) {
  %0 = nn.layer_norm(%x, %g, %b);
  nn.relu(%0)
}
)",
       "InferType,FuseOps", "FuseOps", "fuse.opaque",
       {"fuse.opaque [%0 nn.relu]: nn.layer_norm (Opaque) → nn.relu (ElemWise): nn.layer_norm is Opaque: it is never fused with "
        "anything"}},
      {"fusion opt level 0", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(4), float32]) {
  %0 = exp(%x);
  nn.relu(%0)
}
)",
       "InferType,FuseOps{fuse_opt_level=0}", "FuseOps", "fuse.opt",
       {"fuse.opt-level [%0 nn.relu]: exp (ElemWise) → nn.relu (ElemWise): fusion opt level 0: every op call is a group of its own"}},
      {"a group and the summary", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(4), float32]) {
  %0 = exp(%x);
  nn.relu(%0)
}
)",
       "InferType,FuseOps", "FuseOps", "",
       {"fuse.group [%0 nn.relu]: fused 2 ops into one Primitive function: exp → nn.relu (group pattern ElemWise)",
        "fuse.summary []: 1 group from 2 calls at fusion opt level 3 (relay.FuseOps.max_depth = 256, link_params off: "
        "constants become parameters)"}},
      {"a Compiler function", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(4), float32]) {
  %0 = fn (%a: Tensor[(4), float32], Compiler="ccompiler") {
    add(%a, %a)
  };
  %1 = %0(%x);
  nn.relu(%1)
}
)",
       "InferType,FuseOps", "FuseOps", "fuse.compiler",
       {"fuse.compiler-function [%0]: fn with Compiler=\"ccompiler\" is left to its external codegen: its ops are not fused"}},
      {"folded", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(2), float32]) {
  %0 = add(const(Tensor[(2), float32], [1, 2]), 1f);
  multiply(%x, %0)
}
)",
       "InferType,FoldConstant", "FoldConstant", "fold.folded",
       {"fold.folded [%0]: folded add (1 calls) into a constant Tensor[(2), float32]"}},
      {"depends on a parameter", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(2), float32]) {
  %0 = exp(%x);
  multiply(%0, const(Tensor[(2), float32], [1, 2]))
}
)",
       "InferType,FoldConstant", "FoldConstant", "fold.",
       {"fold.depends-on-param [multiply %0]: not folded: multiply depends on parameter %x"}},
      {"too large", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(2), float32]) {
  %0 = add(const(Tensor[(2), float32], [1, 2]), 1f);
  multiply(%x, %0)
}
)",
       "InferType,FoldConstant", "FoldConstant", "fold.too",
       {"fold.too-large [%0]: not folded: add computes a value of 8 bytes, more than relay.FoldConstant.max_value_bytes = 4"}},
      {"inside a Primitive function", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(2), float32]) {
  %0 = fn (%p: Tensor[(2), float32], Primitive=1) {
    multiply(%p, add(2f, 1f))
  };
  %0(%x)
}
)",
       "InferType,FoldConstant", "FoldConstant", "fold.",
       {"fold.inside-primitive [%1]: not entered: a Primitive function (already fused) is left as it is"}},
      {"mixed precision: ALWAYS, FOLLOW and NEVER", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 4), float32], %w: Tensor[(4, 4), float32]) {
  %0 = nn.dense(%x, %w, units=4);
  %1 = nn.relu(%0);
  %2 = exp(%1);
  add(%2, %x)
}
)",
       "InferType,ToMixedPrecision", "ToMixedPrecision", "amp.",
       {"amp.always [%0]: nn.dense computed in float16 (ALWAYS list), accumulating in float16",
        "amp.follow [%1]: nn.relu computed in float16: a FOLLOW op whose inputs are all float16",
        "amp.never-list [%2]: kept float32: exp is on the NEVER list",
        "amp.follow-kept [add]: kept float32: add is on the FOLLOW list and exp is float32"}},
      {"layout: converted, and an op that cannot follow", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 2, 4, 4), float32], %w: Tensor[(2, 2, 1, 1), float32], %g: Tensor[(2, 1, 1, 1), float32]) {
  %0 = nn.conv2d(%x, %w, channels=2, kernel_size=[1, 1]);
  %1 = nn.conv2d(%0, %g, channels=2, kernel_size=[1, 1], groups=2);
  reshape(%1, newshape=[1, 32])
}
)",
       "InferType,ConvertLayout{data_layout=NHWC}", "ConvertLayout", "layout.",
       {"layout.converted [%0]: nn.conv2d converted from NCHW/OIHW to NHWC/HWIO",
        "layout.unsupported [%1]: nn.conv2d kept in NCHW: groups = 2 (grouped)"}},
      {"byoc: taken, refused, not an op of the codegen", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 2, 4, 4), float32], %w: Tensor[(2, 2, 1, 1), float32]) {
  %0 = nn.conv2d(%x, %w, channels=2, kernel_size=[1, 1], strides=[2, 2]);
  %1 = add(%0, %0);
  exp(%1)
}
)",
       "InferType,AnnotateTarget", "AnnotateTarget", "byoc.",
       {"byoc.refused [%0]: nn.conv2d stays with the main compiler: ccompiler refuses this call (strided conv2d)",
        "byoc.taken [%1]: add given to ccompiler",
        "byoc.op-unsupported [exp]: exp stays with the main compiler: not an op of ccompiler"}},
      {"byoc: merged and partitioned", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(4), float32]) {
  %0 = add(%x, %x);
  %1 = multiply(%0, %0);
  exp(%1)
}
)",
       "InferType,AnnotateTarget,MergeCompilerRegions,PartitionGraph", "MergeCompilerRegions", "byoc.",
       {"byoc.merged [%1 %3]: the ccompiler region merged into its consumer's ccompiler region"}},
      {"inline: inlined and not marked", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(4), float32]) {
  %0 = @double(%x);
  @keep(%0)
}

def @double(%a: Tensor[(4), float32], Inline=1) {
  add(%a, %a)
}

def @keep(%a: Tensor[(4), float32]) {
  exp(%a)
}
)",
       "InferType,Inline", "Inline", "inline.",
       {"inline.inlined [%0]: @double inlined (marked Inline)",
        "inline.not-marked [@keep]: call to @keep kept: @keep is not marked Inline (or is an Extern stub)"}},
      {"lambda lifting", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(4), float32]) {
  let %f = fn (%a: Tensor[(4), float32]) {
    add(%a, %x)
  };
  %f(%x)
}
)",
       "InferType,LambdaLifting", "LambdaLifting", "lift.",
       {"lift.lifted [fn]: lifted to @main_f (captures %x: passed as leading parameters)"}},
      {"simplify: the rule that fired", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(4), float32]) {
  %0 = multiply(%x, 1f);
  %1 = nn.relu(%0);
  nn.relu(%1)
}
)",
       "InferType,SimplifyExpr", "SimplifyExpr", "simplify.",
       {"simplify.rewrite [%0]: multiply → %x: rule identity",
        "simplify.rewrite [nn.relu]: nn.relu → nn.relu: rule idempotent"}},
      {"cse: merged", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(4), float32]) {
  %0 = exp(%x);
  %1 = exp(%x);
  add(%0, %1)
}
)",
       "InferType,EliminateCommonSubexpr", "EliminateCommonSubexpr", "cse.",
       {"cse.merged [%1 %0]: exp merged with an equal earlier call"}},
      {"dce: a dead binding", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(4), float32]) {
  let %unused = exp(%x);
  negative(%x)
}
)",
       "InferType,DeadCodeElimination", "DeadCodeElimination", "dce.",
       {"dce.binding [exp]: binding of %unused (exp) removed: nothing uses it"}},
  }));
  INFO(c.name);
  PipelineRun r;
  r.ctx->setRemarksEnabled(true);
  if (std::string(c.name) == "max_depth") r.ctx->setConfig(kFuseOpsMaxDepthKey, AttrValue::integer(2));
  if (std::string(c.name) == "too large") r.ctx->setConfig(kFoldConstantMaxBytesKey, AttrValue::integer(4));
  r.run(c.pipeline, parse(c.module));
  CHECK(remarksOf(r, c.pass, c.rule) == c.expected);
}

TEST_CASE("Remarks: the Relax forms of ConvertLayout, ToMixedPrecision, LegalizeOps, FuseOps and FuseTIR", "[remarks][relax]") {
  struct RelaxCase {
    const char* name;
    const char* module;
    const char* pipeline;
    const char* pass;
    const char* rule;
    std::vector<std::string> expected;
  };
  const RelaxCase c = GENERATE(values<RelaxCase>({
      {"layout: converted, followed, permuted back", R"(# from tvm.script import ir as I
# from tvm.script import relax as R
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 2, 4, 4), dtype="float32"), w: R.Tensor((3, 2, 1, 1), dtype="float32")) -> R.Tensor((1, 3), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((1, 3, 4, 4), dtype="float32") = R.nn.conv2d(x, w, out_dtype="float32")
            lv1: R.Tensor((1, 3, 4, 4), dtype="float32") = R.nn.relu(lv)
            lv2: R.Tensor((1, 3, 1, 1), dtype="float32") = R.sum(lv1, axis=[2, 3], keepdims=True)
            gv: R.Tensor((1, 3), dtype="float32") = R.reshape(lv2, R.shape([1, 3]))
            R.output(gv)
        return gv
)",
       "ConvertLayout{desired_layouts={relax.nn.conv2d=[NHWC,OHWI]}}", "ConvertLayout", "layout.",
       {"layout.converted [nn.conv2d]: nn.conv2d converted from NCHW/OIHW to NHWC/OHWI",
        "layout.follow [nn.relu]: nn.relu follows NHWC (elementwise)",
        "layout.follow [sum]: sum follows NHWC (reduced axes remapped)",
        "layout.transform-back [reshape]: reshape cannot follow the converted layout: its input is permuted back"}},
      {"amp: always, follow, never", R"(# from tvm.script import ir as I
# from tvm.script import relax as R
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 4), dtype="float32"), w: R.Tensor((4, 4), dtype="float32")) -> R.Tensor((2, 4), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((2, 4), dtype="float32") = R.matmul(x, w, out_dtype="float32")
            lv1: R.Tensor((2, 4), dtype="float32") = R.nn.relu(lv)
            lv2: R.Tensor((2, 4), dtype="float32") = R.add(lv1, x)
            gv: R.Tensor((2, 4), dtype="float32") = R.nn.softmax(lv2, axis=1)
            R.output(gv)
        return gv
)",
       "ToMixedPrecision", "ToMixedPrecision", "amp.",
       {"amp.always [nn.matmul]: nn.matmul computed from float16 inputs, accumulating in float32 (ALWAYS)",
        "amp.follow [nn.relu]: nn.relu computed in float16: every input is float16 (FOLLOW)",
        "amp.follow-kept [add]: add kept float32: an input is float32 (FOLLOW)",
        "amp.never-list [nn.softmax]: kept float32: nn.softmax has no mixed-precision policy (TVM's Relax NEVER case)"}},
      {"legalize: kernels made, reused and missing", R"(# from tvm.script import ir as I
# from tvm.script import relax as R
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 4), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((2, 4), dtype="float32") = R.exp(x)
            lv1: R.Tensor((2, 4), dtype="float32") = R.exp(lv)
            gv: R.Tensor((2,), dtype="float32") = R.sum(lv1, axis=[1])
            R.output(gv)
        return gv
)",
       "LegalizeOps", "LegalizeOps", "legalize.",
       {"legalize.kernel [exp]: exp → call_tir(tir_exp): TVM's topi compute, output block compute",
        "legalize.kernel [exp]: exp → call_tir(tir_exp): TVM's topi compute, output block compute (reuses the structurally "
        "equal tir_exp)",
        "legalize.not-legalized [sum]: no Relax-form kernel for sum with these attributes; passlab's Relay-form lowering "
        "takes it instead of TVM's block form",
        // ... and names the loop nest it made.
        "legalize.loop-nest [sum]: @sum: sum 2x4 → 2: reduction loop nest: serial outer loops, nothing vectorized; vector "
        "unit avx512: 16 float32 lanes, 32 vector registers (-mcpu=skylake-avx512). Why: reductions have one schedule: each output's "
        "accumulator in a scalar, the outer loop parallel on the host"}},
  }));
  INFO(c.name);
  PipelineRun r;
  r.ctx->setRemarksEnabled(true);
  // LegalizeOps' schedules follow the vector unit: pinned whatever the host has.
  r.ctx->target = "llvm -mcpu=skylake-avx512";
  r.run(c.pipeline, parseModule(c.module, "relax.py"));
  std::vector<std::string> got = remarksOf(r, c.pass, c.rule);
  for (const std::string& g : got) UNSCOPED_INFO(g);
  CHECK(got == c.expected);
}

TEST_CASE("Remarks: Relax FuseOps names each group and boundary; FuseTIR what it merged", "[remarks][relax][fuse-ops]") {
  PipelineRun r;
  r.ctx->setRemarksEnabled(true);
  r.run("FuseOps,FuseTIR",
        inferTypes(parseModuleFile(std::string(PASSLAB_SOURCE_DIR) + "/tests/relax_parity/FuseOps/conv2d_add_relu_pool.before.py")));
  std::vector<std::string> fuse = remarksOf(r, "FuseOps");
  for (const std::string& g : fuse) UNSCOPED_INFO(g);
  CHECK(fuse == std::vector<std::string>{
                     "fuse.pattern-boundary [call_tir call_tir]: relu (ElemWise) → max_pool2d (OutEWiseFusable): ElemWise ops "
                     "fuse into their post-dominator only along a path that is at most Injective (or ends in a CommReduce); "
                     "the path to max_pool2d (OutEWiseFusable) is OutEWiseFusable",
                     "fuse.group [call_tir call_tir call_tir]: fused 3 call_tirs into fused_conv2d_add_relu: conv2d → add → relu "
                     "(group pattern OutEWiseFusable)",
                     "fuse.summary []: 1 group from 4 call_tir bindings at fusion opt level 3 (relay.FuseOps.max_depth = 256)"});
  std::vector<std::string> tir = remarksOf(r, "FuseTIR");
  for (const std::string& g : tir) UNSCOPED_INFO(g);
  CHECK(tir == std::vector<std::string>{"fuse-tir.merged [fn]: merged 3 PrimFuncs (conv2d, add, relu) into fused_conv2d_add_relu; "
                                        "2 intermediate results became root-block allocations"});
}

TEST_CASE("Remarks: FuseTIR counts only the results that became allocations (in-place outputs need none)", "[remarks][relax]") {
  auto [file, expected] = GENERATE(table<std::string, std::string>({
      {"inplace_two_outputs",
       "fuse-tir.merged [fn]: merged 2 PrimFuncs (shift_scale_inplace, exp_inplace) into fused_shift_scale_inplace_exp_inplace; "
       "0 intermediate results became root-block allocations"},
      {"inplace_after_fresh",
       "fuse-tir.merged [fn]: merged 2 PrimFuncs (add, exp_inplace) into fused_add_exp_inplace; 0 intermediate results became "
       "root-block allocations"},
  }));
  CAPTURE(file);
  PipelineRun r;
  r.ctx->setRemarksEnabled(true);
  r.run("FuseTIR", inferTypes(parseModuleFile(std::string(PASSLAB_SOURCE_DIR) + "/tests/relax_parity/FuseTIR/" + file + ".before.py")));
  std::vector<std::string> tir = remarksOf(r, "FuseTIR");
  for (const std::string& g : tir) UNSCOPED_INFO(g);
  CHECK(tir == std::vector<std::string>{expected});
}

TEST_CASE("Remarks: FoldConstant's nested FuseOps records its own remarks on the nested event", "[remarks][fold-constant]") {
  PipelineRun r;
  r.ctx->setRemarksEnabled(true);
  r.run("InferType,FoldConstant", parse(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(2), float32]) {
  %0 = exp(const(Tensor[(2), float32], [1, 2]));
  %1 = add(%0, 1f);
  multiply(%x, %1)
}
)"));
  std::vector<const TraceEvent*> fuse = r.events("FuseOps");
  REQUIRE(fuse.size() == 1);
  CHECK(fuse[0]->depth == 1);
  CHECK(fuse[0]->contextName == kFoldConstantEvalContext);
  REQUIRE_FALSE(fuse[0]->remarks.empty());
  CHECK(fuse[0]->remarks.back().contextName == kFoldConstantEvalContext);
  // The nested run's link_params decision is what keeps constants inline in its kernels.
  CHECK(remarksOf(r, "FuseOps", "fuse.summary").size() == 1);
  CHECK(remarksOf(r, "FuseOps", "fuse.summary")[0].find("link_params off") != std::string::npos);
  // FoldConstant's own event has the fold, not the nested pass's remarks.
  for (const Remark& rm : r.events("FoldConstant")[0]->remarks) CHECK(rm.pass == "FoldConstant");
}

TEST_CASE("Remarks: the workbench queries them, grouped by rule, and why-not answers for a boundary", "[remarks][workbench]") {
  auto registry = std::make_shared<PassRegistry>();
  registerBuiltinPasses(*registry);
  Workbench wb(registry);
  REQUIRE(wb.remarks());
  wb.loadText(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 1, 4, 4), float32], %w: Tensor[(1, 1, 1, 1), float32]) {
  %0 = nn.conv2d(%x, %w, channels=1, kernel_size=[1, 1]);
  %1 = nn.max_pool2d(%0, pool_size=[2, 2], strides=[2, 2]);
  %2 = nn.relu(%1);
  nn.max_pool2d(%2, pool_size=[1, 1])
}
)", "pool.relay");
  wb.setPipeline("InferType,FuseOps");
  wb.run();
  RemarkQuery missed;
  missed.kind = RemarkKind::Missed;
  std::vector<RemarkHit> hits = findRemarks(wb, missed);
  REQUIRE(hits.size() == 2);
  CHECK(hits[0].nodes == std::vector<std::string>{"%0", "%1"});
  CHECK(hits[1].nodes == std::vector<std::string>{"%2", "nn.max_pool2d"});
  CHECK(hits[0].location == "pool.relay:3:8");
  CHECK(formatRemarkLine("pool.relay", hits[0]) ==
        "pool.relay:3:8: remark: nn.conv2d (OutEWiseFusable) → nn.max_pool2d (OutEWiseFusable): two OutEWiseFusable ops "
        "never share a group [fuse.pattern-boundary] (FuseOps #2, %0 %1)\n");
  std::vector<RemarkEventSummary> summary = summarizeRemarks(findRemarks(wb, RemarkQuery{}));
  REQUIRE(summary.size() == 1);
  REQUIRE(summary[0].counts.size() == 3);
  CHECK(summary[0].counts[0].rule == RemarkRule::FusePatternBoundary);  // missed first
  CHECK(summary[0].counts[1].rule == RemarkRule::FuseGroup);
  CHECK(summary[0].counts[0].count == 2);
  CHECK(summary[0].counts[1].count == 3);
  WhyNotAnswer apart = whyNot(wb, "%0", "%1", 2);
  REQUIRE(apart.both.size() == 1);
  CHECK(apart.both[0].remark->rule == RemarkRule::FusePatternBoundary);
  WhyNotAnswer together = whyNot(wb, "%1", "%2", 2);
  REQUIRE(together.both.size() == 1);
  CHECK(together.both[0].remark->rule == RemarkRule::FuseGroup);
  // Off: the future is discarded and nothing is recorded on the re-run.
  wb.gotoEvent(0);
  CHECK(wb.setRemarks(false) == 2);
  wb.run();
  CHECK(findRemarks(wb, RemarkQuery{}).empty());
}

TEST_CASE("Remarks: break remark stops at the event that emits the rule", "[remarks][workbench]") {
  auto registry = std::make_shared<PassRegistry>();
  registerBuiltinPasses(*registry);
  Workbench wb(registry);
  wb.loadText(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(2, 4), float32]) {
  %0 = mean(%x, axis=[1]);
  multiply(%0, 2f)
}
)", "mean.relay");
  wb.setPipeline("InferType,FoldConstant,FuseOps,InferType");
  CHECK_THROWS_WITH(wb.addBreakpoint(BreakKind::Remark, "fuse.reductoin"), Catch::Contains("did you mean 'fuse.reduction'"));
  wb.addBreakpoint(BreakKind::Remark, "fuse.reduction");
  MoveResult m = wb.run();
  CHECK(m.reason == StopReason::Breakpoint);
  CHECK(wb.event(m.to).pass == "FuseOps");
}

TEST_CASE("Remarks: trace JSON carries remarks with rule ids and named nodes", "[remarks][trace]") {
  PipelineRun r;
  r.ctx->setRemarksEnabled(true);
  r.run("InferType,FuseOps", parse(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(2, 4), float32]) {
  %0 = mean(%x, axis=[1]);
  multiply(%0, 2f)
}
)"));
  std::string json = traceToJson(*r.trace);
  CHECK(json.find(R"("rule":"fuse.reduction","pass":"FuseOps","function":"main")") != std::string::npos);
  CHECK(json.find(R"("nodes":[{"name":"%0","line":4,"column":3},{"name":"multiply","line":5,"column":3}])") != std::string::npos);
}

TEST_CASE("Remarks: docs/remarks.md is generated from the rule vocabulary and up to date", "[remarks][docs]") {
  std::ifstream in(std::string(PASSLAB_SOURCE_DIR) + "/docs/remarks.md");
  std::stringstream buf;
  buf << in.rdbuf();
  INFO("regenerate with: passlab --help-remarks-markdown > docs/remarks.md");
  CHECK(buf.str() == remarksMarkdown());
  for (const RemarkRuleInfo& info : allRemarkRules()) CHECK(buf.str().find("`" + std::string(info.id) + "`") != std::string::npos);
}

TEST_CASE("Remarks: LegalizeOps names each kernel's schedule, tiles, vector unit and reason", "[remarks][legalize]") {
  const Case c = GENERATE(values<Case>({
      {"pointwise convolution", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 16, 8, 8), float32], %w: Tensor[(32, 16, 1, 1), float32]) {
  nn.conv2d(%x, %w, channels=32, kernel_size=[1, 1])
}
)",
       "InferType,LegalizeOps", "LegalizeOps", "legalize.",
       {"legalize.conv-pointwise [nn.conv2d]: @nn_conv2d: nn.conv2d 1x16x8x8, 32x16x1x1 → 1x32x8x8: GEMM over 64 "
        "positions x 16 input channels: register tiles of 8 channels x 32 positions (2 vectors each), parallel "
        "over 4 channel blocks; vector unit avx512: 16 float32 lanes, 32 vector registers (-mcpu=skylake-avx512). "
        "Why: 1x1 kernel, stride 1, no padding, no groups, NCHW: a GEMM of the weight with the data's flattened "
        "positions"}},
      {"one position", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 16, 1, 1), float32], %w: Tensor[(8, 16, 1, 1), float32]) {
  nn.conv2d(%x, %w, channels=8, kernel_size=[1, 1])
}
)",
       "InferType,LegalizeOps", "LegalizeOps", "legalize.",
       {"legalize.conv-pointwise [nn.conv2d]: @nn_conv2d: nn.conv2d 1x16x1x1, 8x16x1x1 → 1x8x1x1: one position: "
        "each output a dot product of 16 input channels in 8 partial sums, outputs in parallel; vector unit "
        "avx512: 16 float32 lanes, 32 vector registers (-mcpu=skylake-avx512). Why: 1x1 kernel, stride 1, no "
        "padding, no groups, NCHW: a GEMM of the weight with the data's flattened positions; one output position "
        "(squeeze-and-excite on pooled features), so no position tile"}},
      {"small spatial", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 64, 3, 3), float32], %w: Tensor[(32, 64, 3, 3), float32]) {
  nn.conv2d(%x, %w, padding=[1, 1], channels=32, kernel_size=[3, 3])
}
)",
       "InferType,LegalizeOps", "LegalizeOps", "legalize.",
       {"legalize.conv-small-spatial [nn.conv2d]: @nn_conv2d: nn.conv2d 1x64x3x3, 32x64x3x3 → 1x32x3x3: "
        "vectorized along the reduction of K = 64x3x3 = 576: patches copied once into a 9 x 576 scratch matrix, "
        "register tiles of 4 channels x 3 positions with 16 partial sums each, parallel over 8 channel blocks; "
        "vector unit avx512: 16 float32 lanes, 32 vector registers (-mcpu=skylake-avx512). Why: 9 output "
        "positions fill 9 of 16 lanes of position vectors (more than a third idle), and the reduction is at least "
        "2 vectors of 16"}},
      {"depthwise", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 8, 16, 16), float32], %w: Tensor[(8, 1, 3, 3), float32]) {
  nn.conv2d(%x, %w, padding=[1, 1], groups=8, channels=8, kernel_size=[3, 3])
}
)",
       "InferType,LegalizeOps", "LegalizeOps", "legalize.",
       {"legalize.conv-depthwise [nn.conv2d]: @nn_conv2d: nn.conv2d 1x8x16x16, 8x1x3x3 → 1x8x16x16: wide-grid "
        "direct convolution: the padded data copied once into a scratch split by stride phase (1x1 phases of "
        "18x18), tiles of 1 channel x 96 positions (6 vector registers of accumulators), over the 16x18 wide "
        "grid, 2 column(s) per row computed and dropped; vector unit avx512: 16 float32 lanes, 32 vector "
        "registers (-mcpu=skylake-avx512). Why: depthwise (groups = 8 = channels), 3x3 kernel, stride 1: no "
        "reduction over channels to tile, so each channel's positions are vectorized"}},
      {"wide grid", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 3, 16, 16), float32], %w: Tensor[(16, 3, 3, 3), float32]) {
  nn.conv2d(%x, %w, strides=[2, 2], padding=[1, 1], channels=16, kernel_size=[3, 3])
}
)",
       "InferType,LegalizeOps", "LegalizeOps", "legalize.",
       {"legalize.conv-wide-grid [nn.conv2d]: @nn_conv2d: nn.conv2d 1x3x16x16, 16x3x3x3 → 1x16x8x8: wide-grid "
        "direct convolution: the padded data copied once into a scratch split by stride phase (2x2 phases of "
        "9x9), tiles of 4 channels x 32 positions (8 vector registers of accumulators), over the 8x9 wide grid, 1 "
        "column(s) per row computed and dropped; vector unit avx512: 16 float32 lanes, 32 vector registers "
        "(-mcpu=skylake-avx512). Why: 3x3 kernel, stride 2: not pointwise (1x1, stride 1, unpadded), and 64 "
        "output positions fill the position vectors (the small-spatial schedule is for maps that leave more than "
        "a third of the lanes idle)"}},
      {"direct (NHWC)", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 8, 8, 4), float32], %w: Tensor[(3, 3, 4, 8), float32]) {
  nn.conv2d(%x, %w, padding=[1, 1], channels=8, kernel_size=[3, 3], data_layout="NHWC", kernel_layout="HWIO")
}
)",
       "InferType,LegalizeOps", "LegalizeOps", "legalize.",
       {"legalize.conv-direct [nn.conv2d]: @nn_conv2d: nn.conv2d 1x8x8x4, 3x3x4x8 → 1x8x8x8: direct nest over "
        "output rows: each row of 8 outputs vectorized, summed over (input channel, kernel row, kernel column), "
        "the data first copied padded; vector unit avx512: 16 float32 lanes, 32 vector registers "
        "(-mcpu=skylake-avx512). Why: layout NHWC (the tiled schedules take NCHW data and output)"}},
      {"dense tiles", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(2, 64), float32], %w: Tensor[(16, 64), float32]) {
  nn.dense(%x, %w, units=16)
}
)",
       "InferType,LegalizeOps", "LegalizeOps", "legalize.",
       {"legalize.dense-tile [nn.dense]: @nn_dense: nn.dense 2x64, 16x64 → 2x16: register tiles of 2 rows x 4 "
        "columns over 2 rows x 16 columns, each output a dot product along K = 64 in 16 partial sums; vector unit "
        "avx512: 16 float32 lanes, 32 vector registers (-mcpu=skylake-avx512). Why: the weight is [N, K]: both "
        "operands contiguous along K, so each loaded vector serves the whole tile"}},
      {"dense on a transposed constant", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(4, 8), float32]) {
  nn.dense(%x, const(Tensor[(4, 8), float32], [0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2, 3]), units=4)
}
)",
       "InferType,LegalizeOps", "LegalizeOps", "legalize.",
       {"legalize.matmul-rows [nn.dense]: @nn_dense: nn.dense 4x8, 8x4 → 4x4: one accumulator row of 4 per output "
        "row (4 rows), the reduction over K = 8 outside a vectorized loop over N; vector unit avx512: 16 float32 "
        "lanes, 32 vector registers (-mcpu=skylake-avx512). Why: LegalizeOps transposed the constant weight to "
        "[K, N] at compile time (several rows of data): rows of N are contiguous"}},
      {"an elementwise loop nest", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 8, 32, 32), float32]) {
  nn.relu(%x)
}
)",
       "InferType,LegalizeOps", "LegalizeOps", "legalize.",
       {"legalize.loop-nest [nn.relu]: @nn_relu: nn.relu 1x8x32x32 → 1x8x32x32: elementwise loop nest: parallel "
        "loop of 8, vectorized loop of 1024; vector unit avx512: 16 float32 lanes, 32 vector registers "
        "(-mcpu=skylake-avx512). Why: elementwise and layout ops have one schedule: the outermost loop parallel "
        "on the host when the output has at least 1024 elements, the innermost axis (short trailing axes merged) "
        "vectorized"}},
      {"a fused group: epilogue and inline", R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 16, 8, 8), float32], %w: Tensor[(32, 16, 1, 1), float32], %b: Tensor[(1, 32, 1, 1), float32]) {
  %0 = nn.conv2d(%x, %w, channels=32, kernel_size=[1, 1]);
  %1 = add(%0, %b);
  nn.relu(%1)
}
)",
       "InferType,FuseOps,LegalizeOps", "LegalizeOps", "legalize.",
       {"legalize.conv-pointwise [%0]: @fused_nn_conv2d_add_nn_relu: nn.conv2d 1x16x8x8, 32x16x1x1 → 1x32x8x8: "
        "GEMM over 64 positions x 16 input channels: register tiles of 8 channels x 32 positions (2 vectors "
        "each), parallel over 4 channel blocks; epilogue: the elementwise ops up to nn.relu applied to each "
        "output in registers before its store; vector unit avx512: 16 float32 lanes, 32 vector registers "
        "(-mcpu=skylake-avx512). Why: 1x1 kernel, stride 1, no padding, no groups, NCHW: a GEMM of the weight "
        "with the data's flattened positions",
       "legalize.inline [%1]: @fused_nn_conv2d_add_nn_relu: add 1x32x8x8, 1x32x1x1 → 1x32x8x8: computed where "
        "nn.relu reads it (elementwise, read once): no loop nest or buffer of its own",
       "legalize.inline [nn.relu]: @fused_nn_conv2d_add_nn_relu: nn.relu 1x32x8x8 → 1x32x8x8: stored by "
        "nn.conv2d's loop nest as the last op of its epilogue: no loop nest or buffer of its own"}},
  }));
  DYNAMIC_SECTION(c.name) {
    PipelineRun r;
    r.ctx->setRemarksEnabled(true);
    // The schedules follow the vector unit: pinned to AVX-512 whatever the host has.
    r.ctx->target = "llvm -mcpu=skylake-avx512";
    r.run(c.pipeline, parse(c.module));
    CHECK(remarksOf(r, c.pass, c.rule) == c.expected);
  }
}

TEST_CASE("Remarks: a kernel's name finds LegalizeOps' remarks on it, and its schedule for the profile table", "[remarks][legalize][workbench]") {
  auto registry = std::make_shared<PassRegistry>();
  registerBuiltinPasses(*registry);
  Workbench wb(registry);
  wb.loadText(R"(#[version = "0.0.5"]
def @main(%x: Tensor[(1, 16, 8, 8), float32], %w: Tensor[(32, 16, 1, 1), float32], %b: Tensor[(1, 32, 1, 1), float32]) {
  %0 = nn.conv2d(%x, %w, channels=32, kernel_size=[1, 1]);
  %1 = add(%0, %b);
  %2 = nn.relu(%1);
  nn.max_pool2d(%2, pool_size=[2, 2], strides=[2, 2])
}
)", "block.relay");
  wb.setPipeline("InferType,FuseOps,LambdaLifting,LegalizeOps");
  wb.run();
  // The lifted groups' kernels: the convolution's names its schedule, not its epilogue's inline ops.
  std::map<std::string, std::string> schedules = kernelSchedules(wb, wb.cursor());
  CHECK(schedules == std::map<std::string, std::string>{{"fused_nn_conv2d_add_nn_relu", "conv-pointwise"}, {"fused_nn_max_pool2d", "loop-nest"}});
  CHECK(kernelSchedules(wb, 0).empty());  // before LegalizeOps ran
  RemarkQuery query;
  query.function = "@fused_nn_conv2d_add_nn_relu";
  std::vector<RemarkHit> hits = findRemarks(wb, query);
  REQUIRE(hits.size() == 3);
  for (const RemarkHit& h : hits) {
    CHECK(h.remark->kernel == "fused_nn_conv2d_add_nn_relu");
    // The nodes are in the lifted group the kernel was made from.
    CHECK(h.remark->function.rfind("main_lifted", 0) == 0);
    CHECK(remarkToJson(*h.remark, nullptr).find(R"("kernel":"fused_nn_conv2d_add_nn_relu")") != std::string::npos);
  }
  CHECK(hits[0].remark->rule == RemarkRule::LegalizeConvPointwise);
}
