from tvm.script import ir as I
from tvm.script import relax as R
from tvm.script import tir as T


@I.ir_module
class Model:
    @R.function
    def main(x: R.Tensor(("batch", 4), "float32"), y: R.Tensor(("batch", 4), "float32")) -> R.Tensor(("batch * 2", 4), "float32"):
        batch = T.int64()
        s: R.Tensor(("batch", 4), "float32") = R.add(x, y)
        z: R.Tensor((batch * 2, 4), "float32") = R.concat((s, y), axis=0)
        return z
