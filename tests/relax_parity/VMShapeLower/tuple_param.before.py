# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# A tuple parameter is checked field by field through its projections, each
# bound once and reused by the matches after the checks.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tuple(R.Tensor(("n", "m"), dtype="float32"), R.Tuple(R.Shape, R.Tensor(("n", "k"), dtype="int32")))) -> R.Tuple(R.Tensor(("n", "m"), dtype="float32"), R.Tuple(R.Shape, R.Tensor(("n", "k"), dtype="int32"))):
        n = T.int64()
        m = T.int64()
        k = T.int64()
        R.func_attr({"relax.force_pure": True})
        return x
