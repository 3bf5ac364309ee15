# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# A dimension written with a leading parenthesis inside a list, and TVM's
# hand-written tensor types without dtype (dtype=None) or rank.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor(ndim=3, dtype=None)) -> R.Tensor(ndim=2, dtype="float32"):
        n = T.int64()
        s = R.shape([(n + 1) * 2, (n - 1) // 2])
        t = R.shape([(n + 1), 4])
        return x
