# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4, 6), dtype="float32"), y: R.Tensor((4, 2), dtype="float32")) -> R.Tensor((4, 8), dtype="float32"):
        with R.dataflow():
            lv: R.Tuple(R.Tensor((4, 3), dtype="float32"), R.Tensor((4, 3), dtype="float32")) = R.split(x, indices_or_sections=2, axis=1)
            lv1: R.Tensor((4, 3), dtype="float32") = lv[0]
            lv2: R.Tensor((4, 3), dtype="float32") = lv[1]
            gv: R.Tensor((4, 8), dtype="float32") = R.concat((lv1, lv2, y), axis=1)
            R.output(gv)
        return gv
