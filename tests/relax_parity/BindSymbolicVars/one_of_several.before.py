# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# Only the batch is bound; N stays symbolic, and the reshape's target and the
# dataflow bindings' types follow.
@I.ir_module
class Module:
    @R.function
    def main(A: R.Tensor(("batch", "N", 4), dtype="float32")) -> R.Tensor(("batch", "N * 4"), dtype="float32"):
        batch = T.int64()
        N = T.int64()
        with R.dataflow():
            lv: R.Tensor((batch, N, 4), dtype="float32") = R.nn.relu(A)
            gv: R.Tensor((batch, N * 4), dtype="float32") = R.reshape(lv, R.shape([batch, N * 4]))
            R.output(gv)
        return gv
