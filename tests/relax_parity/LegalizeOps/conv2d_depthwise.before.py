# from tvm.script import ir as I
# from tvm.script import relax as R

# A depthwise convolution (groups = channels): topi's group_conv2d_nchw,
# reading input channel ff // 1 * 1 + rc, which TE folds to ff + rc.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 2, 4, 4), dtype="float32"), w: R.Tensor((2, 1, 3, 3), dtype="float32")) -> R.Tensor((1, 2, 4, 4), dtype="float32"):
        with R.dataflow():
            gv: R.Tensor((1, 2, 4, 4), dtype="float32") = R.nn.conv2d(x, w, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=2, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
            R.output(gv)
        return gv
