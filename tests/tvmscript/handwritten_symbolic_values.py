from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T

# Symbolic shape values and targets written by hand: R.shape([n, 4]) as a
# value and as a call_packed argument, a symbolic R.Shape annotation (passlab
# keeps its rank: it prints R.Shape(ndim=2)), symbolic outputs of
# call_dps_packed and call_tir_inplace.
@I.ir_module
class Module:
    @T.prim_func
    def scale(A: T.Buffer((4, 4), "float32")):
        for i, j in T.grid(4, 4):
            A[i, j] = A[i, j] * T.float32(2.0)

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32")):
        n = T.int64()
        s: R.Shape([n, 4]) = R.shape([n, 4])
        y = R.call_dps_packed("my_kernel", (x,), out_sinfo=R.Tensor((n * 2, 4), dtype="float32"))
        z = R.call_tir_inplace(Module.scale, (x,), inplace_indices=[0], out_sinfo=R.Tensor((n, 4), dtype="float32"))
        w: R.Tensor((n * 4,), dtype="float32") = R.reshape(z, R.shape([n * 4]))
        return (y, w)
