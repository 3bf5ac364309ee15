# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# A fresh output written in place afterwards: it is the fused PrimFunc's
# output parameter, and the caller keeps call_tir.
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32"), C: T.Buffer((T.int64(4),), "float32")):
        T.func_attr({"op_pattern": 0, "tir.noalias": True})
        # with T.block("root"):
        for i in range(T.int64(4)):
            with T.block("T_add"):
                v_i = T.axis.spatial(T.int64(4), i)
                T.reads(A[v_i], B[v_i])
                T.writes(C[v_i])
                C[v_i] = A[v_i] + B[v_i]

    @T.prim_func(private=True)
    def exp_inplace(A: T.Buffer((T.int64(4),), "float32")):
        T.func_attr({"op_pattern": 0, "tir.noalias": True})
        # with T.block("root"):
        for i in range(T.int64(4)):
            with T.block("compute"):
                v_i = T.axis.spatial(T.int64(4), i)
                T.reads(A[v_i])
                T.writes(A[v_i])
                A[v_i] = T.exp(A[v_i])

    @R.function(private=True)
    def fused_add_exp_inplace(x: R.Tensor((4,), dtype="float32"), y: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"Primitive": True})
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.add, (x, y), out_sinfo=R.Tensor((4,), dtype="float32"))
            gv = R.call_tir_inplace(cls.exp_inplace, (lv,), out_sinfo=R.Tensor((4,), dtype="float32"), inplace_indices=[0])
            R.output(gv)
        return gv

    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), y: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        cls = Module
        with R.dataflow():
            gv: R.Tensor((4,), dtype="float32") = cls.fused_add_exp_inplace(x, y)
            R.output(gv)
        return gv
