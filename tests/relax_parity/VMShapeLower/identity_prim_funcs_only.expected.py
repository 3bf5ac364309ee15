# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func
    def add_one(H: T.Buffer((4,), "int64")):
        H[T.int64(1)] = H[T.int64(0)] + T.int64(1)
