# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function(pure=False)
    def main(w: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        a: R.Tensor((4,), dtype="float32") = R.multiply(w, w)
        c: R.Tensor((4,), dtype="float32") = R.add(a, w)
        _: R.Tuple = R.memory.kill_tensor(a)
        e: R.Tensor((4,), dtype="float32") = R.exp(c)
        _1: R.Tuple = R.memory.kill_tensor(c)
        return e
