# from tvm.script import ir as I
# from tvm.script import relax as R

# Seed 002 in TVMScript: the same module as model.relay, as TVM 0.20+ prints a
# Relax module. `scale` is a closure over `x`; LambdaLifting makes it a global.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 8), dtype="float32"), w: R.Tensor((8, 8), dtype="float32")) -> R.Tensor((1, 8), dtype="float32"):
        @R.function
        def scale(t: R.Tensor((1, 8), dtype="float32")) -> R.Tensor((1, 8), dtype="float32"):
            s: R.Tensor((1, 8), dtype="float32") = R.multiply(t, x)
            return s

        with R.dataflow():
            lv0: R.Tensor((8, 8), dtype="float32") = R.permute_dims(w, axes=[1, 0])
            lv1: R.Tensor((1, 8), dtype="float32") = R.matmul(x, lv0, out_dtype="void")
            lv2: R.Tensor((1, 8), dtype="float32") = scale(lv1)
            gv0: R.Tensor((1, 8), dtype="float32") = R.nn.relu(lv2)
            R.output(gv0)
        return gv0
