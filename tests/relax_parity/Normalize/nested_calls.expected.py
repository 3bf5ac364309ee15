# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), y: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        gv: R.Tensor((4,), dtype="float32") = R.add(x, x)
        gv1: R.Tensor((4,), dtype="float32") = R.subtract(x, y)
        gv2: R.Tensor((4,), dtype="float32") = R.exp(gv1)
        z: R.Tensor((4,), dtype="float32") = R.multiply(gv, gv2)
        gv3: R.Tensor((4,), dtype="float32") = R.add(z, y)
        return gv3
