# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# tir_vars= (TVM 0.20 .. 0.25): the symbolic extent n of y is passed to the
# PrimFunc's trailing scalar parameter m, which it adds to every element.
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def shift(A: T.Buffer((T.int64(4),), "float32"), B: T.Buffer((T.int64(4),), "float32"), m: T.int64):
        for i in range(T.int64(4)):
            B[i] = A[i] + T.Cast("float32", m)

    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), y: R.Tensor(("n",), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        n = T.int64()
        cls = Module
        gv = R.call_tir(cls.shift, (x,), out_sinfo=R.Tensor((4,), dtype="float32"), tir_vars=R.shape([n]))
        return gv
