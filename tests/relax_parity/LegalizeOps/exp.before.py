# from tvm.script import ir as I
# from tvm.script import relax as R

# Unary math kernels are named tir_<op>, away from libc's exp, sqrt, ...
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        gv: R.Tensor((2, 3), dtype="float32") = R.exp(x)
        return gv
