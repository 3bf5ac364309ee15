# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# Every shape variable of the signature bound by name: the types become static.
@I.ir_module
class Module:
    @R.function
    def main(A: R.Tensor(("M", "K"), dtype="float32"), B: R.Tensor(("K", "N"), dtype="float32")) -> R.Tensor(("M", "N"), dtype="float32"):
        M = T.int64()
        N = T.int64()
        K = T.int64()
        gv: R.Tensor((M, N), dtype="float32") = R.matmul(A, B, out_dtype="void")
        return gv
