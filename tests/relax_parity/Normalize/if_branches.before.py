# from tvm.script import ir as I
# from tvm.script import relax as R

# Each branch of an if is a scope of its own: its nested calls are bound inside
# the branch, before the value the branch yields.
@I.ir_module
class Module:
    @R.function
    def main(c: R.Tensor((), dtype="bool"), x: R.Tensor((2,), dtype="float32")) -> R.Tensor((2,), dtype="float32"):
        if c:
            y: R.Tensor((2,), dtype="float32") = R.multiply(R.add(x, x), x)
        else:
            y: R.Tensor((2,), dtype="float32") = R.exp(R.negative(x))
        return y
