# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# No Primitive function: FuseTIR changes nothing.
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add(lv: T.Buffer((T.int64(1), T.int64(16)), "float32"), b0: T.Buffer((T.int64(16),), "float32"), T_add: T.Buffer((T.int64(1), T.int64(16)), "float32")):
        T.func_attr({"op_pattern": 0, "tir.noalias": True})
        # with T.block("root"):
        for i0, i1 in T.grid(T.int64(1), T.int64(16)):
            with T.block("T_add"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                T.reads(lv[v_i0, v_i1], b0[v_i1])
                T.writes(T_add[v_i0, v_i1])
                T_add[v_i0, v_i1] = lv[v_i0, v_i1] + b0[v_i1]

    @T.prim_func(private=True)
    def add1(lv3: T.Buffer((T.int64(1), T.int64(4)), "float32"), b1: T.Buffer((T.int64(4),), "float32"), T_add: T.Buffer((T.int64(1), T.int64(4)), "float32")):
        T.func_attr({"op_pattern": 0, "tir.noalias": True})
        # with T.block("root"):
        for i0, i1 in T.grid(T.int64(1), T.int64(4)):
            with T.block("T_add"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                T.reads(lv3[v_i0, v_i1], b1[v_i1])
                T.writes(T_add[v_i0, v_i1])
                T_add[v_i0, v_i1] = lv3[v_i0, v_i1] + b1[v_i1]

    @T.prim_func(private=True)
    def matmul(x: T.Buffer((T.int64(1), T.int64(8)), "float32"), w0: T.Buffer((T.int64(8), T.int64(16)), "float32"), matmul_1: T.Buffer((T.int64(1), T.int64(16)), "float32")):
        T.func_attr({"op_pattern": 4, "tir.noalias": True})
        # with T.block("root"):
        for i0, i1, k0 in T.grid(T.int64(1), T.int64(16), T.int64(8)):
            with T.block("matmul"):
                v_i0, v_i1, v_k0 = T.axis.remap("SSR", [i0, i1, k0])
                T.reads(x[v_i0, v_k0], w0[v_k0, v_i1])
                T.writes(matmul_1[v_i0, v_i1])
                with T.init():
                    matmul_1[v_i0, v_i1] = T.float32(0.0)
                matmul_1[v_i0, v_i1] = matmul_1[v_i0, v_i1] + x[v_i0, v_k0] * w0[v_k0, v_i1]

    @T.prim_func(private=True)
    def matmul1(lv2: T.Buffer((T.int64(1), T.int64(16)), "float32"), w1: T.Buffer((T.int64(16), T.int64(4)), "float32"), matmul: T.Buffer((T.int64(1), T.int64(4)), "float32")):
        T.func_attr({"op_pattern": 4, "tir.noalias": True})
        # with T.block("root"):
        for i0, i1, k0 in T.grid(T.int64(1), T.int64(4), T.int64(16)):
            with T.block("matmul"):
                v_i0, v_i1, v_k0 = T.axis.remap("SSR", [i0, i1, k0])
                T.reads(lv2[v_i0, v_k0], w1[v_k0, v_i1])
                T.writes(matmul[v_i0, v_i1])
                with T.init():
                    matmul[v_i0, v_i1] = T.float32(0.0)
                matmul[v_i0, v_i1] = matmul[v_i0, v_i1] + lv2[v_i0, v_k0] * w1[v_k0, v_i1]

    @T.prim_func(private=True)
    def relu(lv1: T.Buffer((T.int64(1), T.int64(16)), "float32"), compute: T.Buffer((T.int64(1), T.int64(16)), "float32")):
        T.func_attr({"op_pattern": 0, "tir.noalias": True})
        # with T.block("root"):
        for i0, i1 in T.grid(T.int64(1), T.int64(16)):
            with T.block("compute"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                T.reads(lv1[v_i0, v_i1])
                T.writes(compute[v_i0, v_i1])
                compute[v_i0, v_i1] = T.max(lv1[v_i0, v_i1], T.float32(0.0))

    @R.function
    def main(x: R.Tensor((1, 8), dtype="float32"), w0: R.Tensor((8, 16), dtype="float32"), b0: R.Tensor((16,), dtype="float32"), w1: R.Tensor((16, 4), dtype="float32"), b1: R.Tensor((4,), dtype="float32")) -> R.Tensor((1, 4), dtype="float32"):
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.matmul, (x, w0), out_sinfo=R.Tensor((1, 16), dtype="float32"))
            lv1 = R.call_tir(cls.add, (lv, b0), out_sinfo=R.Tensor((1, 16), dtype="float32"))
            lv2 = R.call_tir(cls.relu, (lv1,), out_sinfo=R.Tensor((1, 16), dtype="float32"))
            lv3 = R.call_tir(cls.matmul1, (lv2, w1), out_sinfo=R.Tensor((1, 4), dtype="float32"))
            gv = R.call_tir(cls.add1, (lv3, b1), out_sinfo=R.Tensor((1, 4), dtype="float32"))
            R.output(gv)
        return gv
