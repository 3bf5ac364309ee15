# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func
    def double(A: T.Buffer((4, 8), "float32"), B: T.Buffer((4, 8), "float32")):
        T.func_attr({"tir.noalias": True})
        # with T.block("root"):
        for i, j in T.grid(4, 8):
            with T.block("B"):
                v_i, v_j = T.axis.remap("SS", [i, j])
                T.reads(A[v_i, v_j])
                T.writes(B[v_i, v_j])
                B[v_i, v_j] = A[v_i, v_j] * T.float32(2.0)

    @R.function
    def main(x: R.Tensor(("n", 8), dtype="float32")) -> R.Tensor(("n * 8",), dtype="float32"):
        n = T.int64()
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.double, (x,), out_sinfo=R.Tensor((n, 8), dtype="float32"))
            lv1 = R.call_tir(cls.double, (lv,), out_sinfo=R.Tensor((n, 8), dtype="float32"))
            gv: R.Tensor((n * 8,), dtype="float32") = R.reshape(lv1, R.shape([n * 8]))
            R.output(gv)
        return gv
