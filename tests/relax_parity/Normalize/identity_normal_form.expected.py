# from tvm.script import ir as I
# from tvm.script import relax as R

# Already in normal form (TVMScript as TVM prints it): nothing to do.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), y: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")):
        with R.dataflow():
            lv: R.Tensor((4,), dtype="float32") = R.add(x, y)
            gv: R.Tensor((4,), dtype="float32") = R.multiply(lv, y)
            R.output(gv)
        t: R.Tensor((4,), dtype="float32") = R.exp(gv)
        return (gv, t)
