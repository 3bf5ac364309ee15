# from tvm.script import ir as I
# from tvm.script import relax as R

# NHWC data with an HWIO kernel: topi.nn.conv's conv2d_nhwc, its reductions
# ordered as H, W and C appear in the data layout.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 4, 4, 2), dtype="float32"), w: R.Tensor((3, 3, 2, 5), dtype="float32")) -> R.Tensor((1, 2, 2, 5), dtype="float32"):
        with R.dataflow():
            gv: R.Tensor((1, 2, 2, 5), dtype="float32") = R.nn.conv2d(x, w, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NHWC", kernel_layout="HWIO", out_layout="NHWC", out_dtype="void")
            R.output(gv)
        return gv
