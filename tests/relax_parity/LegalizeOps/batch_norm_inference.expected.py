# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:

    @T.prim_func(private=True)
    def batch_norm(x: T.Buffer((1, 2, 2, 4), "float32"), gamma: T.Buffer((4,), "float32"), beta: T.Buffer((4,), "float32"), moving_mean: T.Buffer((4,), "float32"), moving_var: T.Buffer((4,), "float32"), T_add_1: T.Buffer((1, 2, 2, 4), "float32"), T_multiply: T.Buffer((4,), "float32"), T_multiply_1: T.Buffer((4,), "float32")):
        T.func_attr({"tir.noalias": True})
        # with T.block("root"):
        T_reshape = T.alloc_buffer((1, 1, 1, 4))
        T_subtract = T.alloc_buffer((1, 2, 2, 4))
        T_reshape_1 = T.alloc_buffer((1, 1, 1, 4))
        T_add = T.alloc_buffer((1, 1, 1, 4))
        compute = T.alloc_buffer((1, 1, 1, 4))
        T_divide = T.alloc_buffer((1, 2, 2, 4))
        T_reshape_2 = T.alloc_buffer((1, 1, 1, 4))
        for i0, i1, i2, i3 in T.grid(T.int64(1), T.int64(1), T.int64(1), T.int64(4)):
            with T.block("T_reshape"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(moving_mean[v_i3 % T.int64(4)])
                T.writes(T_reshape[v_i0, v_i1, v_i2, v_i3])
                T_reshape[v_i0, v_i1, v_i2, v_i3] = moving_mean[v_i3 % T.int64(4)]
        for i0, i1, i2, i3 in T.grid(T.int64(1), T.int64(2), T.int64(2), T.int64(4)):
            with T.block("T_subtract"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(x[v_i0, v_i1, v_i2, v_i3], T_reshape[v_i0, T.int64(0), T.int64(0), v_i3])
                T.writes(T_subtract[v_i0, v_i1, v_i2, v_i3])
                T_subtract[v_i0, v_i1, v_i2, v_i3] = x[v_i0, v_i1, v_i2, v_i3] - T_reshape[v_i0, T.int64(0), T.int64(0), v_i3]
        for i0, i1, i2, i3 in T.grid(T.int64(1), T.int64(1), T.int64(1), T.int64(4)):
            with T.block("T_reshape_1"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(moving_var[v_i3 % T.int64(4)])
                T.writes(T_reshape_1[v_i0, v_i1, v_i2, v_i3])
                T_reshape_1[v_i0, v_i1, v_i2, v_i3] = moving_var[v_i3 % T.int64(4)]
        for i0, i1, i2, i3 in T.grid(T.int64(1), T.int64(1), T.int64(1), T.int64(4)):
            with T.block("T_add"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(T_reshape_1[v_i0, v_i1, v_i2, v_i3])
                T.writes(T_add[v_i0, v_i1, v_i2, v_i3])
                T_add[v_i0, v_i1, v_i2, v_i3] = T_reshape_1[v_i0, v_i1, v_i2, v_i3] + T.float32(0.0010000000474974513)
        for i0, i1, i2, i3 in T.grid(T.int64(1), T.int64(1), T.int64(1), T.int64(4)):
            with T.block("compute"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(T_add[v_i0, v_i1, v_i2, v_i3])
                T.writes(compute[v_i0, v_i1, v_i2, v_i3])
                compute[v_i0, v_i1, v_i2, v_i3] = T.sqrt(T_add[v_i0, v_i1, v_i2, v_i3])
        for i0, i1, i2, i3 in T.grid(T.int64(1), T.int64(2), T.int64(2), T.int64(4)):
            with T.block("T_divide"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(T_subtract[v_i0, v_i1, v_i2, v_i3], compute[v_i0, T.int64(0), T.int64(0), v_i3])
                T.writes(T_divide[v_i0, v_i1, v_i2, v_i3])
                T_divide[v_i0, v_i1, v_i2, v_i3] = T_subtract[v_i0, v_i1, v_i2, v_i3] / compute[v_i0, T.int64(0), T.int64(0), v_i3]
        for i0, i1, i2, i3 in T.grid(T.int64(1), T.int64(1), T.int64(1), T.int64(4)):
            with T.block("T_reshape_2"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(beta[v_i3 % T.int64(4)])
                T.writes(T_reshape_2[v_i0, v_i1, v_i2, v_i3])
                T_reshape_2[v_i0, v_i1, v_i2, v_i3] = beta[v_i3 % T.int64(4)]
        for i0, i1, i2, i3 in T.grid(T.int64(1), T.int64(2), T.int64(2), T.int64(4)):
            with T.block("T_add_1"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(T_divide[v_i0, v_i1, v_i2, v_i3], T_reshape_2[v_i0, T.int64(0), T.int64(0), v_i3])
                T.writes(T_add_1[v_i0, v_i1, v_i2, v_i3])
                T_add_1[v_i0, v_i1, v_i2, v_i3] = T_divide[v_i0, v_i1, v_i2, v_i3] + T_reshape_2[v_i0, T.int64(0), T.int64(0), v_i3]
        for i0 in range(T.int64(4)):
            with T.block("T_multiply"):
                v_i0 = T.axis.spatial(T.int64(4), i0)
                T.reads(moving_mean[v_i0])
                T.writes(T_multiply[v_i0])
                T_multiply[v_i0] = moving_mean[v_i0]
        for i0 in range(T.int64(4)):
            with T.block("T_multiply_1"):
                v_i0 = T.axis.spatial(T.int64(4), i0)
                T.reads(moving_var[v_i0])
                T.writes(T_multiply_1[v_i0])
                T_multiply_1[v_i0] = moving_var[v_i0]

    @R.function
    def main(x: R.Tensor((1, 2, 2, 4), dtype="float32"), gamma: R.Tensor((4,), dtype="float32"), beta: R.Tensor((4,), dtype="float32"), moving_mean: R.Tensor((4,), dtype="float32"), moving_var: R.Tensor((4,), dtype="float32")) -> R.Tensor((1, 2, 2, 4), dtype="float32"):
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.batch_norm, (x, gamma, beta, moving_mean, moving_var), out_sinfo=[R.Tensor((1, 2, 2, 4), dtype="float32"), R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")])
            gv: R.Tensor((1, 2, 2, 4), dtype="float32") = lv[0]
            R.output(gv)
        return gv
