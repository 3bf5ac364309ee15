// R.nn.group_norm through the passes that handle it: LegalizeOps (TVM's
// group_norm PrimFunc), SimplifyInference (the elementwise form the Relay-form
// lowering takes; Normalize binds its nested calls for the Relax form),
// ConvertLayout and relax.default to the host JIT, each
// keeping the values the interpreter computes for the op itself.
#include <catch2/catch.hpp>

#include <string>

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
