# from tvm.script import ir as I
# from tvm.script import relax as R

# A rank-0 constant operand is inlined into the kernel, not passed to call_tir.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        gv: R.Tensor((2, 3), dtype="float32") = R.add(x, R.const(1.0, "float32"))
        return gv
