# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# inplace_indices=[0, -1]: output 0 is x, output 1 is allocated and is the
# only output passed after the arguments.
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def scale_copy(A: T.Buffer((T.int64(4),), "float32"), C: T.Buffer((T.int64(4),), "float32")):
        T.func_attr({"tir.noalias": True})
        # with T.block("root"):
        for i in range(T.int64(4)):
            with T.block("C"):
                v_i = T.axis.spatial(T.int64(4), i)
                T.reads(A[v_i])
                T.writes(A[v_i], C[v_i])
                C[v_i] = A[v_i]
                A[v_i] = A[v_i] * T.float32(2.0)

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        parts = R.call_tir_inplace(cls.scale_copy, (x,), out_sinfo=[R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")], inplace_indices=[0, -1])
        gv: R.Tensor((4,), dtype="float32") = parts[1]
        return gv
