# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:

    @T.prim_func(private=True)
    def fused_shift_scale_inplace_exp_inplace(x: T.Buffer((4,), "float32"), y: T.Buffer((4,), "float32")):
        T.func_attr({"tir.noalias": True})
        # with T.block("root"):
        for i in range(T.int64(4)):
            with T.block("shift_scale"):
                v_i = T.axis.spatial(T.int64(4), i)
                T.reads(x[v_i], y[v_i])
                T.writes(x[v_i], y[v_i])
                x[v_i] = x[v_i] + y[v_i]
                y[v_i] = y[v_i] * T.float32(2.0)
        for i in range(T.int64(4)):
            with T.block("compute"):
                v_i = T.axis.spatial(T.int64(4), i)
                T.reads(x[v_i])
                T.writes(x[v_i])
                x[v_i] = T.exp(x[v_i])

    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), y: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")):
        cls = Module
        with R.dataflow():
            gv = R.call_tir_inplace(cls.fused_shift_scale_inplace_exp_inplace, (x, y), out_sinfo=[R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")], inplace_indices=[0, 1])
            R.output(gv)
        return gv
