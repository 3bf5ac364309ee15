# from tvm.script import ir as I
# from tvm.script import relax as R

# R.concat takes the layout of its first part (the other part, still NCHW, is
# permuted to it) with the axis found in it; R.split keeps the layout in every
# part, and the tuple it returns is rebuilt from its fields permuted back.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, 6, 6), dtype="float32"), w: R.Tensor((2, 3, 3, 3), dtype="float32"), y: R.Tensor((1, 2, 4, 4), dtype="float32")) -> R.Tuple(R.Tensor((1, 2, 4, 4), dtype="float32"), R.Tensor((1, 2, 4, 4), dtype="float32")):
        with R.dataflow():
            lv: R.Tensor((1, 2, 4, 4), dtype="float32") = R.nn.conv2d(x, w, out_dtype="float32")
            lv1: R.Tensor((1, 2, 4, 4), dtype="float32") = R.nn.relu(lv)
            lv2: R.Tensor((1, 4, 4, 4), dtype="float32") = R.concat((lv1, y), axis=1)
            gv: R.Tuple(R.Tensor((1, 2, 4, 4), dtype="float32"), R.Tensor((1, 2, 4, 4), dtype="float32")) = R.split(lv2, indices_or_sections=2, axis=1)
            R.output(gv)
        return gv
