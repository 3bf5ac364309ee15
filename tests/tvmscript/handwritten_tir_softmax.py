from tvm.script import tir as T

@T.prim_func
def softmax_row(a: T.handle, b: T.handle) -> None:
    A = T.match_buffer(a, (8,), "float32")
    B = T.match_buffer(b, [8], dtype="float32")
    m = T.alloc_buffer((1,))
    s = T.alloc_buffer((1,))
    for i in range(8):
        with T.block("max"):
            vi = T.axis.reduce(8, i)
            with T.init():
                m[0] = T.float32(-3.4e38)
            m[0] = T.max(m[0], A[vi])
    for i in range(8):
        with T.block("sum"):
            vi = T.axis.R(8, i)
            with T.init():
                s[0] = T.float32(0)
            s[0] = s[0] + T.exp(A[vi] - m[0])
    for i in T.serial(0, 8):
        with T.LetStmt(T.exp(A[i] - m[0])) as e:
            if i < 4:
                B[i] = e / s[0]
            else:
                B[i] = T.if_then_else(s[0] > 0.0, e / s[0], T.float32(0))
