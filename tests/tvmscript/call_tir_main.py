# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function(private=True)
    def helper(x: R.Tensor((16,), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        y: R.Tensor((16,), dtype="float32") = R.multiply(x, x)
        return y

    @R.function
    def main(x: R.Tensor((16,), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        cls = Module
        gv: R.Tensor((16,), dtype="float32") = cls.helper(x)
        gv1 = R.call_dps_packed("my_kernel", (gv,), out_ty=R.Tensor((16,), dtype="float32"))
        return gv1
