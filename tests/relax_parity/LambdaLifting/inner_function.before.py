# from tvm.script import ir as I
# from tvm.script import relax as R

# TVM calls this pass LambdaLift: the inner function becomes the private global
# main_inner, called through the module.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32"), y: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        @R.function
        def inner(a: R.Tensor((2, 3), dtype="float32"), b: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
            s: R.Tensor((2, 3), dtype="float32") = R.add(a, b)
            return s

        gv: R.Tensor((2, 3), dtype="float32") = inner(x, y)
        return gv
