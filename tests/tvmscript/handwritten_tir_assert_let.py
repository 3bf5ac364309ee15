# Hand-written: asserts and let expressions as people write them.
from tvm.script import tir as T

@T.prim_func
def guarded(A: T.Buffer((4,), "int32"), n: T.int32):
    assert n >= 0, "n " "must not be negative"
    x = T.int32()
    for i in range(4):
        A[i] = T.let(x, i + n, x * 2) + T.Let(x - 1, where={x: n})
    with T.Assert(n < 1000, "n too large"):
        A[0] = A[0] + 1
