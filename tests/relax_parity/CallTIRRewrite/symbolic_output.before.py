# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# A symbolic output is allocated with its dims, R.shape([n, 8]), as TVM's
# CallTIRRewrite does.
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
        gv = R.call_tir(cls.double, (x,), out_sinfo=R.Tensor((n, 8), dtype="float32"))
        return gv
