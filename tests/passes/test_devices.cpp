// TVM's device-planning and lowering vocabulary: virtual devices, on_device,
// device_copy, call_lowered, the memory and VM builtins of memory planning,
// the type shorthands; PlanDevices; LegalizeOps' call_lowered; the phase rules.
#include <catch2/catch.hpp>

#include "core/analysis/structural_equal.h"
#include "core/analysis/type_infer.h"
#include "core/analysis/well_formed.h"
#include "core/interp/interpreter.h"
#include "core/ir/virtual_device.h"
#include "core/text/printer.h"
#include "core/workbench/workbench.h"
#include "passes/legalize_ops.h"
#include "passes/plan_devices.h"
#include "tests/opt_test_util.h"

using namespace passlab;
using namespace passlab::testing;

namespace {

/// TVM's PlanDevices tests use a CPU and a GPU virtual device; here the module carries them.
const std::string kCpuGpu =
    "#[version = \"0.0.5\"]\n"
    "#[virtual_devices = [{\"device_type\": 1, \"virtual_device_id\": 0, \"target\": \"llvm\", \"memory_scope\": \"\"}, "
    "{\"device_type\": 2, \"virtual_device_id\": 0, \"target\": \"cuda\", \"memory_scope\": \"\"}]]\n";

/// The decisions PlanDevices recorded in `run`, "key=value".
std::vector<std::string> decisionsOf(const PipelineRun& run) {
  std::vector<std::string> out;
  for (const TraceEvent* e : run.events("PlanDevices"))
    for (const ConfigRead& r : e->configReads)
      if (r.source == ConfigSource::Annotation) out.push_back(r.key + "=" + r.value.asString());
  return out;
}

/// Parses, infers types and runs PlanDevices with TVM's test default (the GPU, device type 2).
struct Planned {
  PipelineRun run;
  IRModule out;
  explicit Planned(const std::string& text, int64_t fallback = 2) {
    run.ctx->setConfig(kFallbackDeviceTypeKey, AttrValue::integer(fallback));
    out = run.run("InferType,PlanDevices", parse(text));
  }
  std::vector<std::string> decisions() const { return decisionsOf(run); }
};

bool sameMain(const IRModule& a, const std::string& expectedText) {
  IRModule expected = inferTypes(parse(expectedText));
  return structuralEqual(a->lookup("main"), expected->lookup("main"));
}

NDArray ramp(std::vector<int64_t> shape, double start) {
  NDArray a(DTypeCode::Float32, std::move(shape));
  for (int64_t i = 0; i < a.numElements(); ++i) a.setFromDouble(i, start + 0.25 * static_cast<double>(i));
  return a;
}

}  // namespace

TEST_CASE("Devices: the device vocabulary parses, prints and parses back the same", "[devices][text]") {
  std::string body = GENERATE(
      std::string("def @main(%a {virtual_device=meta[VirtualDevice][0]}: Tensor[(5, 7), float32], "
                  "virtual_device=meta[VirtualDevice][1]) {\n"
                  "  %0 = on_device(%a, virtual_device=meta[VirtualDevice][0], constrain_result=True);\n"
                  "  device_copy(%0, src_virtual_device=meta[VirtualDevice][0], dst_virtual_device=meta[VirtualDevice][1])\n}\n"),
      std::string("def @main(%size: int64, %x: Tensor[(10), float32]) {\n"
                  "  %0 = memory.alloc_storage(%size, 64i64, virtual_device=meta[VirtualDevice][0], dtype_hint=\"float32\");\n"
                  "  %1 = memory.alloc_tensor(%0, 0i64, meta[relay.Constant][0] /* ty=Tensor[(1), int64] */, "
                  "assert_shape=[10]);\n"
                  "  %2 = vm.shape_of(%1, dtype=\"int64\");\n"
                  "  %3 = vm.reshape_tensor(%x, %2, newshape=[2, 5]);\n"
                  "  %4 = memory.kill(%1);\n"
                  "  (%3, %4)\n}\n"),
      std::string("def @f(%p: Tensor[(4), float32]) -> Tensor[(4), float32] {\n  negative(%p)\n}\n\n"
                  "def @main(%x: Tensor[(4), float32]) {\n  call_lowered(@f, (%x,))\n}\n"),
      std::string("def @main(%s: Storage, %i: int, %f: float, %b: bool) {\n  (%s, %i, %f, %b)\n}\n"));
  IRModule first = inferTypes(parse(kCpuGpu + body));
  std::string printed = printModule(first);
  IRModule second = inferTypes(parse(printed));
  CHECK(printModule(second) == printed);
  // The first print adds the inferred return types; from then on the module is a fixed point.
  CHECK(structuralEqual(second, inferTypes(parse(printModule(second)))));
  CHECK(checkWellFormed(second).empty());
}

