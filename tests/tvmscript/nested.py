# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3,), dtype="float32")) -> R.Tensor((3,), dtype="float32"):
        @R.function
        def inner(y: R.Tensor((3,), dtype="float32")) -> R.Tensor((3,), dtype="float32"):
            z: R.Tensor((3,), dtype="float32") = R.tanh(y)
            return z

        a: R.Tensor((3,), dtype="float32") = inner(x)
        b: R.Tensor((3,), dtype="float32") = R.add(a, R.const(1.5, "float32"))
        return b
