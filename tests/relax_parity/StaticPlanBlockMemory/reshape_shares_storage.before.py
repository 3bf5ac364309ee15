# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# R.reshape is a view: its result uses the storage of its input, which stays
# live until relu reads the reshaped tensor; the storage is free for the
# third allocation only after that.
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def exp(a: T.Buffer((T.int64(8),), "float32"), out: T.Buffer((T.int64(8),), "float32")):
        T.evaluate(0)

    @T.prim_func(private=True)
    def relu(a: T.Buffer((T.int64(8),), "float32"), out: T.Buffer((T.int64(8),), "float32")):
        T.evaluate(0)

    @T.prim_func(private=True)
    def negative(a: T.Buffer((T.int64(8),), "float32"), out: T.Buffer((T.int64(8),), "float32")):
        T.evaluate(0)

    @T.prim_func(private=True)
    def sigmoid(a: T.Buffer((T.int64(8),), "float32"), out: T.Buffer((T.int64(8),), "float32")):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((8,), dtype="float32")) -> R.Tensor((2, 4), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        alloc: R.Tensor((8,), dtype="float32") = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _: R.Tuple = cls.exp(x, alloc)
        lv: R.Tensor((2, 4), dtype="float32") = R.reshape(alloc, R.shape([2, 4]))
        lv1: R.Tensor((8,), dtype="float32") = R.reshape(lv, R.shape([8]))
        alloc1: R.Tensor((8,), dtype="float32") = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _1: R.Tuple = cls.relu(lv1, alloc1)
        alloc2: R.Tensor((8,), dtype="float32") = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _2: R.Tuple = cls.negative(alloc1, alloc2)
        alloc3: R.Tensor((8,), dtype="float32") = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _3: R.Tuple = cls.sigmoid(alloc2, alloc3)
        gv: R.Tensor((2, 4), dtype="float32") = R.reshape(alloc3, R.shape([2, 4]))
        return gv
