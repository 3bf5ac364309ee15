# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(dtype="float32", ndim=2), y: R.Tensor, z: R.Tensor((2, 3)), w: R.Tensor(dtype="int32")) -> R.Tensor((2, 3), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((2, 3), dtype="float32") = R.match_cast(x, R.Tensor((2, 3), dtype="float32"))
            lv1: R.Tensor((2, 3), dtype="float32") = R.match_cast(z, R.Tensor((2, 3), dtype="float32"))
            gv: R.Tensor((2, 3), dtype="float32") = R.add(lv, lv1)
            R.output(gv)
        return gv
