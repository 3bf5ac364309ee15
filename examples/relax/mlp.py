# from tvm.script import ir as I
# from tvm.script import relax as R

# A two-layer MLP in Relax: relax.zero fuses it into two kernels
# (fused_matmul_add_relu, fused_matmul1_add1), relax.default lowers it for the VM.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 8), dtype="float32"), w0: R.Tensor((8, 16), dtype="float32"), b0: R.Tensor((16,), dtype="float32"), w1: R.Tensor((16, 4), dtype="float32"), b1: R.Tensor((4,), dtype="float32")) -> R.Tensor((1, 4), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((1, 16), dtype="float32") = R.matmul(x, w0, out_dtype="void")
            lv1: R.Tensor((1, 16), dtype="float32") = R.add(lv, b0)
            lv2: R.Tensor((1, 16), dtype="float32") = R.nn.relu(lv1)
            lv3: R.Tensor((1, 4), dtype="float32") = R.matmul(lv2, w1, out_dtype="void")
            gv: R.Tensor((1, 4), dtype="float32") = R.add(lv3, b1)
            R.output(gv)
        return gv
