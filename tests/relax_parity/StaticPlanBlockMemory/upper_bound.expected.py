# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def exp(A: T.Buffer((T.int64(2), T.int64(4)), "float32"), B: T.Buffer((T.int64(2), T.int64(4)), "float32")):
        T.evaluate(0)

    @T.prim_func(private=True)
    def pad(A: T.Buffer((T.int64(2), T.int64(4)), "float32"), B: T.Buffer((T.int64(10),), "float32")):
        T.evaluate(0)

    @T.prim_func(private=True)
    def unpad(A: T.Buffer((T.int64(10),), "float32"), B: T.Buffer((T.int64(2), T.int64(4)), "float32")):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((2, "n"), dtype="float32")) -> R.Tensor((2, "n"), dtype="float32"):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 4}, "relax.force_pure": True})
        cls = Module
        storage: R.Object = R.memory.alloc_storage(R.shape([32]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc: R.Tensor((2, n), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([2, n]), R.dtype("float32"), R.prim_value(0))
        _: R.Tuple = cls.exp(x, alloc)
        storage1: R.Object = R.memory.alloc_storage(R.shape([40]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc1: R.Tensor((2 * n + 2,), dtype="float32") = R.memory.alloc_tensor(storage1, R.prim_value(0), R.shape([2 * n + 2]), R.dtype("float32"), R.prim_value(0))
        _1: R.Tuple = cls.pad(alloc, alloc1)
        alloc2: R.Tensor((2, n), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([2, n]), R.dtype("float32"), R.prim_value(0))
        _2: R.Tuple = cls.unpad(alloc1, alloc2)
        alloc3: R.Tensor((2, n), dtype="float32") = R.builtin.alloc_tensor(R.shape([2, n]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _3: R.Tuple = cls.exp(alloc2, alloc3)
        return alloc3
