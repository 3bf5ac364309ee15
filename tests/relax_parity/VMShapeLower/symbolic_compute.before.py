# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# A match_cast defines k; k + 1 cannot be matched until a shape function
# computes it into its slot (n: 0, m: 1, k: 2, k + 1: 3), so y is matched
# twice: first storing k (code 2 skips k + 1), then asserting every dim. The
# returned R.shape value is built from the heap by make_shape.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32"), y: R.Tensor(dtype="float32", ndim=3)) -> R.Shape(ndim=3):
        n = T.int64()
        m = T.int64()
        k = T.int64()
        R.func_attr({"relax.force_pure": True})
        z: R.Tensor((k, m, k + 1), dtype="float32") = R.match_cast(y, R.Tensor((k, m, k + 1), dtype="float32"))
        return R.shape([k + 1, m, 2])
