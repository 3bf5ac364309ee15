from tvm.script import ir as I
from tvm.script import tirx as T


@I.ir_module
class Module:
    @T.prim_func(private=True, s_tir=True)
    def rowsum_scaled(X: T.Buffer((4, 6), "float16"), Y: T.Buffer((4,), "float32")):
        T.func_attr({"target": T.target({"kind": "llvm", "mcpu": "skylake"})})
        for i in T.serial(4):
            with T.sblock("rows"):
                vi = T.axis.S(4, i)
                T.reads(X[vi, 0:6])
                T.writes(Y[vi])
                T.sblock_attr({"note": "hand-written"})
                tmp = T.sblock_alloc_buffer((1,), "float32")
                tmp[0] = T.float32(0)
                for k in range(6):
                    tmp[0] = tmp[0] + T.Cast("float32", X[vi, k])
                scale: T.let[T.float32] = T.float32(0.5)
                Y[vi] = tmp[0] * scale
