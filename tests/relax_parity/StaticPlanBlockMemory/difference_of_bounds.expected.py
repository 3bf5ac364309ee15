# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def split(A: T.Buffer((T.int64(10), T.int64(3)), "float32"), B: T.Buffer((T.int64(3), T.int64(10)), "float32")):
        T.evaluate(0)

    @T.prim_func(private=True)
    def step(A: T.Buffer((T.int64(3), T.int64(10)), "float32"), B: T.Buffer((T.int64(3), T.int64(10)), "float32")):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32")) -> R.Tensor((m, n - m), dtype="float32"):
        n = T.int64()
        m = T.int64()
        R.func_attr({"tir_var_upper_bound": {"m": 3, "n": 10}, "relax.force_pure": True})
        cls = Module
        storage: R.Object = R.memory.alloc_storage(R.shape([120]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc: R.Tensor((m, n - m), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([m, n - m]), R.dtype("float32"), R.prim_value(0))
        _: R.Tuple = cls.split(x, alloc)
        storage1: R.Object = R.memory.alloc_storage(R.shape([120]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        alloc1: R.Tensor((m, n - m), dtype="float32") = R.memory.alloc_tensor(storage1, R.prim_value(0), R.shape([m, n - m]), R.dtype("float32"), R.prim_value(0))
        _1: R.Tuple = cls.step(alloc, alloc1)
        alloc2: R.Tensor((m, n - m), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([m, n - m]), R.dtype("float32"), R.prim_value(0))
        _2: R.Tuple = cls.step(alloc1, alloc2)
        alloc3: R.Tensor((m, n - m), dtype="float32") = R.builtin.alloc_tensor(R.shape([m, n - m]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _3: R.Tuple = cls.step(alloc2, alloc3)
        return alloc3
