# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, 6, 6), dtype="float32"), w: R.Tensor((4, 3, 3, 3), dtype="float32"), gamma: R.Tensor((4,), dtype="float32"), beta: R.Tensor((4,), dtype="float32")) -> R.Tensor((1, 4, 4, 4), dtype="float32"):
        with R.dataflow():
            lv1: R.Tensor((1, 6, 6, 3), dtype="float32") = R.permute_dims(x, axes=[0, 2, 3, 1])
            lv2: R.Tensor((4, 3, 3, 3), dtype="float32") = R.permute_dims(w, axes=[0, 2, 3, 1])
            lv: R.Tensor((1, 4, 4, 4), dtype="float32") = R.nn.conv2d(lv1, lv2, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NHWC", kernel_layout="OHWI", out_layout="NHWC", out_dtype="float32")
            lv3: R.Tensor((1, 4, 4, 4), dtype="float32") = R.nn.layer_norm(lv, gamma, beta, axes=[2], epsilon=1.0000000000000001e-05, center=True, scale=True)
            gv: R.Tensor((1, 4, 4, 4), dtype="float32") = R.permute_dims(lv3, axes=[0, 3, 1, 2])
            R.output(gv)
        return gv
