# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(dtype="float32", ndim=2), w: R.Tensor((4, 4), dtype="float32")) -> R.Tensor(("m", 4), dtype="float32"):
        m = T.int64()
        with R.dataflow():
            lv: R.Tensor((m, 4), dtype="float32") = R.match_cast(x, R.Tensor((m, 4), dtype="float32"))
            lv1: R.Tensor((m, 4), dtype="float32") = R.matmul(lv, w, out_dtype="void")
            gv: R.Tensor((m, 4), dtype="float32") = R.nn.relu(lv1)
            R.output(gv)
        return gv
