# from tvm.script import ir as I
# from tvm.script import relax as R

# A scalar parameter bound to 0.5 leaves the signature; its use reads the constant.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), s: R.Tensor((), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((4,), dtype="float32") = R.multiply(x, s)
            gv: R.Tensor((4,), dtype="float32") = R.add(lv, s)
            R.output(gv)
        return gv
