# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(A: R.Tensor((128, 64), dtype="float32"), B: R.Tensor((64, 32), dtype="float32")) -> R.Tensor((128, 32), dtype="float32"):
        gv: R.Tensor((128, 32), dtype="float32") = R.matmul(A, B, out_dtype="void")
        return gv
