# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add(lv: T.Buffer((T.int64(1), T.int64(4), T.int64(6), T.int64(6)), "float32"), b: T.Buffer((T.int64(1), T.int64(4), T.int64(1), T.int64(1)), "float32"), T_add: T.Buffer((T.int64(1), T.int64(4), T.int64(6), T.int64(6)), "float32")):
        T.func_attr({"op_pattern": 0, "tir.noalias": True})
        # with T.block("root"):
        for i0, i1, i2, i3 in T.grid(T.int64(1), T.int64(4), T.int64(6), T.int64(6)):
            with T.block("T_add"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(lv[v_i0, v_i1, v_i2, v_i3], b[v_i0, v_i1, T.int64(0), T.int64(0)])
                T.writes(T_add[v_i0, v_i1, v_i2, v_i3])
                T_add[v_i0, v_i1, v_i2, v_i3] = lv[v_i0, v_i1, v_i2, v_i3] + b[v_i0, v_i1, T.int64(0), T.int64(0)]

    @T.prim_func(private=True)
    def conv2d(x: T.Buffer((T.int64(1), T.int64(3), T.int64(8), T.int64(8)), "float32"), w: T.Buffer((T.int64(4), T.int64(3), T.int64(3), T.int64(3)), "float32"), conv2d_nchw: T.Buffer((T.int64(1), T.int64(4), T.int64(6), T.int64(6)), "float32")):
        T.func_attr({"op_pattern": 4, "tir.noalias": True})
        # with T.block("root"):
        pad_temp = T.alloc_buffer((T.int64(1), T.int64(3), T.int64(8), T.int64(8)))
        for i0, i1, i2, i3 in T.grid(T.int64(1), T.int64(3), T.int64(8), T.int64(8)):
            with T.block("pad_temp"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(x[v_i0, v_i1, v_i2, v_i3])
                T.writes(pad_temp[v_i0, v_i1, v_i2, v_i3])
                pad_temp[v_i0, v_i1, v_i2, v_i3] = x[v_i0, v_i1, v_i2, v_i3]
        for i0, i1, i2, i3, k0, k1, k2 in T.grid(T.int64(1), T.int64(4), T.int64(6), T.int64(6), T.int64(3), T.int64(3), T.int64(3)):
            with T.block("conv2d_nchw"):
                v_i0, v_i1, v_i2, v_i3, v_k0, v_k1, v_k2 = T.axis.remap("SSSSRRR", [i0, i1, i2, i3, k0, k1, k2])
                T.reads(pad_temp[v_i0, v_k0, v_i2 + v_k1, v_i3 + v_k2], w[v_i1, v_k0, v_k1, v_k2])
                T.writes(conv2d_nchw[v_i0, v_i1, v_i2, v_i3])
                with T.init():
                    conv2d_nchw[v_i0, v_i1, v_i2, v_i3] = T.float32(0.0)
                conv2d_nchw[v_i0, v_i1, v_i2, v_i3] = conv2d_nchw[v_i0, v_i1, v_i2, v_i3] + pad_temp[v_i0, v_k0, v_i2 + v_k1, v_i3 + v_k2] * w[v_i1, v_k0, v_k1, v_k2]

    @T.prim_func(private=True)
    def max_pool2d(lv2: T.Buffer((T.int64(1), T.int64(4), T.int64(6), T.int64(6)), "float32"), pool_max: T.Buffer((T.int64(1), T.int64(4), T.int64(3), T.int64(3)), "float32")):
        T.func_attr({"op_pattern": 4, "tir.noalias": True})
        # with T.block("root"):
        for i0, i1, i2, i3, k0, k1 in T.grid(T.int64(1), T.int64(4), T.int64(3), T.int64(3), T.int64(2), T.int64(2)):
            with T.block("pool_max"):
                v_i0, v_i1, v_i2, v_i3, v_k0, v_k1 = T.axis.remap("SSSSRR", [i0, i1, i2, i3, k0, k1])
                T.reads(lv2[v_i0, v_i1, v_i2 * T.int64(2) + v_k0, v_i3 * T.int64(2) + v_k1])
                T.writes(pool_max[v_i0, v_i1, v_i2, v_i3])
                T.block_attr({"schedule_rule": "meta_schedule.pool_max"})
                with T.init():
                    pool_max[v_i0, v_i1, v_i2, v_i3] = T.float32(-3.4028234663852886e+38)
                pool_max[v_i0, v_i1, v_i2, v_i3] = T.max(pool_max[v_i0, v_i1, v_i2, v_i3], lv2[v_i0, v_i1, v_i2 * T.int64(2) + v_k0, v_i3 * T.int64(2) + v_k1])

    @T.prim_func(private=True)
    def relu(lv1: T.Buffer((T.int64(1), T.int64(4), T.int64(6), T.int64(6)), "float32"), compute: T.Buffer((T.int64(1), T.int64(4), T.int64(6), T.int64(6)), "float32")):
        T.func_attr({"op_pattern": 0, "tir.noalias": True})
        # with T.block("root"):
        for i0, i1, i2, i3 in T.grid(T.int64(1), T.int64(4), T.int64(6), T.int64(6)):
            with T.block("compute"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(lv1[v_i0, v_i1, v_i2, v_i3])
                T.writes(compute[v_i0, v_i1, v_i2, v_i3])
                compute[v_i0, v_i1, v_i2, v_i3] = T.max(lv1[v_i0, v_i1, v_i2, v_i3], T.float32(0.0))

    @R.function(private=True)
    def fused_conv2d_add_relu(x: R.Tensor((1, 3, 8, 8), dtype="float32"), w: R.Tensor((4, 3, 3, 3), dtype="float32"), b: R.Tensor((1, 4, 1, 1), dtype="float32")) -> R.Tensor((1, 4, 6, 6), dtype="float32"):
        R.func_attr({"Primitive": True})
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.conv2d, (x, w), out_sinfo=R.Tensor((1, 4, 6, 6), dtype="float32"))
            lv1 = R.call_tir(cls.add, (lv, b), out_sinfo=R.Tensor((1, 4, 6, 6), dtype="float32"))
            gv = R.call_tir(cls.relu, (lv1,), out_sinfo=R.Tensor((1, 4, 6, 6), dtype="float32"))
            R.output(gv)
        return gv

    @R.function
    def main(x: R.Tensor((1, 3, 8, 8), dtype="float32"), w: R.Tensor((4, 3, 3, 3), dtype="float32"), b: R.Tensor((1, 4, 1, 1), dtype="float32")) -> R.Tensor((1, 4, 3, 3), dtype="float32"):
        cls = Module
        with R.dataflow():
            lv2: R.Tensor((1, 4, 6, 6), dtype="float32") = cls.fused_conv2d_add_relu(x, w, b)
            gv = R.call_tir(cls.max_pool2d, (lv2,), out_sinfo=R.Tensor((1, 4, 3, 3), dtype="float32"))
            R.output(gv)
        return gv
