# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# A call_tir_inplace with two outputs (inplace_indices=[0, 1]) inside a group,
# its fields projected and one of them written in place again: both outputs of
# the group are its parameters, so the fused PrimFunc has no output parameter
# and the caller calls it with call_tir_inplace(inplace_indices=[0, 1]).
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def shift_scale_inplace(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        T.func_attr({"op_pattern": 0, "tir.noalias": True})
        # with T.block("root"):
        for i in range(T.int64(4)):
            with T.block("shift_scale"):
                v_i = T.axis.spatial(T.int64(4), i)
                T.reads(A[v_i], B[v_i])
                T.writes(A[v_i], B[v_i])
                A[v_i] = A[v_i] + B[v_i]
                B[v_i] = B[v_i] * T.float32(2.0)

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
    def fused_shift_scale_inplace_exp_inplace(x: R.Tensor((4,), dtype="float32"), y: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")):
        R.func_attr({"Primitive": True})
        cls = Module
        with R.dataflow():
            lv = R.call_tir_inplace(cls.shift_scale_inplace, (x, y), out_sinfo=[R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")], inplace_indices=[0, 1])
            lv1: R.Tensor((4,), dtype="float32") = lv[0]
            lv2: R.Tensor((4,), dtype="float32") = lv[1]
            lv3 = R.call_tir_inplace(cls.exp_inplace, (lv1,), out_sinfo=R.Tensor((4,), dtype="float32"), inplace_indices=[0])
            gv: R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")) = (lv3, lv2)
            R.output(gv)
        return gv

    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), y: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")):
        cls = Module
        with R.dataflow():
            gv: R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")) = cls.fused_shift_scale_inplace_exp_inplace(x, y)
            R.output(gv)
        return gv
