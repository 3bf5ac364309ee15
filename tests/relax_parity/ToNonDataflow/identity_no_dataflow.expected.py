# from tvm.script import ir as I
# from tvm.script import relax as R

# No dataflow block: nothing changes.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), y: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        lv: R.Tensor((4,), dtype="float32") = R.add(x, y)
        gv: R.Tensor((4,), dtype="float32") = R.multiply(lv, y)
        return gv
