# from tvm.script import ir as I
# from tvm.script import relax as R

# x is used by matmul (ALWAYS) and by add (FOLLOW): it stays float32 and is
# cast at the matmul. The add has a float32 input, so it is kept in float32
# (the matmul's float16 result cast back); softmax has no policy and sees float32.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 4), dtype="float32"), w: R.Tensor((4, 4), dtype="float32")) -> R.Tensor((2, 4), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((2, 4), dtype="float32") = R.matmul(x, w, out_dtype="float32")
            lv1: R.Tensor((2, 4), dtype="float32") = R.add(lv, x)
            gv: R.Tensor((2, 4), dtype="float32") = R.nn.softmax(lv1, axis=1)
            R.output(gv)
        return gv
