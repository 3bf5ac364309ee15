# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((1, 2, 3, 3), dtype="float32"), g: R.Tensor((2,), dtype="float32"), b: R.Tensor((2,), dtype="float32"), m: R.Tensor((2,), dtype="float32"), v: R.Tensor((2,), dtype="float32")) -> R.Tensor((1, 2, 3, 3), dtype="float32"):
        with R.dataflow():
            lv1: R.Tensor((1, 2, 1, 1), dtype="float32") = R.reshape(m, R.shape([1, 2, 1, 1]))
            lv2: R.Tensor((1, 2, 3, 3), dtype="float32") = R.subtract(x, lv1)
            lv3: R.Tensor((1, 2, 1, 1), dtype="float32") = R.reshape(v, R.shape([1, 2, 1, 1]))
            lv4: R.Tensor((1, 2, 1, 1), dtype="float32") = R.add(lv3, R.const(9.9999997473787516e-06, "float32"))
            lv5: R.Tensor((1, 2, 1, 1), dtype="float32") = R.sqrt(lv4)
            lv6: R.Tensor((1, 2, 3, 3), dtype="float32") = R.divide(lv2, lv5)
            lv7: R.Tensor((1, 2, 1, 1), dtype="float32") = R.reshape(g, R.shape([1, 2, 1, 1]))
            lv8: R.Tensor((1, 2, 3, 3), dtype="float32") = R.multiply(lv6, lv7)
            lv9: R.Tensor((1, 2, 1, 1), dtype="float32") = R.reshape(b, R.shape([1, 2, 1, 1]))
            lv10: R.Tensor((1, 2, 3, 3), dtype="float32") = R.add(lv8, lv9)
            lv: R.Tuple(R.Tensor((1, 2, 3, 3), dtype="float32"), R.Tensor((2,), dtype="float32"), R.Tensor((2,), dtype="float32")) = (lv10, m, v)
            gv: R.Tensor((1, 2, 3, 3), dtype="float32") = lv[0]
            R.output(gv)
        return gv
