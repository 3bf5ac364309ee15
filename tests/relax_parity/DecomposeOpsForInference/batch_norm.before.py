# from tvm.script import ir as I
# from tvm.script import relax as R

# batch_norm in inference form: (x - mean) / sqrt(var + eps) * gamma + beta,
# each step one binding, the parameters reshaped along axis 1, and the tuple
# (out, mean, var) where the call was.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 2, 3, 3), dtype="float32"), g: R.Tensor((2,), dtype="float32"), b: R.Tensor((2,), dtype="float32"), m: R.Tensor((2,), dtype="float32"), v: R.Tensor((2,), dtype="float32")) -> R.Tensor((1, 2, 3, 3), dtype="float32"):
        with R.dataflow():
            lv: R.Tuple(R.Tensor((1, 2, 3, 3), dtype="float32"), R.Tensor((2,), dtype="float32"), R.Tensor((2,), dtype="float32")) = R.nn.batch_norm(x, g, b, m, v, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True)
            gv: R.Tensor((1, 2, 3, 3), dtype="float32") = lv[0]
            R.output(gv)
        return gv
