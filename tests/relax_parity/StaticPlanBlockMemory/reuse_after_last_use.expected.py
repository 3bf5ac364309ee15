# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def exp(a: T.Buffer((T.int64(4), T.int64(4)), "float32"), out: T.Buffer((T.int64(4), T.int64(4)), "float32")):
        T.evaluate(0)

    @T.prim_func(private=True)
    def relu(a: T.Buffer((T.int64(4), T.int64(4)), "float32"), out: T.Buffer((T.int64(4), T.int64(4)), "float32")):
        T.evaluate(0)

    @T.prim_func(private=True)
    def negative(a: T.Buffer((T.int64(4), T.int64(4)), "float32"), out: T.Buffer((T.int64(4), T.int64(4)), "float32")):
        T.evaluate(0)

    @T.prim_func(private=True)
    def sigmoid(a: T.Buffer((T.int64(4), T.int64(4)), "float32"), out: T.Buffer((T.int64(4), T.int64(4)), "float32")):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((4, 4), dtype="float32")) -> R.Tensor((4, 4), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        storage: R.Object = R.memory.alloc_storage(R.shape([64]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc: R.Tensor((4, 4), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([4, 4]), R.dtype("float32"), R.prim_value(0))
        _: R.Tuple = cls.exp(x, alloc)
        lv: R.Tensor((4, 4), dtype="float32") = alloc
        storage1: R.Object = R.memory.alloc_storage(R.shape([64]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc1: R.Tensor((4, 4), dtype="float32") = R.memory.alloc_tensor(storage1, R.prim_value(0), R.shape([4, 4]), R.dtype("float32"), R.prim_value(0))
        _1: R.Tuple = cls.relu(lv, alloc1)
        lv1: R.Tensor((4, 4), dtype="float32") = alloc1
        alloc2: R.Tensor((4, 4), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([4, 4]), R.dtype("float32"), R.prim_value(0))
        _2: R.Tuple = cls.negative(lv1, alloc2)
        lv2: R.Tensor((4, 4), dtype="float32") = alloc2
        alloc3: R.Tensor((4, 4), dtype="float32") = R.builtin.alloc_tensor(R.shape([4, 4]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _3: R.Tuple = cls.sigmoid(lv2, alloc3)
        gv: R.Tensor((4, 4), dtype="float32") = alloc3
        return gv
