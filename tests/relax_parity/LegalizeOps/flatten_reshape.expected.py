# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def reshape(x: T.Buffer((T.int64(2), T.int64(3), T.int64(4)), "float32"), T_reshape: T.Buffer((T.int64(24),), "float32")):
        T.func_attr({"tir.noalias": True})
        # with T.block("root"):
        for i0 in range(T.int64(24)):
            with T.block("T_reshape"):
                v_i0 = T.axis.spatial(T.int64(24), i0)
                T.reads(x[v_i0 % T.int64(24) // T.int64(12), v_i0 % T.int64(12) // T.int64(4), v_i0 % T.int64(4)])
                T.writes(T_reshape[v_i0])
                T_reshape[v_i0] = x[v_i0 % T.int64(24) // T.int64(12), v_i0 % T.int64(12) // T.int64(4), v_i0 % T.int64(4)]

    @R.function
    def main(x: R.Tensor((2, 3, 4), dtype="float32")) -> R.Tensor((24,), dtype="float32"):
        cls = Module
        gv = R.call_tir(cls.reshape, (x,), out_sinfo=R.Tensor((24,), dtype="float32"))
        return gv
