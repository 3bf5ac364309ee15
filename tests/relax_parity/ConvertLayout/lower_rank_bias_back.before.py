# from tvm.script import ir as I
# from tvm.script import relax as R

# A 3-d bias broadcasts against the trailing axes: TVM's binary layout rule
# does not follow then, so the convolution's result is permuted back first.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3, 6, 6), dtype="float32"), w: R.Tensor((5, 3, 1, 1), dtype="float32"), b: R.Tensor((5, 1, 1), dtype="float32")) -> R.Tensor((2, 5, 6, 6), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((2, 5, 6, 6), dtype="float32") = R.nn.conv2d(x, w, out_dtype="float32")
            gv: R.Tensor((2, 5, 6, 6), dtype="float32") = R.multiply(lv, b)
            R.output(gv)
        return gv
