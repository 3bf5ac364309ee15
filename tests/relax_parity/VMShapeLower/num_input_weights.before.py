# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# Past num_input the parameters are weights: a static one is not checked, a
# symbolic one is (TVM's lifted-weights rule).
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((16, 16), dtype="float32"), w: R.Tensor((16, 16), dtype="float32"), b: R.Tensor(("n",), dtype="float32")) -> R.Tensor((16, 16), dtype="float32"):
        n = T.int64()
        R.func_attr({"num_input": 1, "relax.force_pure": True})
        return x
