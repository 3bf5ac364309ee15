# from tvm.script import ir as I
# from tvm.script import relax as R

# R.mean with keepdims follows NHWC (its axes found in the new layout) and
# keeps it, so the block output is permuted back; R.max without keepdims
# leaves N and C in their original order, so nothing is permuted after it.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, 6, 6), dtype="float32"), w: R.Tensor((4, 3, 3, 3), dtype="float32")) -> R.Tuple(R.Tensor((1, 4, 1, 1), dtype="float32"), R.Tensor((1, 4), dtype="float32")):
        with R.dataflow():
            lv: R.Tensor((1, 4, 4, 4), dtype="float32") = R.nn.conv2d(x, w, out_dtype="float32")
            gv: R.Tensor((1, 4, 1, 1), dtype="float32") = R.mean(lv, axis=[2, 3], keepdims=True)
            gv1: R.Tensor((1, 4), dtype="float32") = R.max(lv, axis=[-2, -1])
            R.output(gv, gv1)
        return (gv, gv1)
