# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def max_pool2d(x: T.Buffer((T.int64(1), T.int64(2), T.int64(6), T.int64(6)), "float32"), pool_max: T.Buffer((T.int64(1), T.int64(2), T.int64(3), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": True})
        # with T.block("root"):
        pad_temp = T.alloc_buffer((T.int64(1), T.int64(2), T.int64(8), T.int64(8)))
        for i0, i1, i2, i3 in T.grid(T.int64(1), T.int64(2), T.int64(8), T.int64(8)):
            with T.block("pad_temp"):
                v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
                T.reads(x[v_i0, v_i1, v_i2 - T.int64(1), v_i3 - T.int64(1)])
                T.writes(pad_temp[v_i0, v_i1, v_i2, v_i3])
                pad_temp[v_i0, v_i1, v_i2, v_i3] = T.if_then_else(T.int64(1) <= v_i2 and v_i2 < T.int64(7) and T.int64(1) <= v_i3 and v_i3 < T.int64(7), x[v_i0, v_i1, v_i2 - T.int64(1), v_i3 - T.int64(1)], T.float32(-3.4028234663852886e+38))
        for i0, i1, i2, i3, k0, k1 in T.grid(T.int64(1), T.int64(2), T.int64(3), T.int64(3), T.int64(3), T.int64(3)):
            with T.block("pool_max"):
                v_i0, v_i1, v_i2, v_i3, v_k0, v_k1 = T.axis.remap("SSSSRR", [i0, i1, i2, i3, k0, k1])
                T.reads(pad_temp[v_i0, v_i1, v_i2 * T.int64(2) + v_k0, v_i3 * T.int64(2) + v_k1])
                T.writes(pool_max[v_i0, v_i1, v_i2, v_i3])
                T.block_attr({"schedule_rule": "meta_schedule.pool_max"})
                with T.init():
                    pool_max[v_i0, v_i1, v_i2, v_i3] = T.float32(-3.4028234663852886e+38)
                pool_max[v_i0, v_i1, v_i2, v_i3] = T.max(pool_max[v_i0, v_i1, v_i2, v_i3], pad_temp[v_i0, v_i1, v_i2 * T.int64(2) + v_k0, v_i3 * T.int64(2) + v_k1])

    @R.function
    def main(x: R.Tensor((1, 2, 6, 6), dtype="float32")) -> R.Tensor((1, 2, 3, 3), dtype="float32"):
        cls = Module
        gv = R.call_tir(cls.max_pool2d, (x,), out_sinfo=R.Tensor((1, 2, 3, 3), dtype="float32"))
        return gv
