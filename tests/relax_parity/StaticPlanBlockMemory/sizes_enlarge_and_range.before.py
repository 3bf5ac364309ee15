# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# Sizes: the 40-byte pad result takes the free 32-byte storage of exp's result
# (a smaller storage within 16x is enlarged); the 1024-byte tile result finds
# only a 32-byte storage free, more than 16x smaller, and gets a new one.
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def exp(a: T.Buffer((T.int64(8),), "float32"), out: T.Buffer((T.int64(8),), "float32")):
        T.evaluate(0)

    @T.prim_func(private=True)
    def relu(a: T.Buffer((T.int64(8),), "float32"), out: T.Buffer((T.int64(8),), "float32")):
        T.evaluate(0)

    @T.prim_func(private=True)
    def pad(a: T.Buffer((T.int64(8),), "float32"), out: T.Buffer((T.int64(10),), "float32")):
        T.evaluate(0)

    @T.prim_func(private=True)
    def tile(a: T.Buffer((T.int64(10),), "float32"), out: T.Buffer((T.int64(256),), "float32")):
        T.evaluate(0)

    @T.prim_func(private=True)
    def negative(a: T.Buffer((T.int64(256),), "float32"), out: T.Buffer((T.int64(256),), "float32")):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((8,), dtype="float32")) -> R.Tensor((256,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        alloc: R.Tensor((8,), dtype="float32") = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _: R.Tuple = cls.exp(x, alloc)
        lv: R.Tensor((8,), dtype="float32") = alloc
        alloc1: R.Tensor((8,), dtype="float32") = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _1: R.Tuple = cls.relu(lv, alloc1)
        lv1: R.Tensor((8,), dtype="float32") = alloc1
        alloc2: R.Tensor((10,), dtype="float32") = R.builtin.alloc_tensor(R.shape([10]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _2: R.Tuple = cls.pad(lv1, alloc2)
        lv2: R.Tensor((10,), dtype="float32") = alloc2
        alloc3: R.Tensor((256,), dtype="float32") = R.builtin.alloc_tensor(R.shape([256]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _3: R.Tuple = cls.tile(lv2, alloc3)
        lv3: R.Tensor((256,), dtype="float32") = alloc3
        alloc4: R.Tensor((256,), dtype="float32") = R.builtin.alloc_tensor(R.shape([256]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _4: R.Tuple = cls.negative(lv3, alloc4)
        gv: R.Tensor((256,), dtype="float32") = alloc4
        return gv
