# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func
    def add_into(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
        T.func_attr({"tir.noalias": True})
        # with T.block("root"):
        for i in range(8):
            with T.block("A"):
                v_i = T.axis.spatial(8, i)
                T.reads(A[v_i], B[v_i])
                T.writes(A[v_i])
                A[v_i] = A[v_i] + B[v_i]

    @T.prim_func
    def scale_and_copy(A: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")):
        T.func_attr({"tir.noalias": True})
        # with T.block("root"):
        for i in range(8):
            with T.block("C"):
                v_i = T.axis.spatial(8, i)
                T.reads(A[v_i])
                T.writes(A[v_i], C[v_i])
                C[v_i] = A[v_i]
                A[v_i] = A[v_i] * T.float32(2.0)

    @R.function
    def main(x: R.Tensor((8,), dtype="float32"), y: R.Tensor((8,), dtype="float32")) -> R.Tuple(R.Tensor((8,), dtype="float32"), R.Tensor((8,), dtype="float32")):
        cls = Module
        with R.dataflow():
            lv = R.call_tir_inplace(cls.add_into, (x, y), out_sinfo=R.Tensor((8,), dtype="float32"), inplace_indices=[0])
            gv = R.call_tir_inplace(cls.scale_and_copy, (lv,), out_sinfo=[R.Tensor((8,), dtype="float32"), R.Tensor((8,), dtype="float32")], inplace_indices=[0, -1])
            R.output(gv)
        return gv
