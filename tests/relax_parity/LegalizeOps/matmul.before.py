# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4, 8), dtype="float32"), w: R.Tensor((8, 16), dtype="float32")) -> R.Tensor((4, 16), dtype="float32"):
        gv: R.Tensor((4, 16), dtype="float32") = R.matmul(x, w, out_dtype="void")
        return gv
