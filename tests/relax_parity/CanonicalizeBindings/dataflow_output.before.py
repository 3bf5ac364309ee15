# from tvm.script import ir as I
# from tvm.script import relax as R

# In a dataflow block the output takes over the binding it was copied from.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((4,), dtype="float32") = R.multiply(x, x)
            lv1: R.Tensor((4,), dtype="float32") = lv
            lv2: R.Tensor((4,), dtype="float32") = lv1
            gv: R.Tensor((4,), dtype="float32") = lv2
            R.output(gv)
        return gv
