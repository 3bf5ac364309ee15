# from tvm.script import ir as I
# from tvm.script import relax as R

# A 4-d bias is permuted to follow the add; the second convolution takes its
# input as it arrives (already NHWC) and only its kernel is permuted, again.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 4, 9, 9), dtype="float32"), w: R.Tensor((4, 4, 3, 3), dtype="float32"), b: R.Tensor((1, 4, 1, 1), dtype="float32")) -> R.Tensor((1, 4, 5, 5), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((1, 4, 7, 7), dtype="float32") = R.nn.conv2d(x, w, out_dtype="float32")
            lv1: R.Tensor((1, 4, 7, 7), dtype="float32") = R.add(lv, b)
            lv2: R.Tensor((1, 4, 7, 7), dtype="float32") = R.tanh(lv1)
            gv: R.Tensor((1, 4, 5, 5), dtype="float32") = R.nn.conv2d(lv2, w, out_dtype="float32")
            R.output(gv)
        return gv
