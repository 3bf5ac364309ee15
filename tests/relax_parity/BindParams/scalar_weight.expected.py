# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((4,), dtype="float32") = R.multiply(x, R.const(0.5, "float32"))
            gv: R.Tensor((4,), dtype="float32") = R.add(lv, R.const(0.5, "float32"))
            R.output(gv)
        return gv
