# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(s_tir=True)
    def add_into(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
        T.func_attr({"tir.noalias": True})
        # with T.sblock("root"):
        for i in range(8):
            with T.sblock("A"):
                v_i = T.axis.spatial(8, i)
                T.reads(A[v_i], B[v_i])
                T.writes(A[v_i])
                A[v_i] = A[v_i] + B[v_i]

    @R.function
    def main(x: R.Tensor((8,), dtype="float32"), y: R.Tensor((8,), dtype="float32")) -> R.Tensor((8,), dtype="float32"):
        cls = Module
        with R.dataflow():
            gv = R.call_tir_inplace(cls.add_into, (x, y), out_ty=R.Tensor((8,), dtype="float32"), inplace_indices=[0])
            R.output(gv)
        return gv
