# from tvm.script import ir as I
# from tvm.script import relax as R

# No inner function: LambdaLift (accepted for LambdaLifting) leaves the module alone.
@I.ir_module
class Module:
    @R.function(private=True)
    def helper(a: R.Tensor((3,), dtype="float32")) -> R.Tensor((3,), dtype="float32"):
        s: R.Tensor((3,), dtype="float32") = R.exp(a)
        return s

    @R.function
    def main(x: R.Tensor((3,), dtype="float32")) -> R.Tensor((3,), dtype="float32"):
        cls = Module
        gv: R.Tensor((3,), dtype="float32") = cls.helper(x)
        return gv
