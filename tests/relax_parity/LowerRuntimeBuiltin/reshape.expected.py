# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 6), dtype="float32")) -> R.Tensor((3, 4), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        y: R.Tensor((3, 4), dtype="float32") = R.call_packed("vm.builtin.reshape", x, R.shape([3, 4]), sinfo_args=(R.Tensor((3, 4), dtype="float32"),))
        return y
