# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add_one(A: T.Buffer((T.int64(16),), "float32"), B: T.Buffer((T.int64(16),), "float32")):
        T.func_attr({"tir.noalias": True})
        # with T.block("root"):
        for i in range(16):
            with T.block("B"):
                v_i = T.axis.spatial(16, i)
                T.reads(A[v_i])
                T.writes(B[v_i])
                B[v_i] = A[v_i] + T.float32(1.0)

    @R.function
    def main(x: R.Tensor((16,), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        cls = Module
        with R.dataflow():
            gv = R.call_tir(cls.add_one, (x,), out_sinfo=R.Tensor((16,), dtype="float32"))
            R.output(gv)
        return gv
