# from tvm.script import ir as I
# from tvm.script import relax as R

# Already NHWC/OHWI: nothing to permute.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 5, 5, 2), dtype="float32"), w: R.Tensor((4, 3, 3, 2), dtype="float32")) -> R.Tensor((1, 3, 3, 4), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((1, 3, 3, 4), dtype="float32") = R.nn.conv2d(x, w, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NHWC", kernel_layout="OHWI", out_layout="NHWC", out_dtype="float32")
            gv: R.Tensor((1, 3, 3, 4), dtype="float32") = R.nn.relu(lv)
            R.output(gv)
        return gv
