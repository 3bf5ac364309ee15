# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 2, 5, 5), dtype="float32"), w: R.Tensor((3, 2, 3, 3), dtype="float32")) -> R.Tensor((), dtype="float32"):
        with R.dataflow():
            lv2: R.Tensor((1, 5, 5, 2), dtype="float32") = R.permute_dims(x, axes=[0, 2, 3, 1])
            lv3: R.Tensor((3, 3, 3, 2), dtype="float32") = R.permute_dims(w, axes=[0, 2, 3, 1])
            lv: R.Tensor((1, 3, 3, 3), dtype="float32") = R.nn.conv2d(lv2, lv3, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NHWC", kernel_layout="OHWI", out_layout="NHWC", out_dtype="float32")
            lv1: R.Tensor((1, 3, 3, 3), dtype="float32") = R.nn.relu(lv)
            gv: R.Tensor((), dtype="float32") = R.sum(lv1, axis=[0, 1, 2, 3], keepdims=False)
            R.output(gv)
        return gv
