# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# A copy (b = a) and a match_cast to the value's own type are removed first,
# so each tensor is killed once, under its first name.
@I.ir_module
class Module:
    @R.function(pure=False)
    def main(w: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        a: R.Tensor((4,), dtype="float32") = R.multiply(w, w)
        b: R.Tensor((4,), dtype="float32") = a
        c: R.Tensor((4,), dtype="float32") = R.add(b, w)
        d: R.Tensor((4,), dtype="float32") = R.match_cast(c, R.Tensor((4,), dtype="float32"))
        e: R.Tensor((4,), dtype="float32") = R.exp(d)
        return e
