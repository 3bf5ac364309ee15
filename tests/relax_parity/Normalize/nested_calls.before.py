# from tvm.script import ir as I
# from tvm.script import relax as R

# Nested calls become bindings of their own, innermost first, left to right;
# the returned call is bound too.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), y: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        z: R.Tensor((4,), dtype="float32") = R.multiply(R.add(x, x), R.exp(R.subtract(x, y)))
        return R.add(z, y)