TEST_CASE("Devices: type relations of the device, lowered-call and memory ops", "[devices][types]") {
  IRModule mod = inferTypes(parse(kCpuGpu +
                                  "def @main(%size: int64, %x: Tensor[(10), float32], %shape: Tensor[(1), int64]) {\n"
                                  "  %0 = memory.alloc_storage(%size, 64i64);\n"
                                  "  %1 = memory.alloc_tensor(%0, 0i64, %shape, dtype=\"float32\", assert_shape=[10]);\n"
                                  "  %2 = vm.shape_of(%1);\n"
                                  "  %3 = vm.reshape_tensor(%x, %2, newshape=[2, 5]);\n"
                                  "  %4 = device_copy(%3, src_virtual_device=meta[VirtualDevice][0], "
                                  "dst_virtual_device=meta[VirtualDevice][1]);\n"
                                  "  (%0, %1, %2, %4, memory.kill(%1))\n}\n"));
  const auto* fn = as<FunctionNode>(mod->lookup("main"));
  CHECK(typeToString(fn->body->checkedType) ==
        "(Storage, Tensor[(10), float32], Tensor[(1), int64], Tensor[(2, 5), float32], ())");
  // Each relation says what is wrong, located at the call.
  auto error = [](const std::string& text) {
    try {
      inferTypes(parse(text));
    } catch (const DiagnosticError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(error("def @main(%s: Storage, %shape: Tensor[(1), int64]) { memory.alloc_tensor(%s, 0i64, %shape) }"),
             Catch::Contains("needs const_shape or assert_shape"));
  CHECK_THAT(error("def @main(%x: Tensor[(10), float32]) { memory.alloc_tensor(%x, 0i64, %x, assert_shape=[10]) }"),
             Catch::Contains("expects the storage (type Storage) first"));
  CHECK_THAT(error("def @main(%x: Tensor[(10), float32], %s: Tensor[(1), int64]) { vm.reshape_tensor(%x, %s, newshape=[3, 3]) }"),
             Catch::Contains("cannot reshape"));
  CHECK_THAT(error("def @f(%p: Tensor[(4), float32]) { %p }\ndef @main(%x: Tensor[(3), float32]) { call_lowered(@f, (%x,)) }"),
             Catch::Contains("argument 0 has type Tensor[(3), float32]"));
  CHECK_THAT(error("def @main(%x: uint) { %x }"), Catch::Contains("uint32"));
}

TEST_CASE("Devices: meta[VirtualDevice][N] without a table is a noted placeholder", "[devices][text]") {
  std::vector<Diagnostic> notes;
  IRModule mod = parseModule("def @main(%a {virtual_device=meta[VirtualDevice][1]}: Tensor[(2), float32]) { %a }", "t.relay",
                             &notes);
  std::vector<VirtualDevice> table = virtualDeviceTable(mod);
  REQUIRE(table.size() == 2);
  CHECK(table[0].isPlaceholder());
  CHECK(table[1].isPlaceholder());
  REQUIRE(notes.size() == 1);
  CHECK_THAT(notes[0].message, Catch::Contains("meta[VirtualDevice][0..1] are placeholders"));
  // A value that is not a virtual device is refused where it is written.
  CHECK_THROWS_WITH(parse("def @main(%a {virtual_device=3}: Tensor[(2), float32]) { %a }"),
                    Catch::Contains("virtual_device must be meta[VirtualDevice][N]"));
  CHECK_THROWS_WITH(parse("def @main(%a: Tensor[(2), float32]) { on_device(%a, virtual_device=meta[Foo][0]) }"),
                    Catch::Contains("not supported: meta[Foo]"));
}

TEST_CASE("Devices: TVM's #[metadata] VirtualDevice nodes give the devices", "[devices][text]") {
  // As tvm.ir.save_json writes {"VirtualDevice": [CPU, Hexagon]} (abridged to the fields read).
  std::string text =
      "def @main(%a {virtual_device=meta[VirtualDevice][1]}: Tensor[(2), float32]) { %a }\n"
      "#[metadata]\n"
      "{\"root\": 1, \"nodes\": [{\"type_key\": \"\"}, {\"type_key\": \"Map\", \"keys\": [\"VirtualDevice\"], \"data\": [2]},"
      " {\"type_key\": \"Array\", \"data\": [3, 4]},"
      " {\"type_key\": \"VirtualDevice\", \"attrs\": {\"device_type_int\": \"1\", \"virtual_device_id\": \"0\", "
      "\"target\": \"5\", \"memory_scope\": \"7\"}},"
      " {\"type_key\": \"VirtualDevice\", \"attrs\": {\"device_type_int\": \"16\", \"virtual_device_id\": \"0\", "
      "\"target\": \"null\", \"memory_scope\": \"7\"}},"
      " {\"type_key\": \"Target\", \"attrs\": {\"kind\": \"6\"}},"
      " {\"type_key\": \"TargetKind\", \"repr_str\": \"llvm\"},"
      " {\"type_key\": \"runtime.String\", \"repr_str\": \"global\"}], \"b64ndarrays\": []}\n";
  IRModule mod = parse(text);
  std::vector<VirtualDevice> table = virtualDeviceTable(mod);
  REQUIRE(table.size() == 2);
  CHECK(table[0].deviceType == device_type::kCPU);
  CHECK(table[0].target == "llvm");
  CHECK(table[0].memoryScope == "global");
  CHECK(table[1].deviceType == device_type::kHexagon);
  CHECK(describeVirtualDeviceRef(mod, AttrValue::metaRef("VirtualDevice", 1)) == "meta[VirtualDevice][1] (hexagon:0 scope \"global\")");
}

TEST_CASE("Devices: the interpreter runs device annotations, call_lowered and the memory builtins", "[devices][interp]") {
  IRModule mod = inferTypes(parse(
      kCpuGpu +
      "def @neg(%p: Tensor[(2, 2), float32]) -> Tensor[(2, 2), float32] { negative(%p) }\n\n"
      "primfn @twice(%A: Buffer[(2, 2), float32], %B: Buffer[(2, 2), float32]) {\n"
      "  for (%i, 0, 2, serial) {\n    for (%j, 0, 2, serial) {\n      %B[%i, %j] = %A[%i, %j] * 2f;\n    }\n  }\n}\n\n"
      "def @main(%x: Tensor[(2, 2), float32]) {\n"
      "  %0 = on_device(%x, virtual_device=meta[VirtualDevice][0]);\n"
      "  %1 = device_copy(%0, src_virtual_device=meta[VirtualDevice][0], dst_virtual_device=meta[VirtualDevice][1]);\n"
      "  %2 = call_lowered(@twice, (%1,));\n"
      "  %3 = call_lowered(@neg, (%2,));\n"
      "  %4 = memory.alloc_storage(16i64, 64i64);\n"
      "  %5 = memory.alloc_tensor(%4, 0i64, const(Tensor[(2), int64], [2, 2]), assert_shape=[2, 2]);\n"
      "  %6 = fn (%a, Primitive=1) { add(%a, %a) };\n"
      "  %7 = vm.invoke_tvm_op(%6, (%3,), (%5,));\n"
      "  (%5, %7)\n}\n"));
  NDArray x = ramp({2, 2}, -1.0);
  Value result = evaluate(mod, "main", {Value(x)});
  REQUIRE(result.isTuple());
  const NDArray& out = result.fields()[0].tensor();
  // add(-2x, -2x) = -4x, written into the allocated tensor.
  for (int64_t i = 0; i < 4; ++i) CHECK(out.getAsDouble(i) == -4.0 * x.getAsDouble(i));
}

TEST_CASE("PlanDevices: TVM's plain, left-add-on-cpu and both-adds-on-cpu plans", "[devices][plan-devices]") {
  const std::string args = "(%a: Tensor[(5, 7), float32], %b: Tensor[(5, 7), float32], %c: Tensor[(5, 7), float32], "
                           "%d: Tensor[(5, 7), float32])";
  SECTION("everything defaults to the GPU") {
    Planned p(kCpuGpu + "def @main" + args + " {\n  %0 = add(%a, %b);\n  %1 = add(%c, %d);\n  subtract(%0, %1)\n}\n");
    CHECK(sameMain(p.out, kCpuGpu +
                              "def @main(%a {virtual_device=meta[VirtualDevice][1]}: Tensor[(5, 7), float32], "
                              "%b {virtual_device=meta[VirtualDevice][1]}: Tensor[(5, 7), float32], "
                              "%c {virtual_device=meta[VirtualDevice][1]}: Tensor[(5, 7), float32], "
                              "%d {virtual_device=meta[VirtualDevice][1]}: Tensor[(5, 7), float32], "
                              "virtual_device=meta[VirtualDevice][1]) {\n"
                              "  %0 = add(%a, %b);\n  %1 = add(%c, %d);\n  subtract(%0, %1)\n}\n"));
  }
  const std::string leftOnCpu =
      "def @main(%a {virtual_device=meta[VirtualDevice][0]}: Tensor[(5, 7), float32], "
      "%b {virtual_device=meta[VirtualDevice][0]}: Tensor[(5, 7), float32], "
      "%c {virtual_device=meta[VirtualDevice][1]}: Tensor[(5, 7), float32], "
      "%d {virtual_device=meta[VirtualDevice][1]}: Tensor[(5, 7), float32], virtual_device=meta[VirtualDevice][1]) {\n"
      "  %0 = add(%a, %b);\n"
      "  %1 = on_device(%0, virtual_device=meta[VirtualDevice][0], constrain_result=True);\n"
      "  %2 = device_copy(%1, src_virtual_device=meta[VirtualDevice][0], dst_virtual_device=meta[VirtualDevice][1]);\n"
      "  %3 = add(%c, %d);\n  subtract(%2, %3)\n}\n";
  SECTION("on_device puts the left add on the CPU; its result is copied to the GPU") {
    Planned p(kCpuGpu + "def @main" + args +
              " {\n  %0 = add(%a, %b);\n  %1 = on_device(%0, virtual_device=meta[VirtualDevice][0]);\n"
              "  %2 = add(%c, %d);\n  subtract(%1, %2)\n}\n");
    CHECK(sameMain(p.out, kCpuGpu + leftOnCpu));
    std::vector<std::string> d = p.decisions();
    CHECK(std::count(d.begin(), d.end(),
                     "device.@main.%a=meta[VirtualDevice][0] (cpu:0): on_device at test.relay:5:8") == 1);
    CHECK(std::count(d.begin(), d.end(), "device.@main=meta[VirtualDevice][1] (cuda:0): default device: "
                                         "relay.fallback_device_type=2") == 1);
    CHECK(std::count(d.begin(), d.end(), "device_copy.@main.1=meta[VirtualDevice][0] (cpu:0) -> meta[VirtualDevice][1] (cuda:0): "
                                         "the result of on_device at test.relay:5:8 is used on cuda:0") == 1);
    // Idempotent: planning the plan changes nothing.
    PipelineRun again;
    again.ctx->setConfig(kFallbackDeviceTypeKey, AttrValue::integer(2));
    CHECK(again.run("PlanDevices", p.out) == p.out);
  }
  SECTION("an explicit device_copy plans the same") {
    Planned p(kCpuGpu + "def @main" + args +
              " {\n  %0 = add(%a, %b);\n  %1 = device_copy(%0, src_virtual_device=meta[VirtualDevice][0], "
              "dst_virtual_device=meta[VirtualDevice][1]);\n  %2 = add(%c, %d);\n  subtract(%1, %2)\n}\n");
    // As TVM: the copied value is pinned to the source device with on_device.
    CHECK(sameMain(p.out, kCpuGpu + leftOnCpu));
  }
  SECTION("both adds on the CPU: two copies") {
    Planned p(kCpuGpu + "def @main" + args +
              " {\n  %0 = add(%a, %b);\n  %1 = add(%c, %d);\n  %2 = on_device(%0, virtual_device=meta[VirtualDevice][0]);\n"
              "  %3 = on_device(%1, virtual_device=meta[VirtualDevice][0]);\n  subtract(%2, %3)\n}\n");
    CHECK(sameMain(p.out, kCpuGpu +
                              "def @main(%a {virtual_device=meta[VirtualDevice][0]}: Tensor[(5, 7), float32], "
                              "%b {virtual_device=meta[VirtualDevice][0]}: Tensor[(5, 7), float32], "
                              "%c {virtual_device=meta[VirtualDevice][0]}: Tensor[(5, 7), float32], "
                              "%d {virtual_device=meta[VirtualDevice][0]}: Tensor[(5, 7), float32], "
                              "virtual_device=meta[VirtualDevice][1]) {\n"
                              "  %0 = add(%a, %b);\n"
                              "  %1 = on_device(%0, virtual_device=meta[VirtualDevice][0], constrain_result=True);\n"
                              "  %2 = add(%c, %d);\n"
                              "  %3 = on_device(%2, virtual_device=meta[VirtualDevice][0], constrain_result=True);\n"
                              "  %4 = device_copy(%1, src_virtual_device=meta[VirtualDevice][0], "
                              "dst_virtual_device=meta[VirtualDevice][1]);\n"
                              "  %5 = device_copy(%3, src_virtual_device=meta[VirtualDevice][0], "
                              "dst_virtual_device=meta[VirtualDevice][1]);\n"
                              "  subtract(%4, %5)\n}\n"));
  }
}

TEST_CASE("PlanDevices: two annotations that disagree fail with both reasons", "[devices][plan-devices]") {
  PipelineRun run;
  IRModule mod = parse(kCpuGpu +
                       "def @main(%a: Tensor[(2), float32]) {\n"
                       "  %0 = negative(%a);\n"
                       "  %1 = on_device(%0, virtual_device=meta[VirtualDevice][0], constrain_result=True);\n"
                       "  %2 = on_device(%1, virtual_device=meta[VirtualDevice][1], constrain_result=True);\n"
                       "  %2\n}\n");
  try {
    run.run("InferType,PlanDevices", mod);
    FAIL("expected a conflict");
  } catch (const DiagnosticError& e) {
    REQUIRE(!e.diagnostics().empty());
    CHECK(e.diagnostics()[0].rule == "plan-devices.conflict");
    CHECK_THAT(e.diagnostics()[0].message, Catch::Contains("on_device at test.relay:5:8") && Catch::Contains("on_device at test.relay:6:8") &&
                                               Catch::Contains("cpu:0") && Catch::Contains("cuda:0"));
  }
}

TEST_CASE("PlanDevices: host code calling a Hexagon function gets copies both ways", "[devices][plan-devices]") {
  IRModule mod = exampleModel("examples/seed004/device_plan.relay");
  PipelineRun run;
  run.ctx->target = "llvm";
  IRModule out = run.run("InferType,PlanDevices", mod);
  std::string text = printModule(out);
  // The dense stays on the host (on_device), the epilogue runs on Hexagon (its target),
  // the multiply is pinned back to the host: one copy in, one copy out.
  const auto* main = as<FunctionNode>(out->lookup("main"));
  CHECK(countCalls(out->lookup("main"), OpId::DeviceCopy) == 2);
  std::vector<VirtualDevice> table = virtualDeviceTable(out);
  auto deviceOfParam = [&](size_t i) { return table.at(static_cast<size_t>(main->params[i]->virtualDevice.metaIndex())).deviceType; };
  CHECK(deviceOfParam(0) == device_type::kCPU);      // %x feeds the dense
  CHECK(deviceOfParam(2) == device_type::kHexagon);  // %bias is used only on Hexagon: placed there, not copied
  std::vector<std::string> reads = decisionsOf(run);
  CHECK(std::any_of(reads.begin(), reads.end(), [](const std::string& r) {
    return r.rfind("device.@main.%bias=", 0) == 0 && r.find("an argument of @hexagon_epilogue") != std::string::npos;
  }));
  CHECK(std::any_of(reads.begin(), reads.end(), [](const std::string& r) {
    return r.rfind("device_copy.@main.", 0) == 0 && r.find("the result of @hexagon_epilogue is used on") != std::string::npos;
  }));
  // The planned module computes what the input computes.
  NumericCheckResult same = compareModules(mod, out);
  CHECK(same.compared);
  CHECK(same.maxAbsError == 0);
}

TEST_CASE("LegalizeOps: Extern calls become call_lowered, and PrimFunc calls on request", "[devices][legalize]") {
  const std::string text =
      "def @ext(%p: Tensor[(4), float32], Extern=1) -> Tensor[(4), float32] { negative(%p) }\n\n"
      "def @main(%x: Tensor[(4), float32]) {\n  %0 = on_device(%x, virtual_device=meta[VirtualDevice][0]);\n"
      "  %1 = @ext(%0);\n  nn.relu(%1)\n}\n";
  IRModule mod = parse(kCpuGpu + text);
  SECTION("call_tir for PrimFuncs (default)") {
    PipelineRun run;
    IRModule out = run.run("InferType,LambdaLifting,LegalizeOps", mod);
    CHECK(countCalls(out->lookup("main"), OpId::CallLowered) == 1);
    CHECK(countCalls(out->lookup("main"), OpId::CallTir) == 1);
    CHECK(countCalls(out->lookup("main"), OpId::OnDevice) == 0);
    CHECK(checkWellFormed(out).empty());
  }
  SECTION("call_lowered for PrimFuncs too") {
    PipelineRun run;
    run.ctx->setConfig(kLegalizeCallFormKey, AttrValue::string("call_lowered"));
    IRModule out = run.run("InferType,LambdaLifting,LegalizeOps", mod);
    CHECK(countCalls(out->lookup("main"), OpId::CallLowered) == 2);
    CHECK(countCalls(out->lookup("main"), OpId::CallTir) == 0);
    std::vector<std::string> reads = readsOf(*run.events("LegalizeOps")[0]);
    CHECK(std::count(reads.begin(), reads.end(), "relay.LegalizeOps.call_form=\"call_lowered\"(PassContext)") == 1);
    // The interpreter agrees before and after lowering.
    NDArray x = ramp({4}, -0.5);
    CHECK(evaluate(mod, "main", {Value(x)}).tensor().getAsDouble(0) == evaluate(out, "main", {Value(x)}).tensor().getAsDouble(0));
  }
  SECTION("a bad call form is a config error") {
    PipelineRun run;
    run.ctx->setConfig(kLegalizeCallFormKey, AttrValue::string("call_packed"));
    CHECK_THROWS_WITH(run.run("InferType,LambdaLifting,LegalizeOps", mod), Catch::Contains("must be \"call_tir\" or \"call_lowered\""));
  }
}

TEST_CASE("Well-formed: lowered forms in phase 1 and on_device after lowering are flagged", "[devices][well-formed]") {
  auto rules = [](const std::string& text) {
    std::vector<std::string> out;
    for (const Diagnostic& d : checkWellFormed(inferTypes(parse(text)))) out.push_back(d.rule);
    return out;
  };
  const std::string lowered = "def @f(%p: Tensor[(4), float32], Extern=1) -> Tensor[(4), float32] { negative(%p) }\n"
                              "def @main(%x: Tensor[(4), float32]) { call_lowered(@f, (%x,)) }\n";
  CHECK(rules("#[phase = 0]\n" + lowered).empty());  // as TVM prints it: accepted on ingestion
  CHECK(rules("#[phase = 1]\n" + lowered) == std::vector<std::string>{"wf.lowered-call-in-optimization"});
  CHECK(rules("#[phase = 2]\n" + lowered).empty());
  CHECK(rules(kCpuGpu + "#[phase = 2]\ndef @main(%x: Tensor[(4), float32]) { on_device(%x, virtual_device=meta[VirtualDevice][0]) }") ==
        std::vector<std::string>{"wf.device-annotation-after-lowering"});
}

TEST_CASE("Attribute timeline: PlanDevices' parameter devices are rows", "[devices][workbench]") {
  auto registry = std::make_shared<PassRegistry>();
  registerBuiltinPasses(*registry);
  Workbench wb(registry);
  wb.loadText(kCpuGpu + "def @main(%a: Tensor[(2), float32]) {\n  negative(%a)\n}\n", "t.relay");
  wb.setPipeline("InferType,PlanDevices");
  wb.run();
  AttrTimelineQuery q;
  q.key = "virtual_device(%a)";
  AttrTimeline t = wb.attrTimeline(q);
  REQUIRE(t.rows.size() == 1);
  CHECK(t.rows[0].function == "main");
  CHECK(t.rows[0].cells.back().value == "meta[VirtualDevice][0] (cpu:0 (target \"llvm\"))");
}
