# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 4, 8, 8), dtype="float32"), idx: R.Tensor((2,), dtype="int64"), gamma: R.Tensor((4,), dtype="float32"), beta: R.Tensor((4,), dtype="float32"), mean: R.Tensor((4,), dtype="float32"), var: R.Tensor((4,), dtype="float32")) -> R.Tensor((1, 4, 16, 16), dtype="float32"):
        with R.dataflow():
            lv: R.Tuple(R.Tensor((1, 4, 8, 8), dtype="float32"), R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")) = R.nn.batch_norm(x, gamma, beta, mean, var, axis=1, epsilon=1.0000000000000001e-05, center=True, scale=True, momentum=0.10000000000000001, training=True)
            lv1: R.Tensor((1, 4, 8, 8), dtype="float32") = lv[0]
            lv2: R.Tensor((1, 4, 1, 1), dtype="float32") = R.nn.adaptive_avg_pool2d(lv1, output_size=[1, 1], layout="NCHW", out_layout="NCHW")
            lv3: R.Tensor((1, 4, 8, 8), dtype="float32") = R.multiply(lv1, lv2)
            lv4: R.Tensor((1, 2, 8, 8), dtype="float32") = R.take(lv3, idx, axis=1, mode="clip")
            lv5: R.Tensor((1, 2, 8, 8), dtype="float32") = R.strided_slice(lv3, axes=[1], begin=[0], end=[2], strides=[1], assume_inbound=False)
            lv6: R.Tensor((1, 2, 8, 8), dtype="bool") = R.greater(lv4, lv5)
            lv7: R.Tensor((1, 2, 8, 8), dtype="float32") = R.where(lv6, lv4, lv5)
            lv8: R.Tensor((1, 4, 8, 8), dtype="float32") = R.concat((lv7, lv5), axis=1)
            lv9: R.Tensor((1, 4, 8, 8), dtype="float32") = R.zeros(R.shape([1, 4, 8, 8]), dtype="float32")
            lv10: R.Tensor((1, 4, 8, 8), dtype="float32") = R.maximum(lv8, lv9)
            gv: R.Tensor((1, 4, 16, 16), dtype="float32") = R.image.resize2d(lv10, R.shape([16, 16]), roi=[0.0, 0.0, 0.0, 0.0], layout="NCHW", method="linear", coordinate_transformation_mode="half_pixel", rounding_method="round", cubic_alpha=-0.5, cubic_exclude=0, extrapolation_value=0.0, out_dtype="void")
            R.output(gv)
        return gv
