# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def split_halves(a: T.Buffer((T.int64(4), T.int64(2)), "int32"), lo: T.Buffer((T.int64(2), T.int64(2)), "int32"), hi: T.Buffer((T.int64(2), T.int64(2)), "int32")):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((4, 2), dtype="int32")) -> R.Tensor((2, 2), dtype="int32"):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        alloc: R.Tensor((2, 2), dtype="int32") = R.builtin.alloc_tensor(R.shape([2, 2]), R.dtype("int32"), R.prim_value(0), R.str("global"))
        alloc1: R.Tensor((2, 2), dtype="int32") = R.builtin.alloc_tensor(R.shape([2, 2]), R.dtype("int32"), R.prim_value(0), R.str("global"))
        _: R.Tuple = cls.split_halves(x, alloc, alloc1)
        parts: R.Tuple(R.Tensor((2, 2), dtype="int32"), R.Tensor((2, 2), dtype="int32")) = (alloc, alloc1)
        hi: R.Tensor((2, 2), dtype="int32") = parts[1]
        return hi
