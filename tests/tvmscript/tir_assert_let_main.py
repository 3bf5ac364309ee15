# from tvm.script import ir as I
# from tvm.script import tirx as T

@I.ir_module
class Module:
    @T.prim_func
    def checked_scale(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32"), k: T.int32):
        T.func_attr({"tir.noalias": True})
        with T.Assert(k != 0, "k must be nonzero", error_kind="ValueError"):
            for i in range(16):
                y = T.int32()
                B[i] = A[i] * T.Cast("float32", T.Let(y // k, where={y: i * 4}))
        assert k < 100, ("ValueError", ["k must be below 100"])
        for i in T.parallel(16):
            B[i] = B[i] + T.float32(0.5)
