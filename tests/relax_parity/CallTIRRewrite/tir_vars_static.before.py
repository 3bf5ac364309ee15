# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# tir_vars with a known value: passed after the output as an int64 scalar.
# (TVM 0.25 emits R.call_tir_dyn(cls.scale, (x, alloc, R.shape([4]))), an op
# passlab does not have; the PrimFunc receives the same arguments.)
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def scale(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32"), k: T.int64):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        gv = R.call_tir(cls.scale, (x,), out_sinfo=R.Tensor((4,), dtype="float32"), tir_vars=R.shape([4]))
        return gv
