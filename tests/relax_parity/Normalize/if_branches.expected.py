# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(c: R.Tensor((), dtype="bool"), x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        if c:
            gv: R.Tensor((2,), dtype="float32") = R.add(x, x)
            y: R.Tensor((2,), dtype="float32") = R.multiply(gv, x)
        else:
            gv1: R.Tensor((2,), dtype="float32") = R.negative(x)
            y: R.Tensor((2,), dtype="float32") = R.exp(gv1)
        return y
