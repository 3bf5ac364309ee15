# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 2, 4, 4), dtype="float32"), w: R.Tensor((3, 2, 1, 1), dtype="float32")) -> R.Tuple(R.Tensor((1, 3, 4, 4), dtype="float32"), R.Tensor((1, 3, 4, 4), dtype="float32")):
        with R.dataflow():
            lv: R.Tensor((1, 4, 4, 2), dtype="float32") = R.permute_dims(x, axes=[0, 2, 3, 1])
            lv1: R.Tensor((3, 1, 1, 2), dtype="float32") = R.permute_dims(w, axes=[0, 2, 3, 1])
            lv2: R.Tensor((1, 4, 4, 3), dtype="float32") = R.nn.conv2d(lv, lv1, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NHWC", kernel_layout="OHWI", out_layout="NHWC", out_dtype="float32")
            gv: R.Tensor((1, 3, 4, 4), dtype="float32") = R.permute_dims(lv2, axes=[0, 3, 1, 2])
            gv1: R.Tensor((1, 3, 4, 4), dtype="float32") = R.add(gv, R.const(1.0, "float32"))
            R.output(gv, gv1)
        return (gv, gv1)
