# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# A dimension written with a leading parenthesis inside a list, and TVM's
# hand-written tensor types without dtype (dtype=None) or rank.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor(ndim=3, dtype=None)) -> R.Tensor(ndim=1, dtype="float32"):
        n = T.int64()
        gv: R.Tensor(((n + 1) * 2,), dtype="float32") = R.call_pure_packed("pad_flat", x, sinfo_args=(R.Tensor(((n + 1) * 2,), dtype="float32"),))
        s = R.shape([(n + 1) * 2, (n - 1) // 2])
        return gv
