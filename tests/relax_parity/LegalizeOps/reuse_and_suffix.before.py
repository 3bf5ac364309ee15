# from tvm.script import ir as I
# from tvm.script import relax as R

# Two adds of one shape share one PrimFunc (TVM's BlockBuilder reuses an equal
# one); an add of another shape is add1.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32"), y: R.Tensor((2, 3), dtype="float32"), z: R.Tensor((3,), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((2, 3), dtype="float32") = R.add(x, y)
            lv1: R.Tensor((2, 3), dtype="float32") = R.add(lv, y)
            gv: R.Tensor((2, 3), dtype="float32") = R.add(lv1, z)
            R.output(gv)
        return gv
