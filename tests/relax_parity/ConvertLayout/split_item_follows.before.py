# from tvm.script import ir as I
# from tvm.script import relax as R

# A part of a converted split keeps the new layout: relu follows it, and only
# the block output is permuted back.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, 6, 6), dtype="float32"), w: R.Tensor((4, 3, 3, 3), dtype="float32")) -> R.Tensor((1, 2, 4, 4), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((1, 4, 4, 4), dtype="float32") = R.nn.conv2d(x, w, out_dtype="float32")
            lv1: R.Tuple(R.Tensor((1, 2, 4, 4), dtype="float32"), R.Tensor((1, 2, 4, 4), dtype="float32")) = R.split(lv, indices_or_sections=2, axis=1)
            lv2: R.Tensor((1, 2, 4, 4), dtype="float32") = lv1[1]
            gv: R.Tensor((1, 2, 4, 4), dtype="float32") = R.nn.relu(lv2)
            R.output(gv)
        return gv
