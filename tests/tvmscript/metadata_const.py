# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 4), dtype="float32")) -> R.Tensor((1, 4), dtype="float32"):
        w: R.Tensor((4, 4), dtype="float32") = metadata["relax.expr.Constant"][0]
        b: R.Tensor((4,), dtype="float32") = metadata["relax.expr.Constant"][1]
        with R.dataflow():
            lv: R.Tensor((1, 4), dtype="float32") = R.matmul(x, w, out_dtype="void")
            gv: R.Tensor((1, 4), dtype="float32") = R.add(lv, b)
            R.output(gv)
        return gv

# Metadata omitted. Use show_meta=True in script() method to show it.
