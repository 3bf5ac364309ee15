# from tvm.script import ir as I
# from tvm.script import tir as T

# Seed 004 in TVMScript (the same module as multi_target.relay): the target as
# the single source of truth. The host functions say where they run with
# T.target("llvm"); device_scale and its private subroutine scale_row say
# nothing, so BindTarget gives them the Hexagon target and refuses to
# overwrite the host's. The Hexagon code generator cannot emit calls, so
# InlinePrivateFunctions inlines scale_row into device_scale.
@I.ir_module
class Module:
    @T.prim_func
    def device_scale(X: T.Buffer((4, 32), "float32"), Y: T.Buffer((4, 32), "float32")):
        for i in range(4):
            Module.scale_row(X.data, Y.data, i)

    @T.prim_func
    def host_main(A: T.Buffer((4, 32), "float32"), W: T.Buffer((4, 32), "float32"), B: T.Buffer((4, 32), "float32")):
        T.func_attr({"target": T.target("llvm")})
        Module.host_prepare(A.data, W.data)
        Module.device_scale(W.data, B.data)

    @T.prim_func(private=True)
    def host_prepare(A: T.Buffer((4, 32), "float32"), W: T.Buffer((4, 32), "float32")):
        T.func_attr({"target": T.target("llvm")})
        for i in T.parallel(4):
            for j in T.vectorized(32):
                W[i, j] = T.max(A[i, j], T.float32(0.0))

    @T.prim_func(private=True)
    def scale_row(X: T.Buffer((4, 32), "float32"), Y: T.Buffer((4, 32), "float32"), r: T.int32):
        for j in T.vectorized(32):
            Y[r, j] = X[r, j] * T.float32(2.0) + T.float32(1.0)
