# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(A: R.Tensor((16, "N", 4), dtype="float32")) -> R.Tensor((16, "N * 4"), dtype="float32"):
        N = T.int64()
        with R.dataflow():
            lv: R.Tensor((16, N, 4), dtype="float32") = R.nn.relu(A)
            gv: R.Tensor((16, N * 4), dtype="float32") = R.reshape(lv, R.shape([16, N * 4]))
            R.output(gv)
        return gv
