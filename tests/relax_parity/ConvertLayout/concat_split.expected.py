# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, 6, 6), dtype="float32"), w: R.Tensor((2, 3, 3, 3), dtype="float32"), y: R.Tensor((1, 2, 4, 4), dtype="float32")) -> R.Tuple(R.Tensor((1, 2, 4, 4), dtype="float32"), R.Tensor((1, 2, 4, 4), dtype="float32")):
        with R.dataflow():
            lv3: R.Tensor((1, 6, 6, 3), dtype="float32") = R.permute_dims(x, axes=[0, 2, 3, 1])
            lv4: R.Tensor((2, 3, 3, 3), dtype="float32") = R.permute_dims(w, axes=[0, 2, 3, 1])
            lv: R.Tensor((1, 4, 4, 2), dtype="float32") = R.nn.conv2d(lv3, lv4, strides=[1, 1], padding=[0, 0, 0, 0], dilation=[1, 1], groups=1, data_layout="NHWC", kernel_layout="OHWI", out_layout="NHWC", out_dtype="float32")
            lv1: R.Tensor((1, 4, 4, 2), dtype="float32") = R.nn.relu(lv)
            lv5: R.Tensor((1, 4, 4, 2), dtype="float32") = R.permute_dims(y, axes=[0, 2, 3, 1])
            lv2: R.Tensor((1, 4, 4, 4), dtype="float32") = R.concat((lv1, lv5), axis=3)
            lv6: R.Tuple(R.Tensor((1, 4, 4, 2), dtype="float32"), R.Tensor((1, 4, 4, 2), dtype="float32")) = R.split(lv2, indices_or_sections=2, axis=3)
            lv7: R.Tensor((1, 4, 4, 2), dtype="float32") = lv6[0]
            lv8: R.Tensor((1, 2, 4, 4), dtype="float32") = R.permute_dims(lv7, axes=[0, 3, 1, 2])
            lv9: R.Tensor((1, 4, 4, 2), dtype="float32") = lv6[1]
            lv10: R.Tensor((1, 2, 4, 4), dtype="float32") = R.permute_dims(lv9, axes=[0, 3, 1, 2])
            gv: R.Tuple(R.Tensor((1, 2, 4, 4), dtype="float32"), R.Tensor((1, 2, 4, 4), dtype="float32")) = (lv8, lv10)
            R.output(gv)
        return gv
