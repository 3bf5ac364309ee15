# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# A tuple is a VM object (R.vm.kill_object); a constant binding lives in the
# constant pool and is never killed.
@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        k: R.Tensor((), dtype="float32") = R.const(2.0, "float32")
        a: R.Tensor((4,), dtype="float32") = R.exp(x)
        t: R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")) = (a, x)
        b: R.Tensor((4,), dtype="float32") = t[0]
        c: R.Tensor((4,), dtype="float32") = R.multiply(b, k)
        return c
