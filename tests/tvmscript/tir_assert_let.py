# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def clamp_rows(A: T.Buffer((8, 4), "float32"), B: T.Buffer((8, 4), "float32"), n: T.int32):
        T.func_attr({"tir.noalias": True})
        with T.Assert(0 < n, "n must be positive"):
            for i, j in T.grid(8, 4):
                x = T.int32()
                B[i, j] = A[i, j] * T.Cast("float32", T.Let(x * x + 1, where={x: i % n}))
        assert n <= 8, "n must be at most 8"
        for i in range(8):
            B[i, 0] = B[i, 0] + T.float32(1.0)
