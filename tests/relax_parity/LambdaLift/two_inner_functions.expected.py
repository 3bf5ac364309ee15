# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function(private=True)
    def main_square(a: R.Tensor((3,), dtype="float32")) -> R.Tensor((3,), dtype="float32"):
        s: R.Tensor((3,), dtype="float32") = R.multiply(a, a)
        return s

    @R.function(private=True)
    def main_twice(b: R.Tensor((3,), dtype="float32")) -> R.Tensor((3,), dtype="float32"):
        t: R.Tensor((3,), dtype="float32") = R.add(b, b)
        return t

    @R.function
    def main(x: R.Tensor((3,), dtype="float32")) -> R.Tensor((3,), dtype="float32"):
        cls = Module
        lv: R.Tensor((3,), dtype="float32") = cls.main_square(x)
        gv: R.Tensor((3,), dtype="float32") = cls.main_twice(lv)
        return gv
