# from tvm.script import ir as I
# from tvm.script import relax as R

# batch_norm follows NHWC with its axis found in it (1 becomes 3); the moving
# mean and variance keep their 1-d layout, so the returned tuple is rebuilt
# from the first field permuted back and the other two as they are.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 3, 6, 6), dtype="float32"), w: R.Tensor((4, 3, 3, 3), dtype="float32"), gamma: R.Tensor((4,), dtype="float32"), beta: R.Tensor((4,), dtype="float32"), mean: R.Tensor((4,), dtype="float32"), var: R.Tensor((4,), dtype="float32")) -> R.Tuple(R.Tensor((1, 4, 4, 4), dtype="float32"), R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")):
        with R.dataflow():
            lv: R.Tensor((1, 4, 4, 4), dtype="float32") = R.nn.conv2d(x, w, out_dtype="float32")
            gv: R.Tuple(R.Tensor((1, 4, 4, 4), dtype="float32"), R.Tensor((4,), dtype="float32"), R.Tensor((4,), dtype="float32")) = R.nn.batch_norm(lv, gamma, beta, mean, var, axis=1)
            R.output(gv)
        return gv
