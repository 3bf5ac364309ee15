# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# tir_var_lower_bound (TVM's attribute) narrows the range tir_var_upper_bound
# opens: n lies in [4, 8], so (16 - n,) is at most 12 floats (48 bytes), not
# the 16 it would be from n = 0. Planned as static tokens of that size; the
# returned tensor is not planned.
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def fill(A: T.Buffer((T.int64(8),), "float32"), B: T.Buffer((T.int64(12),), "float32")):
        T.evaluate(0)

    @T.prim_func(private=True)
    def step(A: T.Buffer((T.int64(12),), "float32"), B: T.Buffer((T.int64(12),), "float32")):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor(("n",), dtype="float32")) -> R.Tensor((16 - n,), dtype="float32"):
        n = T.int64()
        R.func_attr({"tir_var_upper_bound": {"n": 8}, "tir_var_lower_bound": {"n": 4}, "relax.force_pure": True})
        cls = Module
        alloc: R.Tensor((16 - n,), dtype="float32") = R.builtin.alloc_tensor(R.shape([16 - n]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _: R.Tuple = cls.fill(x, alloc)
        alloc1: R.Tensor((16 - n,), dtype="float32") = R.builtin.alloc_tensor(R.shape([16 - n]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _1: R.Tuple = cls.step(alloc, alloc1)
        alloc2: R.Tensor((16 - n,), dtype="float32") = R.builtin.alloc_tensor(R.shape([16 - n]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _2: R.Tuple = cls.step(alloc1, alloc2)
        alloc3: R.Tensor((16 - n,), dtype="float32") = R.builtin.alloc_tensor(R.shape([16 - n]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _3: R.Tuple = cls.step(alloc2, alloc3)
        return alloc3
