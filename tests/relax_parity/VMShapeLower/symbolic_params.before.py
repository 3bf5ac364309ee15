# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# Symbolic dims get heap slots in order of first appearance (n: 0, m: 1):
# stored on first sight (code 1), asserted against the slot afterwards (code 3).
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4, "m"), dtype="float32"), y: R.Tensor(("m", "n"), dtype="int32")) -> R.Tensor(("n", 4, "m"), dtype="float32"):
        n = T.int64()
        m = T.int64()
        R.func_attr({"relax.force_pure": True})
        return x
