# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 8), dtype="float32")) -> R.Tensor(("n", 8), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            lv: R.Tensor((n, 8), dtype="float32") = R.nn.gelu(x)
            lv1: R.Tensor((n, 8), dtype="float32") = R.nn.silu(lv)
            gv: R.Tensor((n, 8), dtype="float32") = R.nn.softmax(lv1, axis=-1)
            R.output(gv)
        return gv
