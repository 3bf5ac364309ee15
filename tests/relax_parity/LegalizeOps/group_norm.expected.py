# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def group_norm(x: T.Buffer((2, 6, 4), "float32"), gamma: T.Buffer((6,), "float32"), beta: T.Buffer((6,), "float32"), T_reshape: T.Buffer((2, 6, 4), "float32")):
        T.func_attr({"tir.noalias": True})
        # with T.block("root"):
        T_reshape_1 = T.alloc_buffer((2, 2, 3, 4))
        x_red_temp_v0 = T.alloc_buffer((2, 2))
        x_red_temp_v1 = T.alloc_buffer((2, 2))
        T_reshape_2 = T.alloc_buffer((2, 3))
        T_reshape_3 = T.alloc_buffer((2, 3))
        T_group_norm = T.alloc_buffer((2, 2, 3, 4))
        for i0, i1, i2, i3 in T.grid(T.int64(2), T.int64(2), T.int64(3), T.int64(4)):
            with T.block("T_reshape"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(x[((v_i1 * T.int64(3) + v_i3 // T.int64(4) + v_i2) // T.int64(6) + v_i0) % T.int64(2), (v_i1 * T.int64(3) + v_i3 // T.int64(4) + v_i2) % T.int64(6), v_i3 % T.int64(4)])
                T.writes(T_reshape_1[v_i0, v_i1, v_i2, v_i3])
                T_reshape_1[v_i0, v_i1, v_i2, v_i3] = x[((v_i1 * T.int64(3) + v_i3 // T.int64(4) + v_i2) // T.int64(6) + v_i0) % T.int64(2), (v_i1 * T.int64(3) + v_i3 // T.int64(4) + v_i2) % T.int64(6), v_i3 % T.int64(4)]
        for ax0, ax1, k2, k3 in T.grid(T.int64(2), T.int64(2), T.int64(3), T.int64(4)):
            with T.block("x_red_temp"):
                v_ax0, v_ax1, v_k2, v_k3 = T.axis.remap("SSRR", [ax0, ax1, k2, k3])
                T.reads(T_reshape_1[v_ax0, v_ax1, v_k2, v_k3])
                T.writes(x_red_temp_v0[v_ax0, v_ax1], x_red_temp_v1[v_ax0, v_ax1])
                with T.init():
                    x_red_temp_v0[v_ax0, v_ax1] = T.float32(0.0)
                    x_red_temp_v1[v_ax0, v_ax1] = T.float32(0.0)
                v_x_red_temp_v0: T.float32 = x_red_temp_v0[v_ax0, v_ax1] + T_reshape_1[v_ax0, v_ax1, v_k2, v_k3]
                v_x_red_temp_v1: T.float32 = x_red_temp_v1[v_ax0, v_ax1] + T_reshape_1[v_ax0, v_ax1, v_k2, v_k3] * T_reshape_1[v_ax0, v_ax1, v_k2, v_k3]
                x_red_temp_v0[v_ax0, v_ax1] = v_x_red_temp_v0
                x_red_temp_v1[v_ax0, v_ax1] = v_x_red_temp_v1
        for i0, i1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("T_reshape_1"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                T.reads(gamma[(v_i0 * T.int64(3) + v_i1) % T.int64(6)])
                T.writes(T_reshape_2[v_i0, v_i1])
                T_reshape_2[v_i0, v_i1] = gamma[(v_i0 * T.int64(3) + v_i1) % T.int64(6)]
        for i0, i1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("T_reshape_2"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                T.reads(beta[(v_i0 * T.int64(3) + v_i1) % T.int64(6)])
                T.writes(T_reshape_3[v_i0, v_i1])
                T_reshape_3[v_i0, v_i1] = beta[(v_i0 * T.int64(3) + v_i1) % T.int64(6)]
        for i0, i1, i2, i3 in T.grid(T.int64(2), T.int64(2), T.int64(3), T.int64(4)):
            with T.block("T_group_norm"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(T_reshape_1[v_i0, v_i1, v_i2, v_i3], x_red_temp_v0[v_i0, v_i1], x_red_temp_v1[v_i0, v_i1], T_reshape_2[v_i1, v_i2], T_reshape_3[v_i1, v_i2])
                T.writes(T_group_norm[v_i0, v_i1, v_i2, v_i3])
                T_group_norm[v_i0, v_i1, v_i2, v_i3] = (T_reshape_1[v_i0, v_i1, v_i2, v_i3] - x_red_temp_v0[v_i0, v_i1] / T.float32(12.0)) * T.rsqrt(x_red_temp_v1[v_i0, v_i1] / T.float32(12.0) - x_red_temp_v0[v_i0, v_i1] / T.float32(12.0) * (x_red_temp_v0[v_i0, v_i1] / T.float32(12.0)) + T.float32(0.0010000000474974513)) * T_reshape_2[v_i1, v_i2] + T_reshape_3[v_i1, v_i2]
        for i0, i1, i2 in T.grid(T.int64(2), T.int64(6), T.int64(4)):
            with T.block("T_reshape_3"):
                v_i0, v_i1, v_i2 = T.axis.remap("SSS", [i0, i1, i2])
                T.reads(T_group_norm[((v_i2 // T.int64(4) + v_i1) // T.int64(6) + v_i0) % T.int64(2), (v_i2 // T.int64(4) + v_i1) % T.int64(6) // T.int64(3), (v_i2 // T.int64(4) + v_i1) % T.int64(3), v_i2 % T.int64(4)])
                T.writes(T_reshape[v_i0, v_i1, v_i2])
                T_reshape[v_i0, v_i1, v_i2] = T_group_norm[((v_i2 // T.int64(4) + v_i1) // T.int64(6) + v_i0) % T.int64(2), (v_i2 // T.int64(4) + v_i1) % T.int64(6) // T.int64(3), (v_i2 // T.int64(4) + v_i1) % T.int64(3), v_i2 % T.int64(4)]

    @R.function
    def main(x: R.Tensor((2, 6, 4), dtype="float32"), gamma: R.Tensor((6,), dtype="float32"), beta: R.Tensor((6,), dtype="float32")) -> R.Tensor((2, 6, 4), dtype="float32"):
        cls = Module
        with R.dataflow():
            gv = R.call_tir(cls.group_norm, (x, gamma, beta), out_sinfo=R.Tensor((2, 6, 4), dtype="float32"))
            R.output(gv)
        return gv
