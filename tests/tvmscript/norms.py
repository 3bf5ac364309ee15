# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_attrs({"phase": 1})

    @R.function
    def main(x: R.Tensor((2, 8), dtype="float32"), g: R.Tensor((8,), dtype="float32"), b: R.Tensor((8,), dtype="float32")) -> R.Tensor((2, 8), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((2, 8), dtype="float32") = R.nn.layer_norm(x, g, b, axes=[-1], epsilon=1.0000000000000001e-05, center=True, scale=True)
            gv: R.Tensor((2, 8), dtype="float32") = R.clip(lv, R.prim_value(T.float32(0.0)), R.prim_value(T.float32(6.0)))
            R.output(gv)
        return gv
