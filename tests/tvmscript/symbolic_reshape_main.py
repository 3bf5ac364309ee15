# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), y: R.Tensor(("m", 4), dtype="float32")) -> R.Tensor(("n * 4 + m * 4",), dtype="float32"):
        n = T.int64()
        m = T.int64()
        with R.dataflow():
            lv: R.Tensor((n + m, 4), dtype="float32") = R.concat((x, y), axis=0)
            lv1: R.Tensor((4, n + m), dtype="float32") = R.permute_dims(lv, axes=[1, 0])
            gv: R.Tensor((n * 4 + m * 4,), dtype="float32") = R.reshape(lv1, R.shape([-1]))
            R.output(gv)
        return gv
