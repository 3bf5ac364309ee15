# from tvm.script import ir as I
# from tvm.script import relax as R

# TVM's name for LambdaLifting: each inner function becomes a private global
# named after its function and variable.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3,), dtype="float32")) -> R.Tensor((3,), dtype="float32"):
        @R.function
        def square(a: R.Tensor((3,), dtype="float32")) -> R.Tensor((3,), dtype="float32"):
            s: R.Tensor((3,), dtype="float32") = R.multiply(a, a)
            return s

        @R.function
        def twice(b: R.Tensor((3,), dtype="float32")) -> R.Tensor((3,), dtype="float32"):
            t: R.Tensor((3,), dtype="float32") = R.add(b, b)
            return t

        lv: R.Tensor((3,), dtype="float32") = square(x)
        gv: R.Tensor((3,), dtype="float32") = twice(lv)
        return gv
