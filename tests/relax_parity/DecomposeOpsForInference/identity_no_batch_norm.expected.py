# from tvm.script import ir as I
# from tvm.script import relax as R

# Nothing to decompose.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        with R.dataflow():
            gv: R.Tensor((2, 3), dtype="float32") = R.nn.relu(x)
            R.output(gv)
        return gv
