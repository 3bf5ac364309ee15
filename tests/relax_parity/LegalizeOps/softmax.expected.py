# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def softmax(x: T.Buffer((T.int64(2), T.int64(3), T.int64(4)), "float32"), T_softmax_norm: T.Buffer((T.int64(2), T.int64(3), T.int64(4)), "float32")):
        T.func_attr({"tir.noalias": True})
        # with T.block("root"):
        T_softmax_maxelem = T.alloc_buffer((T.int64(2), T.int64(4)))
        T_softmax_exp = T.alloc_buffer((T.int64(2), T.int64(3), T.int64(4)))
        T_softmax_expsum = T.alloc_buffer((T.int64(2), T.int64(4)))
        for i0, i1, k0 in T.grid(T.int64(2), T.int64(4), T.int64(3)):
            with T.block("T_softmax_maxelem"):
                v_i0, v_i1, v_k0 = T.axis.remap("SSR", [i0, i1, k0])
                T.reads(x[v_i0, v_k0, v_i1])
                T.writes(T_softmax_maxelem[v_i0, v_i1])
                with T.init():
                    T_softmax_maxelem[v_i0, v_i1] = T.float32(-3.4028234663852886e+38)
                T_softmax_maxelem[v_i0, v_i1] = T.max(T_softmax_maxelem[v_i0, v_i1], x[v_i0, v_k0, v_i1])
        for i0, i1, i2 in T.grid(T.int64(2), T.int64(3), T.int64(4)):
            with T.block("T_softmax_exp"):
                v_i0, v_i1, v_i2 = T.axis.remap("SSS", [i0, i1, i2])
                T.reads(x[v_i0, v_i1, v_i2], T_softmax_maxelem[v_i0, v_i2])
                T.writes(T_softmax_exp[v_i0, v_i1, v_i2])
                T_softmax_exp[v_i0, v_i1, v_i2] = T.exp(x[v_i0, v_i1, v_i2] - T_softmax_maxelem[v_i0, v_i2])
        for i0, i1, k0 in T.grid(T.int64(2), T.int64(4), T.int64(3)):
            with T.block("T_softmax_expsum"):
                v_i0, v_i1, v_k0 = T.axis.remap("SSR", [i0, i1, k0])
                T.reads(T_softmax_exp[v_i0, v_k0, v_i1])
                T.writes(T_softmax_expsum[v_i0, v_i1])
                with T.init():
                    T_softmax_expsum[v_i0, v_i1] = T.float32(0.0)
                T_softmax_expsum[v_i0, v_i1] = T_softmax_expsum[v_i0, v_i1] + T_softmax_exp[v_i0, v_k0, v_i1]
        for i0, i1, i2 in T.grid(T.int64(2), T.int64(3), T.int64(4)):
            with T.block("T_softmax_norm"):
                v_i0, v_i1, v_i2 = T.axis.remap("SSS", [i0, i1, i2])
                T.reads(T_softmax_exp[v_i0, v_i1, v_i2], T_softmax_expsum[v_i0, v_i2])
                T.writes(T_softmax_norm[v_i0, v_i1, v_i2])
                T.block_attr({"axis": 1})
                T_softmax_norm[v_i0, v_i1, v_i2] = T_softmax_exp[v_i0, v_i1, v_i2] / T_softmax_expsum[v_i0, v_i2]

    @R.function
    def main(x: R.Tensor((2, 3, 4), dtype="float32")) -> R.Tensor((2, 3, 4), dtype="float32"):
        cls = Module
        gv = R.call_tir(cls.softmax, (x,), out_sinfo=R.Tensor((2, 3, 4), dtype="float32"))
        return gv
