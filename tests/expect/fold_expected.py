# from tvm.script import ir as I
# from tvm.script import relax as R

# FoldConstant of fold_before.py: 1 + 2 folded to 3.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3,), dtype="float32")) -> R.Tensor((3,), dtype="float32"):
        with R.dataflow():
            gv: R.Tensor((3,), dtype="float32") = R.multiply(x, R.const(3.0, "float32"))
            R.output(gv)
        return gv
