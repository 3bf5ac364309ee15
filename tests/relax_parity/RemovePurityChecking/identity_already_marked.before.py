# from tvm.script import ir as I
# from tvm.script import relax as R

# Every function is already force-pure or impure: nothing to do.
@I.ir_module
class Module:
    @R.function(pure=False)
    def effect(a: R.Tensor((3,), dtype="float32")) -> R.Tensor((3,), dtype="float32"):
        return a

    @R.function
    def main(x: R.Tensor((3,), dtype="float32")) -> R.Tensor((3,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        gv: R.Tensor((3,), dtype="float32") = R.add(x, x)
        return gv
