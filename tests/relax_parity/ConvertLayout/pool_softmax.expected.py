# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 2, 8, 8), dtype="float32"), w: R.Tensor((6, 2, 3, 3), dtype="float32")) -> R.Tensor((1, 6), dtype="float32"):
        with R.dataflow():
            lv3: R.Tensor((1, 8, 8, 2), dtype="float32") = R.permute_dims(x, axes=[0, 2, 3, 1])
            lv4: R.Tensor((6, 3, 3, 2), dtype="float32") = R.permute_dims(w, axes=[0, 2, 3, 1])
            lv: R.Tensor((1, 8, 8, 6), dtype="float32") = R.nn.conv2d(lv3, lv4, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NHWC", kernel_layout="OHWI", out_layout="NHWC", out_dtype="float32")
            lv1: R.Tensor((1, 4, 4, 6), dtype="float32") = R.nn.max_pool2d(lv, pool_size=[2, 2], strides=[2, 2], dilation=[1, 1], padding=[0, 0, 0, 0], ceil_mode=False, count_include_pad=False, layout="NHWC", out_layout="NHWC")
            lv2: R.Tensor((1, 4, 4, 6), dtype="float32") = R.nn.softmax(lv1, axis=3)
            gv: R.Tensor((1, 6), dtype="float32") = R.sum(lv2, axis=[1, 2], keepdims=False)
            R.output(gv)
        return gv
