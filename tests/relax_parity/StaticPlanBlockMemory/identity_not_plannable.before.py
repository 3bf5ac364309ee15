# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# Nothing to plan: exp's result is read by R.add (a Relax op, not a PrimFunc
# call), and relu's result is returned; both allocations stay.
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def exp(a: T.Buffer((T.int64(8),), "float32"), out: T.Buffer((T.int64(8),), "float32")):
        T.evaluate(0)

    @T.prim_func(private=True)
    def relu(a: T.Buffer((T.int64(8),), "float32"), out: T.Buffer((T.int64(8),), "float32")):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((8,), dtype="float32")) -> R.Tensor((8,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        alloc: R.Tensor((8,), dtype="float32") = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _: R.Tuple = cls.exp(x, alloc)
        lv: R.Tensor((8,), dtype="float32") = R.add(alloc, alloc)
        alloc1: R.Tensor((8,), dtype="float32") = R.builtin.alloc_tensor(R.shape([8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        _1: R.Tuple = cls.relu(lv, alloc1)
        return alloc1
