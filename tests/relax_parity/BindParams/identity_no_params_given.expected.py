# from tvm.script import ir as I
# from tvm.script import relax as R

# With no parameter named, the module comes back unchanged.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), w: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        gv: R.Tensor((4,), dtype="float32") = R.add(x, w)
        return gv
