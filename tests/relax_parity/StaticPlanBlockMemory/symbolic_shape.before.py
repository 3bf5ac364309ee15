# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# Symbolic allocations are planned with TVM's token size (the static dims
# folded into the constant: 32 * n bytes) and reuse a free storage only of an
# equal size; the returned one stays an R.builtin.alloc_tensor.
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def double(A: T.Buffer((T.int64(4), T.int64(8)), "float32"), B: T.Buffer((T.int64(4), T.int64(8)), "float32")):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor(("n", 8), dtype="float32")) -> R.Tensor(("n", 8), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        cls = Module
        alloc: R.Tensor((n, 8), dtype="float32") = R.builtin.alloc_tensor(R.shape([n, 8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _: R.Tuple = cls.double(x, alloc)
        alloc1: R.Tensor((n, 8), dtype="float32") = R.builtin.alloc_tensor(R.shape([n, 8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _1: R.Tuple = cls.double(alloc, alloc1)
        alloc2: R.Tensor((n, 8), dtype="float32") = R.builtin.alloc_tensor(R.shape([n, 8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _2: R.Tuple = cls.double(alloc1, alloc2)
        alloc3: R.Tensor((n, 8), dtype="float32") = R.builtin.alloc_tensor(R.shape([n, 8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _3: R.Tuple = cls.double(alloc2, alloc3)
        return alloc3
