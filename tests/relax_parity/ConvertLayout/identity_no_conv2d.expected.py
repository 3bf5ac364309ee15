# from tvm.script import ir as I
# from tvm.script import relax as R

# No convolution: nothing is converted, not even the pool.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 2, 4, 4), dtype="float32")) -> R.Tensor((1, 2, 2, 2), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((1, 2, 4, 4), dtype="float32") = R.nn.relu(x)
            gv: R.Tensor((1, 2, 2, 2), dtype="float32") = R.nn.max_pool2d(lv, pool_size=[2, 2], strides=[2, 2], dilation=[1, 1], padding=[0, 0, 0, 0], ceil_mode=False, layout="NCHW", out_layout="NCHW")
            R.output(gv)
        return gv
