# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, 8, 8), dtype="float32"), w: R.Tensor((4, 3, 3, 3), dtype="float16"), b: R.Tensor((4,), dtype="float16")) -> R.Tensor((1, 4, 6, 6), dtype="float32"):
        with R.dataflow():
            lv2: R.Tensor((1, 3, 8, 8), dtype="float16") = R.astype(x, dtype="float16")
            lv: R.Tensor((1, 4, 6, 6), dtype="float16") = R.nn.conv2d(lv2, w, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="float16")
            lv1: R.Tensor((1, 4, 1, 1), dtype="float16") = R.reshape(b, R.shape([1, 4, 1, 1]))
            lv3: R.Tensor((1, 4, 6, 6), dtype="float16") = R.add(lv, lv1)
            gv: R.Tensor((1, 4, 6, 6), dtype="float32") = R.astype(lv3, dtype="float32")
            R.output(gv)
        return gv
