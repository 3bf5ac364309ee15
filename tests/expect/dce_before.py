# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32"), y: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        with R.dataflow():
            unused: R.Tensor((2, 3), dtype="float32") = R.multiply(x, y)
            lv: R.Tensor((2, 3), dtype="float32") = R.add(x, y)
            gv: R.Tensor((2, 3), dtype="float32") = R.nn.relu(lv)
            R.output(gv)
        return gv
