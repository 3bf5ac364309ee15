# from tvm.script import ir as I
# from tvm.script import relax as R

# group_norm follows NHWC: its channel axis (C: 1 becomes 3) and the axes it
# normalizes over (H, W: 2, 3 become 1, 2) are found in the new layout;
# gamma and beta stay 1-d.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3, 5, 5), dtype="float32"), w: R.Tensor((6, 3, 3, 3), dtype="float32"), gamma: R.Tensor((6,), dtype="float32"), beta: R.Tensor((6,), dtype="float32")) -> R.Tensor((2, 6, 3, 3), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((2, 6, 3, 3), dtype="float32") = R.nn.conv2d(x, w, out_dtype="float32")
            lv1: R.Tensor((2, 6, 3, 3), dtype="float32") = R.nn.group_norm(lv, gamma, beta, num_groups=3, channel_axis=1, axes=[2, 3])
            gv: R.Tensor((2, 6, 3, 3), dtype="float32") = R.nn.relu(lv1)
            R.output(gv)
        return gv
