# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def transpose(x: T.Buffer((T.int64(2), T.int64(3), T.int64(4)), "float32"), T_transpose: T.Buffer((T.int64(4), T.int64(2), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": True})
        # with T.block("root"):
        for i0, i1, i2 in T.grid(T.int64(4), T.int64(2), T.int64(3)):
            with T.block("T_transpose"):
                v_i0, v_i1, v_i2 = T.axis.remap("SSS", [i0, i1, i2])
                T.reads(x[v_i1, v_i2, v_i0])
                T.writes(T_transpose[v_i0, v_i1, v_i2])
                T_transpose[v_i0, v_i1, v_i2] = x[v_i1, v_i2, v_i0]

    @R.function
    def main(x: R.Tensor((2, 3, 4), dtype="float32")) -> R.Tensor((4, 2, 3), dtype="float32"):
        cls = Module
        gv = R.call_tir(cls.transpose, (x,), out_sinfo=R.Tensor((4, 2, 3), dtype="float32"))
        return gv
