# from tvm.script import ir as I
# from tvm.script import relax as R

# silu as TVM legalizes it: topi.multiply(x, topi.sigmoid(x)), two stages.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        with R.dataflow():
            gv: R.Tensor((2, 3), dtype="float32") = R.nn.silu(x)
            R.output(gv)
        return gv
