# from tvm.script import ir as I
# from tvm.script import relax as R

# max_pool2d follows through its layout attribute, softmax through its axis
# (1 in NCHW is 3 in NHWC); sum follows with its axes found in NHWC, and its
# result (N, C) is in the original order again, so nothing is permuted back.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 2, 8, 8), dtype="float32"), w: R.Tensor((6, 2, 3, 3), dtype="float32")) -> R.Tensor((1, 6), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((1, 6, 8, 8), dtype="float32") = R.nn.conv2d(x, w, padding=[1, 1, 1, 1], out_dtype="float32")
            lv1: R.Tensor((1, 6, 4, 4), dtype="float32") = R.nn.max_pool2d(lv, pool_size=[2, 2], strides=[2, 2], layout="NCHW")
            lv2: R.Tensor((1, 6, 4, 4), dtype="float32") = R.nn.softmax(lv1, axis=1)
            gv: R.Tensor((1, 6), dtype="float32") = R.sum(lv2, axis=[2, 3])
            R.output(gv)
        return gv
