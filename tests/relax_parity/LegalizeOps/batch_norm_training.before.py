# from tvm.script import ir as I
# from tvm.script import relax as R

# R.nn.batch_norm with TVM's default training=True: one PrimFunc with three
# outputs, the batch's mean and biased variance normalizing and the moving
# statistics moved toward them by momentum (topi.nn.batch_norm).
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3, 2, 2), dtype="float32"), gamma: R.Tensor((3,), dtype="float32"), beta: R.Tensor((3,), dtype="float32"), moving_mean: R.Tensor((3,), dtype="float32"), moving_var: R.Tensor((3,), dtype="float32")) -> R.Tuple(R.Tensor((2, 3, 2, 2), dtype="float32"), R.Tensor((3,), dtype="float32"), R.Tensor((3,), dtype="float32")):
        gv: R.Tuple(R.Tensor((2, 3, 2, 2), dtype="float32"), R.Tensor((3,), dtype="float32"), R.Tensor((3,), dtype="float32")) = R.nn.batch_norm(x, gamma, beta, moving_mean, moving_var, axis=1)
        return gv
