# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# Two outputs: one allocation each, in output order; the binding reads the
# tuple of them and later bindings project it.
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def split_halves(a: T.Buffer((T.int64(4), T.int64(2)), "int32"), lo: T.Buffer((T.int64(2), T.int64(2)), "int32"), hi: T.Buffer((T.int64(2), T.int64(2)), "int32")):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((4, 2), dtype="int32")) -> R.Tensor((2, 2), dtype="int32"):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        parts: R.Tuple(R.Tensor((2, 2), dtype="int32"), R.Tensor((2, 2), dtype="int32")) = R.call_tir(cls.split_halves, (x,), out_sinfo=[R.Tensor((2, 2), dtype="int32"), R.Tensor((2, 2), dtype="int32")])
        hi: R.Tensor((2, 2), dtype="int32") = parts[1]
        return hi
