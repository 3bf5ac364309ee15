# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 4), dtype="float32"), y: R.Tensor((1, 4), dtype="float32")) -> R.Tensor((1, 4), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((1, 4), dtype="float32") = R.add(x, y)
            lv1: R.Tensor((1, 4), dtype="float32") = R.multiply(lv, R.const(1.0, "float32"))
            gv: R.Tensor((1, 4), dtype="float32") = R.nn.relu(lv1)
            R.output(gv)
        return gv
