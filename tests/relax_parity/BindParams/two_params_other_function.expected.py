# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), dtype="int32"), k: R.Tensor((), dtype="int32")) -> R.Tensor((2,), dtype="int32"):
        gv: R.Tensor((2,), dtype="int32") = R.add(x, k)
        return gv

    @R.function
    def scale(x: R.Tensor((2,), dtype="int32")) -> R.Tensor((2,), dtype="int32"):
        lv: R.Tensor((2,), dtype="int32") = R.multiply(x, R.const(3, "int32"))
        gv: R.Tensor((2,), dtype="int32") = R.subtract(lv, R.const(-1, "int32"))
        return gv
