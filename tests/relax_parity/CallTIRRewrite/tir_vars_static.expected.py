# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def scale(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32"), k: T.int64):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        alloc: R.Tensor((4,), dtype="float32") = R.builtin.alloc_tensor(R.shape([4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _: R.Tuple = cls.scale(x, alloc, R.const(4, "int64"))
        gv: R.Tensor((4,), dtype="float32") = alloc
        return gv
