# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# A two-output call_tir_inplace whose first output is written into an
# intermediate of the group (exp's fresh result) and whose second is written
# into parameter y: the intermediate becomes the fused PrimFunc's output
# parameter, and the call lists -1 for it (TVM's FuseTIR lists only the
# in-place index, [1], which does not give one index per output as
# R.call_tir_inplace requires; passlab writes [-1, 1]).
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def exp(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32")):
        T.func_attr({"op_pattern": 0, "tir.noalias": True})
        # with T.block("root"):
        for i in range(T.int64(4)):
            with T.block("compute"):
                v_i = T.axis.spatial(T.int64(4), i)
                T.reads(A[v_i])
                T.writes(B[v_i])
                B[v_i] = T.exp(A[v_i])

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

    @R.function(private=True)
    def fused_exp_shift_scale_inplace(x: R.Tensor((4,), dtype="float32"), y: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")):
        R.func_attr({"Primitive": True})
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.exp, (x,), out_sinfo=R.Tensor((4,), dtype="float32"))
            gv = R.call_tir_inplace(cls.shift_scale_inplace, (lv, y), out_sinfo=[R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")], inplace_indices=[0, 1])
            R.output(gv)
        return gv

    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), y: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")):
        cls = Module
        with R.dataflow():
            gv: R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")) = cls.fused_exp_shift_scale_inplace(x, y)
            R.output(gv)
        return gv
