# from tvm.script import ir as I
# from tvm.script import relax as R

# A chain of variable-to-variable bindings collapses to its first variable.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        y: R.Tensor((4,), dtype="float32") = x
        z: R.Tensor((4,), dtype="float32") = y
        q: R.Tensor((4,), dtype="float32") = R.add(z, y)
        o: R.Tensor((4,), dtype="float32") = q
        return o
