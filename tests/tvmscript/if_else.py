# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(c: R.Tensor((), dtype="bool"), x: R.Tensor((2, 2), dtype="float32")) -> R.Tensor((2, 2), dtype="float32"):
        R.func_attr({"num_input": 2})
        if c:
            lv: R.Tensor((2, 2), dtype="float32") = R.add(x, x)
            y: R.Tensor((2, 2), dtype="float32") = R.multiply(lv, x)
        else:
            y: R.Tensor((2, 2), dtype="float32") = R.exp(x)
        z: R.Tensor((2, 2), dtype="float32") = R.sigmoid(y)
        return z
