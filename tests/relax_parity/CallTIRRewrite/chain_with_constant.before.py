# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# Two call_tirs in a row, the second with a scalar constant argument; the
# op between them is not touched.
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def exp(a: T.Buffer((T.int64(2), T.int64(3)), "float32"), out: T.Buffer((T.int64(2), T.int64(3)), "float32")):
        T.evaluate(0)

    @T.prim_func(private=True)
    def add(a: T.Buffer((T.int64(6),), "float32"), b: T.Buffer((), "float32"), out: T.Buffer((T.int64(6),), "float32")):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((6,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        lv = R.call_tir(cls.exp, (x,), out_sinfo=R.Tensor((2, 3), dtype="float32"))
        lv1: R.Tensor((6,), dtype="float32") = R.reshape(lv, R.shape([6]))
        gv = R.call_tir(cls.add, (lv1, R.const(1.5, "float32")), out_sinfo=R.Tensor((6,), dtype="float32"))
        return gv
