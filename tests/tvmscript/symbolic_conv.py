# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 3, 16, 16), dtype="float32"), w: R.Tensor((8, 3, 3, 3), dtype="float32")) -> R.Tensor(("n", 8), dtype="float32"):
        n = T.int64()
        with R.dataflow():
            lv: R.Tensor((n, 8, 16, 16), dtype="float32") = R.nn.conv2d(x, w, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
            lv1: R.Tensor((n, 8, 16, 16), dtype="float32") = R.nn.relu(lv)
            lv2: R.Tensor((n, 8, 1, 1), dtype="float32") = R.mean(lv1, axis=[2, 3], keepdims=True)
            gv: R.Tensor((n, 8), dtype="float32") = R.reshape(lv2, R.shape([-1, 8]))
            R.output(gv)
        return gv
