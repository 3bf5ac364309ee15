from tvm.script import ir as I
from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 4), "float32")):
        y = R.nn.relu(x)
        z: R.Tensor((1, 4), dtype="float32") = Module.act(y)
        return z

    @R.function
    def act(a: R.Tensor((1, 4), dtype="float32")) -> R.Tensor((1, 4), dtype="float32"):
        return R.sigmoid(a)
