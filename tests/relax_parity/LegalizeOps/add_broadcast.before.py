# from tvm.script import ir as I
# from tvm.script import relax as R

# R.add with numpy broadcasting on both sides: (1, 2, 3) + (4, 3, 2, 1).
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 2, 3), dtype="float32"), y: R.Tensor((4, 3, 2, 1), dtype="float32")) -> R.Tensor((4, 3, 2, 3), dtype="float32"):
        gv: R.Tensor((4, 3, 2, 3), dtype="float32") = R.add(x, y)
        return gv
