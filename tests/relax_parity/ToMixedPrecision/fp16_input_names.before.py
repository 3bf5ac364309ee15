# from tvm.script import ir as I
# from tvm.script import relax as R

# fp16_input_names=[w, b]: w and b already hold float16 values, so they become
# float16 parameters. conv2d takes w as it is (only x is cast), reshape and add
# follow b's float16; the block output goes back to float32.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, 8, 8), dtype="float32"), w: R.Tensor((4, 3, 3, 3), dtype="float32"), b: R.Tensor((4,), dtype="float32")) -> R.Tensor((1, 4, 6, 6), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((1, 4, 6, 6), dtype="float32") = R.nn.conv2d(x, w, out_dtype="float32")
            lv1: R.Tensor((1, 4, 1, 1), dtype="float32") = R.reshape(b, R.shape([1, 4, 1, 1]))
            gv: R.Tensor((1, 4, 6, 6), dtype="float32") = R.add(lv, lv1)
            R.output(gv)
        return gv
