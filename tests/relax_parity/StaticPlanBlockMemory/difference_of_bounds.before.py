# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# A dim that shrinks as a variable grows (n - m): its largest value comes from
# each variable's range, n at its upper bound 10 and m at its lower bound 0
# (the default without tir_var_lower_bound), so (m, n - m) is at most 3 x 10
# floats = 120 bytes.
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
        alloc: R.Tensor((m, n - m), dtype="float32") = R.builtin.alloc_tensor(R.shape([m, n - m]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _: R.Tuple = cls.split(x, alloc)
        alloc1: R.Tensor((m, n - m), dtype="float32") = R.builtin.alloc_tensor(R.shape([m, n - m]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _1: R.Tuple = cls.step(alloc, alloc1)
        alloc2: R.Tensor((m, n - m), dtype="float32") = R.builtin.alloc_tensor(R.shape([m, n - m]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _2: R.Tuple = cls.step(alloc1, alloc2)
        alloc3: R.Tensor((m, n - m), dtype="float32") = R.builtin.alloc_tensor(R.shape([m, n - m]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _3: R.Tuple = cls.step(alloc2, alloc3)
        return alloc3
