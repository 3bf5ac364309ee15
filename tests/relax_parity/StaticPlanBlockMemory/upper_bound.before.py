# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# tir_var_upper_bound (TVM's attribute): symbolic allocations are planned as
# static tokens of their largest size (n = 4: (2, n) is 32 bytes, (2 * n + 2,)
# is 40) and reuse storages as static ones do; the tensors keep their
# symbolic shapes.
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
        alloc: R.Tensor((2, n), dtype="float32") = R.builtin.alloc_tensor(R.shape([2, n]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _: R.Tuple = cls.exp(x, alloc)
        alloc1: R.Tensor((2 * n + 2,), dtype="float32") = R.builtin.alloc_tensor(R.shape([2 * n + 2]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _1: R.Tuple = cls.pad(alloc, alloc1)
        alloc2: R.Tensor((2, n), dtype="float32") = R.builtin.alloc_tensor(R.shape([2, n]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _2: R.Tuple = cls.unpad(alloc1, alloc2)
        alloc3: R.Tensor((2, n), dtype="float32") = R.builtin.alloc_tensor(R.shape([2, n]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _3: R.Tuple = cls.exp(alloc2, alloc3)
        return alloc3
