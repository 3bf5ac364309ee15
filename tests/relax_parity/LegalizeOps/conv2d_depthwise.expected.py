# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def conv2d(x: T.Buffer((T.int64(1), T.int64(2), T.int64(4), T.int64(4)), "float32"), w: T.Buffer((T.int64(2), T.int64(1), T.int64(3), T.int64(3)), "float32"), group_conv2d_nchw: T.Buffer((T.int64(1), T.int64(2), T.int64(4), T.int64(4)), "float32")):
        T.func_attr({"tir.noalias": True})
        # with T.block("root"):
        pad_temp = T.alloc_buffer((T.int64(1), T.int64(2), T.int64(6), T.int64(6)))
        for i0, i1, i2, i3 in T.grid(T.int64(1), T.int64(2), T.int64(6), T.int64(6)):
            with T.block("pad_temp"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(x[v_i0, v_i1, v_i2 - T.int64(1), v_i3 - T.int64(1)])
                T.writes(pad_temp[v_i0, v_i1, v_i2, v_i3])
                pad_temp[v_i0, v_i1, v_i2, v_i3] = T.if_then_else(T.int64(1) <= v_i2 and v_i2 < T.int64(5) and T.int64(1) <= v_i3 and v_i3 < T.int64(5), x[v_i0, v_i1, v_i2 - T.int64(1), v_i3 - T.int64(1)], T.float32(0.0))
        for i0, i1, i2, i3, k0, k1, k2 in T.grid(T.int64(1), T.int64(2), T.int64(4), T.int64(4), T.int64(1), T.int64(3), T.int64(3)):
            with T.block("group_conv2d_nchw"):
                v_i0, v_i1, v_i2, v_i3, v_k0, v_k1, v_k2 = T.axis.remap("SSSSRRR", [i0, i1, i2, i3, k0, k1, k2])
                T.reads(pad_temp[v_i0, v_i1 + v_k0, v_i2 + v_k1, v_i3 + v_k2], w[v_i1, v_k0, v_k1, v_k2])
                T.writes(group_conv2d_nchw[v_i0, v_i1, v_i2, v_i3])
                with T.init():
                    group_conv2d_nchw[v_i0, v_i1, v_i2, v_i3] = T.float32(0.0)
                group_conv2d_nchw[v_i0, v_i1, v_i2, v_i3] = group_conv2d_nchw[v_i0, v_i1, v_i2, v_i3] + pad_temp[v_i0, v_i1 + v_k0, v_i2 + v_k1, v_i3 + v_k2] * w[v_i1, v_k0, v_k1, v_k2]

    @R.function
    def main(x: R.Tensor((1, 2, 4, 4), dtype="float32"), w: R.Tensor((2, 1, 3, 3), dtype="float32")) -> R.Tensor((1, 2, 4, 4), dtype="float32"):
        cls = Module
        with R.dataflow():
            gv = R.call_tir(cls.conv2d, (x, w), out_sinfo=R.Tensor((1, 2, 4, 4), dtype="float32"))
            R.output(gv)
        return gv
