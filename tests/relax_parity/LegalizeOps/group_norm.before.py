# from tvm.script import ir as I
# from tvm.script import relax as R

# group_norm of a 3-d tensor, 6 channels in 2 groups, normalized over the
# channels of a group and the last axis: topi reshapes the data to
# (2, 2, 3, 4), sums x and x * x per (batch, group) in one block, reshapes
# gamma and beta to (2, 3), normalizes, and reshapes back.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 6, 4), dtype="float32"), gamma: R.Tensor((6,), dtype="float32"), beta: R.Tensor((6,), dtype="float32")) -> R.Tensor((2, 6, 4), dtype="float32"):
        with R.dataflow():
            gv: R.Tensor((2, 6, 4), dtype="float32") = R.nn.group_norm(x, gamma, beta, num_groups=2, channel_axis=1, axes=[2], epsilon=0.001)
            R.output(gv)
        return gv
