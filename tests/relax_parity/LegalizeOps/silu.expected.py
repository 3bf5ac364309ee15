# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def silu(x: T.Buffer((T.int64(2), T.int64(3)), "float32"), T_multiply: T.Buffer((T.int64(2), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": True})
        # with T.block("root"):
        compute = T.alloc_buffer((T.int64(2), T.int64(3)))
        for i0, i1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("compute"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                T.reads(x[v_i0, v_i1])
                T.writes(compute[v_i0, v_i1])
                compute[v_i0, v_i1] = T.sigmoid(x[v_i0, v_i1])
        for i0, i1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("T_multiply"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                T.reads(x[v_i0, v_i1], compute[v_i0, v_i1])
                T.writes(T_multiply[v_i0, v_i1])
                T_multiply[v_i0, v_i1] = x[v_i0, v_i1] * compute[v_i0, v_i1]

    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        cls = Module
        with R.dataflow():
            gv = R.call_tir(cls.silu, (x,), out_sinfo=R.Tensor((2, 3), dtype="float32"))
            R.output(gv)
        return gv
