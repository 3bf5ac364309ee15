# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# R.reshape becomes the VM's reshape builtin, a packed call with the target
# shape as an R.shape value and the result type as its type argument.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 6), dtype="float32")) -> R.Tensor((3, 4), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        y: R.Tensor((3, 4), dtype="float32") = R.reshape(x, R.shape([3, 4]))
        return y
