# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        lv = R.call_dps_packed("split_two", (x,), out_sinfo=[R.Tensor((2,), dtype="float32"), R.Tensor((2,), dtype="float32")])
        lv1: R.Tensor((2,), dtype="float32") = lv[0]
        lv2: R.Tensor((2,), dtype="float32") = lv[1]
        gv: R.Tensor((4,), dtype="float32") = R.concat((lv2, lv1), axis=0)
        return gv
