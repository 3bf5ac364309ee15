# from tvm.script import ir as I
# from tvm.script import relax as R

# topi.nn.softmax: four stages, the first three scratch buffers of the root block.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3, 4), dtype="float32")) -> R.Tensor((2, 3, 4), dtype="float32"):
        gv: R.Tensor((2, 3, 4), dtype="float32") = R.nn.softmax(x, axis=1)
        return gv
