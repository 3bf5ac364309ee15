# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, 8, 8), dtype="float32"), w: R.Tensor((4, 3, 3, 3), dtype="float32")) -> R.Tensor((1, 4, 6, 6), dtype="float32"):
        with R.dataflow():
            lv1: R.Tensor((1, 3, 8, 8), dtype="float16") = R.astype(x, dtype="float16")
            lv2: R.Tensor((4, 3, 3, 3), dtype="float16") = R.astype(w, dtype="float16")
            lv: R.Tensor((1, 4, 6, 6), dtype="float16") = R.nn.conv2d(lv1, lv2, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float16")
            lv3: R.Tensor((1, 4, 6, 6), dtype="float16") = R.nn.relu(lv)
            gv: R.Tensor((1, 4, 6, 6), dtype="float32") = R.astype(lv3, dtype="float32")
            R.output(gv)
        return gv
