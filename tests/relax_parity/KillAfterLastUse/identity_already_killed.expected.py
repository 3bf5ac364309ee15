# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        a: R.Tensor((4,), dtype="float32") = R.exp(x)
        b: R.Tensor((4,), dtype="float32") = R.add(a, x)
        _: R.Tuple = R.memory.kill_tensor(a)
        return b
