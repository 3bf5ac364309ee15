# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

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
        alloc: R.Tensor((2, 3), dtype="float32") = R.builtin.alloc_tensor(R.shape([2, 3]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _: R.Tuple = cls.exp(x, alloc)
        lv: R.Tensor((2, 3), dtype="float32") = alloc
        lv1: R.Tensor((6,), dtype="float32") = R.reshape(lv, R.shape([6]))
        alloc1: R.Tensor((6,), dtype="float32") = R.builtin.alloc_tensor(R.shape([6]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _1: R.Tuple = cls.add(lv1, R.const(1.5, "float32"), alloc1)
        gv: R.Tensor((6,), dtype="float32") = alloc1
        return gv
