# from tvm.script import ir as I
# from tvm.script import relax as R

# A small CNN in Relax: conv2d + bias + relu, max pooling, flatten, a dense
# layer. relax.zero legalizes it to TVM's block-form kernels and fuses
# conv2d/add/relu and matmul/add; relax.default lowers it for the VM.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, 8, 8), dtype="float32"), w: R.Tensor((8, 3, 3, 3), dtype="float32"), b: R.Tensor((1, 8, 1, 1), dtype="float32"), fc_w: R.Tensor((128, 10), dtype="float32"), fc_b: R.Tensor((10,), dtype="float32")) -> R.Tensor((1, 10), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((1, 8, 8, 8), dtype="float32") = R.nn.conv2d(x, w, strides=[1, 1], padding=[1, 1, 1, 1], dilation=[1, 1], groups=1, data_layout="NCHW", kernel_layout="OIHW", out_layout="NCHW", out_dtype="void")
            lv1: R.Tensor((1, 8, 8, 8), dtype="float32") = R.add(lv, b)
            lv2: R.Tensor((1, 8, 8, 8), dtype="float32") = R.nn.relu(lv1)
            lv3: R.Tensor((1, 8, 4, 4), dtype="float32") = R.nn.max_pool2d(lv2, pool_size=[2, 2], strides=[2, 2], dilation=[1, 1], padding=[0, 0, 0, 0], ceil_mode=False, count_include_pad=False, layout="NCHW", out_layout="NCHW")
            lv4: R.Tensor((1, 128), dtype="float32") = R.reshape(lv3, R.shape([1, 128]))
            lv5: R.Tensor((1, 10), dtype="float32") = R.matmul(lv4, fc_w, out_dtype="void")
            gv: R.Tensor((1, 10), dtype="float32") = R.add(lv5, fc_b)
            R.output(gv)
        return gv
