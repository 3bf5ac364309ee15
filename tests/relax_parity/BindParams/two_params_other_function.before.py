# from tvm.script import ir as I
# from tvm.script import relax as R

# Two parameters of a function other than main are bound; main is untouched.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2,), dtype="int32"), k: R.Tensor((), dtype="int32")) -> R.Tensor((2,), dtype="int32"):
        gv: R.Tensor((2,), dtype="int32") = R.add(x, k)
        return gv

    @R.function
    def scale(x: R.Tensor((2,), dtype="int32"), a: R.Tensor((), dtype="int32"), b: R.Tensor((), dtype="int32")) -> R.Tensor((2,), dtype="int32"):
        lv: R.Tensor((2,), dtype="int32") = R.multiply(x, a)
        gv: R.Tensor((2,), dtype="int32") = R.subtract(lv, b)
        return gv
