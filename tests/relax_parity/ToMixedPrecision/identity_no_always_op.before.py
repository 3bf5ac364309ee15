# from tvm.script import ir as I
# from tvm.script import relax as R

# No ALWAYS op: nothing is float16, so FOLLOW ops stay in float32.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((2, 3), dtype="float32") = R.nn.relu(x)
            gv: R.Tensor((2, 3), dtype="float32") = R.exp(lv)
            R.output(gv)
        return gv
