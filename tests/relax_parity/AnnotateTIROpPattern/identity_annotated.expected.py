# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add(x: T.Buffer((T.int64(2), T.int64(3)), "float32"), y: T.Buffer((T.int64(2), T.int64(3)), "float32"), T_add: T.Buffer((T.int64(2), T.int64(3)), "float32")):
        T.func_attr({"op_pattern": 0, "tir.noalias": True})
        # with T.block("root"):
        for i0, i1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("T_add"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                T.reads(x[v_i0, v_i1], y[v_i0, v_i1])
                T.writes(T_add[v_i0, v_i1])
                T_add[v_i0, v_i1] = x[v_i0, v_i1] + y[v_i0, v_i1]

    @T.prim_func(private=True)
    def add1(c: T.Buffer((T.int64(2), T.int64(1)), "float32"), d: T.Buffer((T.int64(1), T.int64(3)), "float32"), T_add: T.Buffer((T.int64(2), T.int64(3)), "float32")):
        T.func_attr({"op_pattern": 1, "tir.noalias": True})
        # with T.block("root"):
        for i0, i1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("T_add"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                T.reads(c[v_i0, T.int64(0)], d[T.int64(0), v_i1])
                T.writes(T_add[v_i0, v_i1])
                T_add[v_i0, v_i1] = c[v_i0, T.int64(0)] + d[T.int64(0), v_i1]

    @T.prim_func(private=True)
    def add2(lv0: T.Buffer((T.int64(2), T.int64(3)), "float32"), b: T.Buffer((T.int64(3),), "float32"), T_add: T.Buffer((T.int64(2), T.int64(3)), "float32")):
        T.func_attr({"op_pattern": 0, "tir.noalias": True})
        # with T.block("root"):
        for i0, i1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("T_add"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                T.reads(lv0[v_i0, v_i1], b[v_i1])
                T.writes(T_add[v_i0, v_i1])
                T_add[v_i0, v_i1] = lv0[v_i0, v_i1] + b[v_i1]

    @T.prim_func(private=True)
    def matmul(lv1: T.Buffer((T.int64(2), T.int64(3)), "float32"), w: T.Buffer((T.int64(3), T.int64(4)), "float32"), matmul_1: T.Buffer((T.int64(2), T.int64(4)), "float32")):
        T.func_attr({"op_pattern": 4, "tir.noalias": True})
        # with T.block("root"):
        for i0, i1, k0 in T.grid(T.int64(2), T.int64(4), T.int64(3)):
            with T.block("matmul"):
                v_i0, v_i1, v_k0 = T.axis.remap("SSR", [i0, i1, k0])
                T.reads(lv1[v_i0, v_k0], w[v_k0, v_i1])
                T.writes(matmul_1[v_i0, v_i1])
                with T.init():
                    matmul_1[v_i0, v_i1] = T.float32(0.0)
                matmul_1[v_i0, v_i1] = matmul_1[v_i0, v_i1] + lv1[v_i0, v_k0] * w[v_k0, v_i1]

    @T.prim_func(private=True)
    def row_sum(A: T.Buffer((T.int64(2), T.int64(3)), "float32"), B: T.Buffer((T.int64(2),), "float32")):
        T.func_attr({"op_pattern": 3, "tir.noalias": True})
        # with T.block("root"):
        for i, k in T.grid(T.int64(2), T.int64(3)):
            with T.block("B"):
                v_i, v_k = T.axis.remap("SR", [i, k])
                T.reads(A[v_i, v_k])
                T.writes(B[v_i])
                with T.init():
                    B[v_i] = T.float32(0.0)
                B[v_i] = B[v_i] + A[v_i, v_k]

    @T.prim_func(private=True)
    def scheduled_copy(A: T.Buffer((T.int64(8),), "float32"), B: T.Buffer((T.int64(8),), "float32")):
        T.func_attr({"op_pattern": 2, "tir.noalias": True})
        for i in T.vectorized(T.int64(8)):
            B[i] = A[i]

    @T.prim_func(private=True)
    def transpose(lv2: T.Buffer((T.int64(2), T.int64(4)), "float32"), T_transpose: T.Buffer((T.int64(4), T.int64(2)), "float32")):
        T.func_attr({"op_pattern": 2, "tir.noalias": True})
        # with T.block("root"):
        for i0, i1 in T.grid(T.int64(4), T.int64(2)):
            with T.block("T_transpose"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                T.reads(lv2[v_i1, v_i0])
                T.writes(T_transpose[v_i0, v_i1])
                T_transpose[v_i0, v_i1] = lv2[v_i1, v_i0]

    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32"), y: R.Tensor((2, 3), dtype="float32"), b: R.Tensor((3,), dtype="float32"), w: R.Tensor((3, 4), dtype="float32"), c: R.Tensor((2, 1), dtype="float32"), d: R.Tensor((1, 3), dtype="float32")) -> R.Tensor((4, 2), dtype="float32"):
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.add, (x, y), out_sinfo=R.Tensor((2, 3), dtype="float32"))
            lv0 = R.call_tir(cls.add1, (c, d), out_sinfo=R.Tensor((2, 3), dtype="float32"))
            lv1 = R.call_tir(cls.add2, (lv0, b), out_sinfo=R.Tensor((2, 3), dtype="float32"))
            lv2 = R.call_tir(cls.matmul, (lv1, w), out_sinfo=R.Tensor((2, 4), dtype="float32"))
            gv = R.call_tir(cls.transpose, (lv2,), out_sinfo=R.Tensor((4, 2), dtype="float32"))
            R.output(gv)
        return gv
