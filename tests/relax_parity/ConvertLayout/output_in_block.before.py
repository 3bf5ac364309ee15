# from tvm.script import ir as I
# from tvm.script import relax as R

# A convolution bound straight to a block output: computed in NHWC under a new
# variable, the output variable gets it permuted back. A scalar operand follows.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 2, 4, 4), dtype="float32"), w: R.Tensor((3, 2, 1, 1), dtype="float32")) -> R.Tuple(R.Tensor((1, 3, 4, 4), dtype="float32"), R.Tensor((1, 3, 4, 4), dtype="float32")):
        with R.dataflow():
            gv: R.Tensor((1, 3, 4, 4), dtype="float32") = R.nn.conv2d(x, w, out_dtype="float32")
            gv1: R.Tensor((1, 3, 4, 4), dtype="float32") = R.add(gv, R.const(1.0, "float32"))
            R.output(gv, gv1)
        return (gv, gv1)
