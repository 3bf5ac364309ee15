# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:

    @T.prim_func(private=True)
    def batch_norm(x: T.Buffer((2, 3, 2, 2), "float32"), gamma: T.Buffer((3,), "float32"), beta: T.Buffer((3,), "float32"), moving_mean: T.Buffer((3,), "float32"), moving_var: T.Buffer((3,), "float32"), T_add_1: T.Buffer((2, 3, 2, 2), "float32"), T_add_2: T.Buffer((3,), "float32"), T_add_3: T.Buffer((3,), "float32")):
        T.func_attr({"tir.noalias": True})
        # with T.block("root"):
        x_red = T.alloc_buffer((3,))
        T_divide = T.alloc_buffer((3,))
        T_reshape = T.alloc_buffer((1, 3, 1, 1))
        T_subtract = T.alloc_buffer((2, 3, 2, 2))
        T_subtract_1 = T.alloc_buffer((2, 3, 2, 2))
        T_subtract_2 = T.alloc_buffer((2, 3, 2, 2))
        T_multiply = T.alloc_buffer((2, 3, 2, 2))
        T_multiply_red = T.alloc_buffer((3,))
        T_divide_1 = T.alloc_buffer((3,))
        T_reshape_1 = T.alloc_buffer((1, 3, 1, 1))
        T_add = T.alloc_buffer((1, 3, 1, 1))
        compute = T.alloc_buffer((1, 3, 1, 1))
        T_divide_2 = T.alloc_buffer((2, 3, 2, 2))
        T_reshape_2 = T.alloc_buffer((1, 3, 1, 1))
        T_multiply_1 = T.alloc_buffer((2, 3, 2, 2))
        T_reshape_3 = T.alloc_buffer((1, 3, 1, 1))
        T_multiply_2 = T.alloc_buffer((3,))
        T_multiply_3 = T.alloc_buffer((3,))
        T_multiply_4 = T.alloc_buffer((3,))
        T_multiply_5 = T.alloc_buffer((3,))
        for i0, k0, k1, k2 in T.grid(T.int64(3), T.int64(2), T.int64(2), T.int64(2)):
            with T.block("x_red"):
                v_i0, v_k0, v_k1, v_k2 = T.axis.remap("SRRR", [i0, k0, k1, k2])
                T.reads(x[v_k0, v_i0, v_k1, v_k2])
                T.writes(x_red[v_i0])
                with T.init():
                    x_red[v_i0] = T.float32(0.0)
                x_red[v_i0] = x_red[v_i0] + x[v_k0, v_i0, v_k1, v_k2]
        for i0 in range(T.int64(3)):
            with T.block("T_divide"):
                v_i0 = T.axis.spatial(T.int64(3), i0)
                T.reads(x_red[v_i0])
                T.writes(T_divide[v_i0])
                T_divide[v_i0] = x_red[v_i0] / T.float32(8.0)
        for i0, i1, i2, i3 in T.grid(T.int64(1), T.int64(3), T.int64(1), T.int64(1)):
            with T.block("T_reshape"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(T_divide[(v_i1 + v_i2 + v_i3) % T.int64(3)])
                T.writes(T_reshape[v_i0, v_i1, v_i2, v_i3])
                T_reshape[v_i0, v_i1, v_i2, v_i3] = T_divide[(v_i1 + v_i2 + v_i3) % T.int64(3)]
        for i0, i1, i2, i3 in T.grid(T.int64(2), T.int64(3), T.int64(2), T.int64(2)):
            with T.block("T_subtract"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(x[v_i0, v_i1, v_i2, v_i3], T_reshape[T.int64(0), v_i1, T.int64(0), T.int64(0)])
                T.writes(T_subtract[v_i0, v_i1, v_i2, v_i3])
                T_subtract[v_i0, v_i1, v_i2, v_i3] = x[v_i0, v_i1, v_i2, v_i3] - T_reshape[T.int64(0), v_i1, T.int64(0), T.int64(0)]
        for i0, i1, i2, i3 in T.grid(T.int64(2), T.int64(3), T.int64(2), T.int64(2)):
            with T.block("T_subtract_1"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(x[v_i0, v_i1, v_i2, v_i3], T_reshape[T.int64(0), v_i1, T.int64(0), T.int64(0)])
                T.writes(T_subtract_1[v_i0, v_i1, v_i2, v_i3])
                T_subtract_1[v_i0, v_i1, v_i2, v_i3] = x[v_i0, v_i1, v_i2, v_i3] - T_reshape[T.int64(0), v_i1, T.int64(0), T.int64(0)]
        for i0, i1, i2, i3 in T.grid(T.int64(2), T.int64(3), T.int64(2), T.int64(2)):
            with T.block("T_subtract_2"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(x[v_i0, v_i1, v_i2, v_i3], T_reshape[T.int64(0), v_i1, T.int64(0), T.int64(0)])
                T.writes(T_subtract_2[v_i0, v_i1, v_i2, v_i3])
                T_subtract_2[v_i0, v_i1, v_i2, v_i3] = x[v_i0, v_i1, v_i2, v_i3] - T_reshape[T.int64(0), v_i1, T.int64(0), T.int64(0)]
        for i0, i1, i2, i3 in T.grid(T.int64(2), T.int64(3), T.int64(2), T.int64(2)):
            with T.block("T_multiply"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(T_subtract_1[v_i0, v_i1, v_i2, v_i3], T_subtract_2[v_i0, v_i1, v_i2, v_i3])
                T.writes(T_multiply[v_i0, v_i1, v_i2, v_i3])
                T_multiply[v_i0, v_i1, v_i2, v_i3] = T_subtract_1[v_i0, v_i1, v_i2, v_i3] * T_subtract_2[v_i0, v_i1, v_i2, v_i3]
        for i0, k0, k1, k2 in T.grid(T.int64(3), T.int64(2), T.int64(2), T.int64(2)):
            with T.block("T_multiply_red"):
                v_i0, v_k0, v_k1, v_k2 = T.axis.remap("SRRR", [i0, k0, k1, k2])
                T.reads(T_multiply[v_k0, v_i0, v_k1, v_k2])
                T.writes(T_multiply_red[v_i0])
                with T.init():
                    T_multiply_red[v_i0] = T.float32(0.0)
                T_multiply_red[v_i0] = T_multiply_red[v_i0] + T_multiply[v_k0, v_i0, v_k1, v_k2]
        for i0 in range(T.int64(3)):
            with T.block("T_divide_1"):
                v_i0 = T.axis.spatial(T.int64(3), i0)
                T.reads(T_multiply_red[v_i0])
                T.writes(T_divide_1[v_i0])
                T_divide_1[v_i0] = T_multiply_red[v_i0] / T.float32(8.0)
        for i0, i1, i2, i3 in T.grid(T.int64(1), T.int64(3), T.int64(1), T.int64(1)):
            with T.block("T_reshape_1"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(T_divide_1[(v_i1 + v_i2 + v_i3) % T.int64(3)])
                T.writes(T_reshape_1[v_i0, v_i1, v_i2, v_i3])
                T_reshape_1[v_i0, v_i1, v_i2, v_i3] = T_divide_1[(v_i1 + v_i2 + v_i3) % T.int64(3)]
        for i0, i1, i2, i3 in T.grid(T.int64(1), T.int64(3), T.int64(1), T.int64(1)):
            with T.block("T_add"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(T_reshape_1[v_i0, v_i1, v_i2, v_i3])
                T.writes(T_add[v_i0, v_i1, v_i2, v_i3])
                T_add[v_i0, v_i1, v_i2, v_i3] = T_reshape_1[v_i0, v_i1, v_i2, v_i3] + T.float32(9.9999997473787516e-06)
        for i0, i1, i2, i3 in T.grid(T.int64(1), T.int64(3), T.int64(1), T.int64(1)):
            with T.block("compute"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(T_add[v_i0, v_i1, v_i2, v_i3])
                T.writes(compute[v_i0, v_i1, v_i2, v_i3])
                compute[v_i0, v_i1, v_i2, v_i3] = T.sqrt(T_add[v_i0, v_i1, v_i2, v_i3])
        for i0, i1, i2, i3 in T.grid(T.int64(2), T.int64(3), T.int64(2), T.int64(2)):
            with T.block("T_divide_2"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(T_subtract[v_i0, v_i1, v_i2, v_i3], compute[T.int64(0), v_i1, T.int64(0), T.int64(0)])
                T.writes(T_divide_2[v_i0, v_i1, v_i2, v_i3])
                T_divide_2[v_i0, v_i1, v_i2, v_i3] = T_subtract[v_i0, v_i1, v_i2, v_i3] / compute[T.int64(0), v_i1, T.int64(0), T.int64(0)]
        for i0, i1, i2, i3 in T.grid(T.int64(1), T.int64(3), T.int64(1), T.int64(1)):
            with T.block("T_reshape_2"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(gamma[(v_i1 + v_i2 + v_i3) % T.int64(3)])
                T.writes(T_reshape_2[v_i0, v_i1, v_i2, v_i3])
                T_reshape_2[v_i0, v_i1, v_i2, v_i3] = gamma[(v_i1 + v_i2 + v_i3) % T.int64(3)]
        for i0, i1, i2, i3 in T.grid(T.int64(2), T.int64(3), T.int64(2), T.int64(2)):
            with T.block("T_multiply_1"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(T_divide_2[v_i0, v_i1, v_i2, v_i3], T_reshape_2[T.int64(0), v_i1, T.int64(0), T.int64(0)])
                T.writes(T_multiply_1[v_i0, v_i1, v_i2, v_i3])
                T_multiply_1[v_i0, v_i1, v_i2, v_i3] = T_divide_2[v_i0, v_i1, v_i2, v_i3] * T_reshape_2[T.int64(0), v_i1, T.int64(0), T.int64(0)]
        for i0, i1, i2, i3 in T.grid(T.int64(1), T.int64(3), T.int64(1), T.int64(1)):
            with T.block("T_reshape_3"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(beta[(v_i1 + v_i2 + v_i3) % T.int64(3)])
                T.writes(T_reshape_3[v_i0, v_i1, v_i2, v_i3])
                T_reshape_3[v_i0, v_i1, v_i2, v_i3] = beta[(v_i1 + v_i2 + v_i3) % T.int64(3)]
        for i0, i1, i2, i3 in T.grid(T.int64(2), T.int64(3), T.int64(2), T.int64(2)):
            with T.block("T_add_1"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(T_multiply_1[v_i0, v_i1, v_i2, v_i3], T_reshape_3[T.int64(0), v_i1, T.int64(0), T.int64(0)])
                T.writes(T_add_1[v_i0, v_i1, v_i2, v_i3])
                T_add_1[v_i0, v_i1, v_i2, v_i3] = T_multiply_1[v_i0, v_i1, v_i2, v_i3] + T_reshape_3[T.int64(0), v_i1, T.int64(0), T.int64(0)]
        for i0 in range(T.int64(3)):
            with T.block("T_multiply_2"):
                v_i0 = T.axis.spatial(T.int64(3), i0)
                T.reads(moving_mean[v_i0])
                T.writes(T_multiply_2[v_i0])
                T_multiply_2[v_i0] = T.float32(0.89999997615814209) * moving_mean[v_i0]
        for i0 in range(T.int64(3)):
            with T.block("T_multiply_3"):
                v_i0 = T.axis.spatial(T.int64(3), i0)
                T.reads(T_divide[v_i0])
                T.writes(T_multiply_3[v_i0])
                T_multiply_3[v_i0] = T.float32(0.10000000149011612) * T_divide[v_i0]
        for i0 in range(T.int64(3)):
            with T.block("T_add_2"):
                v_i0 = T.axis.spatial(T.int64(3), i0)
                T.reads(T_multiply_2[v_i0], T_multiply_3[v_i0])
                T.writes(T_add_2[v_i0])
                T_add_2[v_i0] = T_multiply_2[v_i0] + T_multiply_3[v_i0]
        for i0 in range(T.int64(3)):
            with T.block("T_multiply_4"):
                v_i0 = T.axis.spatial(T.int64(3), i0)
                T.reads(moving_var[v_i0])
                T.writes(T_multiply_4[v_i0])
                T_multiply_4[v_i0] = T.float32(0.89999997615814209) * moving_var[v_i0]
        for i0 in range(T.int64(3)):
            with T.block("T_multiply_5"):
                v_i0 = T.axis.spatial(T.int64(3), i0)
                T.reads(T_divide_1[v_i0])
                T.writes(T_multiply_5[v_i0])
                T_multiply_5[v_i0] = T.float32(0.10000000149011612) * T_divide_1[v_i0]
        for i0 in range(T.int64(3)):
            with T.block("T_add_3"):
                v_i0 = T.axis.spatial(T.int64(3), i0)
                T.reads(T_multiply_4[v_i0], T_multiply_5[v_i0])
                T.writes(T_add_3[v_i0])
                T_add_3[v_i0] = T_multiply_4[v_i0] + T_multiply_5[v_i0]

    @R.function
    def main(x: R.Tensor((2, 3, 2, 2), dtype="float32"), gamma: R.Tensor((3,), dtype="float32"), beta: R.Tensor((3,), dtype="float32"), moving_mean: R.Tensor((3,), dtype="float32"), moving_var: R.Tensor((3,), dtype="float32")) -> R.Tuple(R.Tensor((2, 3, 2, 2), dtype="float32"), R.Tensor((3,), dtype="float32"), R.Tensor((3,), dtype="float32")):
        cls = Module
        gv = R.call_tir(cls.batch_norm, (x, gamma, beta, moving_mean, moving_var), out_sinfo=[R.Tensor((2, 3, 2, 2), dtype="float32"), R.Tensor((3,), dtype="float32"), R.Tensor((3,), dtype="float32")])
        return gv
