# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 4, 9, 9), dtype="float32"), w: R.Tensor((4, 4, 3, 3), dtype="float32"), b: R.Tensor((1, 4, 1, 1), dtype="float32")) -> R.Tensor((1, 4, 5, 5), dtype="float32"):
        with R.dataflow():
            lv3: R.Tensor((1, 9, 9, 4), dtype="float32") = R.permute_dims(x, axes=[0, 2, 3, 1])
            lv4: R.Tensor((4, 3, 3, 4), dtype="float32") = R.permute_dims(w, axes=[0, 2, 3, 1])
            lv: R.Tensor((1, 7, 7, 4), dtype="float32") = R.nn.conv2d(lv3, lv4, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NHWC", kernel_layout="OHWI", out_layout="NHWC", out_dtype="float32")
            lv5: R.Tensor((1, 1, 1, 4), dtype="float32") = R.permute_dims(b, axes=[0, 2, 3, 1])
            lv1: R.Tensor((1, 7, 7, 4), dtype="float32") = R.add(lv, lv5)
            lv2: R.Tensor((1, 7, 7, 4), dtype="float32") = R.tanh(lv1)
            lv6: R.Tensor((4, 3, 3, 4), dtype="float32") = R.permute_dims(w, axes=[0, 2, 3, 1])
            lv7: R.Tensor((1, 5, 5, 4), dtype="float32") = R.nn.conv2d(lv2, lv6, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NHWC", kernel_layout="OHWI", out_layout="NHWC", out_dtype="float32")
            gv: R.Tensor((1, 4, 5, 5), dtype="float32") = R.permute_dims(lv7, axes=[0, 3, 1, 2])
            R.output(gv)
        return gv
