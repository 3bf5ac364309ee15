# from tvm.script import ir as I
# from tvm.script import relax as R

# out_dtype=float16: conv2d accumulates in float16, so no cast follows it.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, 8, 8), dtype="float32"), w: R.Tensor((4, 3, 3, 3), dtype="float32")) -> R.Tensor((1, 4, 6, 6), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((1, 4, 6, 6), dtype="float32") = R.nn.conv2d(x, w, out_dtype="float32")
            gv: R.Tensor((1, 4, 6, 6), dtype="float32") = R.nn.relu(lv)
            R.output(gv)
        return gv
