# from tvm.script import ir as I
# from tvm.script import relax as R

# The convolution moves to NHWC/OHWI: data and kernel get R.permute_dims in
# front of it, relu follows the new layout, and the block output is permuted back.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, 10, 10), dtype="float32"), w: R.Tensor((8, 3, 3, 3), dtype="float32")) -> R.Tensor((1, 8, 8, 8), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((1, 8, 8, 8), dtype="float32") = R.nn.conv2d(x, w, out_dtype="float32")
            gv: R.Tensor((1, 8, 8, 8), dtype="float32") = R.nn.relu(lv)
            R.output(gv)
        return gv
