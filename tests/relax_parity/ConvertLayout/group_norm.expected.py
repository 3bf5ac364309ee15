# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3, 5, 5), dtype="float32"), w: R.Tensor((6, 3, 3, 3), dtype="float32"), gamma: R.Tensor((6,), dtype="float32"), beta: R.Tensor((6,), dtype="float32")) -> R.Tensor((2, 6, 3, 3), dtype="float32"):
        with R.dataflow():
            lv2: R.Tensor((2, 5, 5, 3), dtype="float32") = R.permute_dims(x, axes=[0, 2, 3, 1])
            lv3: R.Tensor((6, 3, 3, 3), dtype="float32") = R.permute_dims(w, axes=[0, 2, 3, 1])
            lv: R.Tensor((2, 3, 3, 6), dtype="float32") = R.nn.conv2d(lv2, lv3, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NHWC", kernel_layout="OHWI", out_layout="NHWC", out_dtype="float32")
            lv1: R.Tensor((2, 3, 3, 6), dtype="float32") = R.nn.group_norm(lv, gamma, beta, num_groups=3, channel_axis=3, axes=[1, 2], epsilon=1.0000000000000001e-05, center=True, scale=True)
            lv4: R.Tensor((2, 3, 3, 6), dtype="float32") = R.nn.relu(lv1)
            gv: R.Tensor((2, 6, 3, 3), dtype="float32") = R.permute_dims(lv4, axes=[0, 3, 1, 2])
            R.output(gv)
        return gv
