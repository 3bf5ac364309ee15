# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3, 4), dtype="float32")) -> R.Tensor((4, 6), dtype="float16"):
        with R.dataflow():
            lv: R.Tensor((4, 3, 2), dtype="float32") = R.permute_dims(x, axes=[2, 1, 0])
            lv1: R.Tensor((4, 6), dtype="float32") = R.reshape(lv, R.shape([4, 6]))
            lv2: R.Tensor((4, 6), dtype="float32") = R.nn.softmax(lv1, axis=-1)
            lv3: R.Tensor((4, 1), dtype="float32") = R.mean(lv2, axis=[1], keepdims=True)
            lv4: R.Tensor((4, 6), dtype="float32") = R.subtract(lv2, lv3)
            gv: R.Tensor((4, 6), dtype="float16") = R.astype(lv4, dtype="float16")
            R.output(gv)
        return gv
