# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3,), dtype="float32")) -> R.Tensor((3,), dtype="float32"):
        with R.dataflow():
            c: R.Tensor((), dtype="float32") = R.add(R.const(1.0, "float32"), R.const(2.0, "float32"))
            gv: R.Tensor((3,), dtype="float32") = R.multiply(x, c)
            R.output(gv)
        return gv
