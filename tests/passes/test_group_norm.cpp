// R.nn.group_norm through the passes that handle it: LegalizeOps (TVM's
// group_norm PrimFunc), SimplifyInference (the elementwise form the Relay-form
// lowering takes; Normalize binds its nested calls for the Relax form),
// ConvertLayout and relax.default to the host JIT, each
// keeping the values the interpreter computes for the op itself.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "core/pass/registry.h"
#include "core/workbench/workbench.h"
#include "passes/registry.h"
#include "repl/interpreter.h"

using namespace passlab;

namespace {

/// The largest "max abs X" of the `numeric` command's table.
double largestNumericError(const std::string& table) {
  double worst = 0;
  for (size_t at = table.find("max abs "); at != std::string::npos; at = table.find("max abs ", at + 1))
    worst = std::max(worst, std::stod(table.substr(at + 8)));
  return worst;
}

std::string groupNormModule(const std::string& attrs) {
  return R"(# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3, 6, 6), dtype="float32"), w: R.Tensor((6, 3, 3, 3), dtype="float32"), g: R.Tensor((6,), dtype="float32"), b: R.Tensor((6,), dtype="float32")) -> R.Tensor((2, 6, 4, 4), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((2, 6, 4, 4), dtype="float32") = R.nn.conv2d(x, w, out_dtype="float32")
            lv1: R.Tensor((2, 6, 4, 4), dtype="float32") = R.nn.group_norm(lv, g, b, )" +
         attrs + R"()
            gv: R.Tensor((2, 6, 4, 4), dtype="float32") = R.nn.relu(lv1)
            R.output(gv)
        return gv
)";
}

}  // namespace

TEST_CASE("group_norm: LegalizeOps, SimplifyInference and ConvertLayout keep the interpreter's values; it runs on the host",
          "[relax][group-norm]") {
  auto [attrs, pipeline, kernel] = GENERATE(table<std::string, std::string, bool>({
      {"num_groups=3, channel_axis=1, axes=[2, 3]", "relax.default", true},
      {"num_groups=2, channel_axis=-3, axes=[-1], epsilon=0.01", "relax.default", true},
      {"num_groups=6, channel_axis=1, axes=[2, 3], center=False", "relax.default", true},
      {"num_groups=3, channel_axis=1, axes=[2, 3], scale=False", "SimplifyInference,Normalize,relax.default", false},
      {"num_groups=3, channel_axis=1, axes=[2, 3]", "ConvertLayout{desired_layouts={relax.nn.conv2d=[NHWC,OHWI]}},relax.default", true},
  }));
  CAPTURE(attrs, pipeline);
  auto registry = std::make_shared<PassRegistry>();
  registerBuiltinPasses(*registry);
  Workbench wb{registry};
  CommandInterpreter repl{wb};
  wb.loadText(groupNormModule(attrs), "group_norm.py");
  REQUIRE(repl.runLine("set numeric-check on").ok());
  REQUIRE(repl.runLine("pipeline " + pipeline).ok());
  CommandResult run = repl.runLine("run");
  INFO(run.output() + run.error());
  REQUIRE(run.ok());
  CommandResult numeric = repl.runLine("numeric");
  REQUIRE(numeric.ok());
  INFO(numeric.output());
  CHECK(largestNumericError(numeric.output()) < 1e-4);
  const IRModule& out = wb.moduleAt(wb.cursor(), Side::After);
  // TVM's group_norm PrimFunc, or SimplifyInference's elementwise form legalized op by op.
  CHECK((out->lookup("group_norm") != nullptr) == kernel);
  CommandResult build = repl.runLine("build --run");
  INFO(build.output() + build.error());
  CHECK(build.ok());
  CHECK(build.output().find("PASS") != std::string::npos);
}

TEST_CASE("group_norm: LegalizeOps builds a repeated kernel once, but keeps apart kernels whose blocks name their input",
          "[relax][group-norm][legalize]") {
  // Two layers of the same shapes: the relus share one PrimFunc, as TVM's
  // BlockBuilder deduplicates them. group_norm names its reduction block after
  // its input ("lv_red_temp", "lv2_red_temp"), so its two PrimFuncs differ and
  // TVM keeps both (group_norm, group_norm1); batch_norm's training form
  // ("x_red" from its input x) the same, its inference form not.
  const std::string text = R"(# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 6, 4, 4), dtype="float32"), g: R.Tensor((6,), dtype="float32"), b: R.Tensor((6,), dtype="float32")) -> R.Tensor((2, 6, 4, 4), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((2, 6, 4, 4), dtype="float32") = R.nn.relu(x)
            lv1: R.Tensor((2, 6, 4, 4), dtype="float32") = R.nn.group_norm(lv, g, b, num_groups=3, channel_axis=1, axes=[2, 3])
            lv2: R.Tensor((2, 6, 4, 4), dtype="float32") = R.nn.relu(lv1)
            lv3: R.Tensor((2, 6, 4, 4), dtype="float32") = R.nn.group_norm(lv2, g, b, num_groups=3, channel_axis=1, axes=[2, 3])
            lv4: R.Tuple(R.Tensor((2, 6, 4, 4), dtype="float32"), R.Tensor((6,), dtype="float32"), R.Tensor((6,), dtype="float32")) = R.nn.batch_norm(lv3, g, b, g, b, axis=1, training=True)
            lv5: R.Tensor((2, 6, 4, 4), dtype="float32") = lv4[0]
            lv6: R.Tuple(R.Tensor((2, 6, 4, 4), dtype="float32"), R.Tensor((6,), dtype="float32"), R.Tensor((6,), dtype="float32")) = R.nn.batch_norm(lv5, g, b, g, b, axis=1, training=True)
            lv7: R.Tensor((2, 6, 4, 4), dtype="float32") = lv6[0]
            lv8: R.Tuple(R.Tensor((2, 6, 4, 4), dtype="float32"), R.Tensor((6,), dtype="float32"), R.Tensor((6,), dtype="float32")) = R.nn.batch_norm(lv7, g, b, g, b, axis=1, training=False)
            lv9: R.Tensor((2, 6, 4, 4), dtype="float32") = lv8[0]
            lv10: R.Tuple(R.Tensor((2, 6, 4, 4), dtype="float32"), R.Tensor((6,), dtype="float32"), R.Tensor((6,), dtype="float32")) = R.nn.batch_norm(lv9, g, b, g, b, axis=1, training=False)
            gv: R.Tensor((2, 6, 4, 4), dtype="float32") = lv10[0]
            R.output(gv)
        return gv
)";
  auto registry = std::make_shared<PassRegistry>();
  registerBuiltinPasses(*registry);
  Workbench wb{registry};
  CommandInterpreter repl{wb};
  wb.loadText(text, "layers.py");
  REQUIRE(repl.runLine("pipeline LegalizeOps").ok());
  CommandResult run = repl.runLine("run");
  INFO(run.output() + run.error());
  REQUIRE(run.ok());
  const IRModule& out = wb.moduleAt(wb.cursor(), Side::After);
  std::vector<std::string> kernels;
  for (const auto& [name, fn] : out->functions)
    if (name != "main") kernels.push_back(name);
  CHECK(kernels == std::vector<std::string>{"batch_norm", "batch_norm1", "batch_norm2", "group_norm", "group_norm1", "relu"});
}
