# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function(private=True)
    def helper(a: R.Tensor((3,), dtype="float32")) -> R.Tensor((3,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        s: R.Tensor((3,), dtype="float32") = R.exp(a)
        return s

    @R.function(pure=False)
    def effect(a: R.Tensor((3,), dtype="float32")) -> R.Tensor((3,), dtype="float32"):
        return a

    @R.function
    def main(x: R.Tensor((3,), dtype="float32")) -> R.Tensor((3,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        gv: R.Tensor((3,), dtype="float32") = cls.helper(x)
        return gv
