# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# The float32 storage of exp's result is free when the int32 cast result is
# allocated, and has the same 64 bytes, but storages are reused per dtype:
# the int32 tensor gets a storage of its own.
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def exp(a: T.Buffer((T.int64(2), T.int64(8)), "float32"), out: T.Buffer((T.int64(2), T.int64(8)), "float32")):
        T.evaluate(0)

    @T.prim_func(private=True)
    def relu(a: T.Buffer((T.int64(2), T.int64(8)), "float32"), out: T.Buffer((T.int64(2), T.int64(8)), "float32")):
        T.evaluate(0)

    @T.prim_func(private=True)
    def to_int(a: T.Buffer((T.int64(2), T.int64(8)), "float32"), out: T.Buffer((T.int64(2), T.int64(8)), "int32")):
        T.evaluate(0)

    @T.prim_func(private=True)
    def negative(a: T.Buffer((T.int64(2), T.int64(8)), "int32"), out: T.Buffer((T.int64(2), T.int64(8)), "int32")):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((2, 8), dtype="float32")) -> R.Tensor((2, 8), dtype="int32"):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        alloc: R.Tensor((2, 8), dtype="float32") = R.builtin.alloc_tensor(R.shape([2, 8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _: R.Tuple = cls.exp(x, alloc)
        lv: R.Tensor((2, 8), dtype="float32") = alloc
        alloc1: R.Tensor((2, 8), dtype="float32") = R.builtin.alloc_tensor(R.shape([2, 8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _1: R.Tuple = cls.relu(lv, alloc1)
        lv1: R.Tensor((2, 8), dtype="float32") = alloc1
        alloc2: R.Tensor((2, 8), dtype="int32") = R.builtin.alloc_tensor(R.shape([2, 8]), R.dtype("int32"), R.prim_value(0), R.str("global"))
        _2: R.Tuple = cls.to_int(lv1, alloc2)
        lv2: R.Tensor((2, 8), dtype="int32") = alloc2
        alloc3: R.Tensor((2, 8), dtype="int32") = R.builtin.alloc_tensor(R.shape([2, 8]), R.dtype("int32"), R.prim_value(0), R.str("global"))
        _3: R.Tuple = cls.negative(lv2, alloc3)
        gv: R.Tensor((2, 8), dtype="int32") = alloc3
        return gv
