# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# One call_tir: its output is allocated, the PrimFunc is called with it, and
# the binding reads the allocation.
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def sigmoid(a: T.Buffer((T.int64(3), T.int64(5)), "float32"), out: T.Buffer((T.int64(3), T.int64(5)), "float32")):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((3, 5), dtype="float32")) -> R.Tensor((3, 5), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        gv = R.call_tir(cls.sigmoid, (x,), out_sinfo=R.Tensor((3, 5), dtype="float32"))
        return gv
