# from tvm.script import ir as I
# from tvm.script import relax as R

# FoldConstant of fold_before.py: 1 + 2 folded to a constant 3, bound where the
# add was (names are free: structural equality ignores them).
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3,), dtype="float32")) -> R.Tensor((3,), dtype="float32"):
        with R.dataflow():
            three: R.Tensor((), dtype="float32") = R.const(3.0, "float32")
            gv: R.Tensor((3,), dtype="float32") = R.multiply(x, three)
            R.output(gv)
        return gv
