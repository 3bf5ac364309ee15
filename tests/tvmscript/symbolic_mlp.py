# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 8), dtype="float32"), w: R.Tensor((8, 4), dtype="float32"), b: R.Tensor((1, 4), dtype="float32")) -> R.Tensor(("n", 4), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            lv: R.Tensor((n, 4), dtype="float32") = R.matmul(x, w, out_dtype="void")
            lv1: R.Tensor((n, 4), dtype="float32") = R.add(lv, b)
            gv: R.Tensor((n, 4), dtype="float32") = R.nn.relu(lv1)
            R.output(gv)
        return gv
