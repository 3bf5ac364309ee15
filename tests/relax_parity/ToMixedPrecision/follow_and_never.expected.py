# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 4), dtype="float32"), w: R.Tensor((4, 4), dtype="float32")) -> R.Tensor((2, 4), dtype="float32"):
        with R.dataflow():
            lv2: R.Tensor((4, 4), dtype="float16") = R.astype(w, dtype="float16")
            lv3: R.Tensor((2, 4), dtype="float16") = R.astype(x, dtype="float16")
            lv4: R.Tensor((2, 4), dtype="float32") = R.matmul(lv3, lv2, out_dtype="float32")
            lv: R.Tensor((2, 4), dtype="float16") = R.astype(lv4, dtype="float16")
            lv5: R.Tensor((2, 4), dtype="float32") = R.astype(lv, dtype="float32")
            lv1: R.Tensor((2, 4), dtype="float32") = R.add(lv5, x)
            gv: R.Tensor((2, 4), dtype="float32") = R.nn.softmax(lv1, axis=1)
            R.output(gv)
        return gv
