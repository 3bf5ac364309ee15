# from tvm.script import ir as I
# from tvm.script import relax as R

# layer_norm follows NHWC with its axis found in it (W: 3 becomes 2).
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, 6, 6), dtype="float32"), w: R.Tensor((4, 3, 3, 3), dtype="float32"), gamma: R.Tensor((4,), dtype="float32"), beta: R.Tensor((4,), dtype="float32")) -> R.Tensor((1, 4, 4, 4), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((1, 4, 4, 4), dtype="float32") = R.nn.conv2d(x, w, out_dtype="float32")
            gv: R.Tensor((1, 4, 4, 4), dtype="float32") = R.nn.layer_norm(lv, gamma, beta, axes=[-1])
            R.output(gv)
        return gv
