# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")):
        with R.dataflow():
            lv1: R.Tensor((2, 3), dtype="float32") = R.add(x, x)
            lv: R.Tensor((2, 3), dtype="float32") = R.nn.relu(lv1)
            lv2: R.Tensor((2, 3), dtype="float32") = R.multiply(lv, x)
            gv: R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")) = (lv, lv2)
            R.output(gv)
        return gv
