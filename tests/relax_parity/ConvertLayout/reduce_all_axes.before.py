# from tvm.script import ir as I
# from tvm.script import relax as R

# A reduction over every axis (no axis given): TVM writes the axes out, as
# positions in the new layout, and the scalar result has no layout to restore.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 2, 5, 5), dtype="float32"), w: R.Tensor((3, 2, 3, 3), dtype="float32")) -> R.Tensor((), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((1, 3, 3, 3), dtype="float32") = R.nn.conv2d(x, w, out_dtype="float32")
            lv1: R.Tensor((1, 3, 3, 3), dtype="float32") = R.nn.relu(lv)
            gv: R.Tensor((), dtype="float32") = R.sum(lv1)
            R.output(gv)
        return gv
