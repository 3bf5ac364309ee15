# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# Static parameters: no symbolic dim, so the heap is R.null_value(); every
# parameter is checked (rank and dtype, or rank of a shape) and its static
# dims asserted as immediates (code 0).
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32"), s: R.Shape([4, 5]), t: R.Shape) -> R.Tensor((2, 3), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        return x
