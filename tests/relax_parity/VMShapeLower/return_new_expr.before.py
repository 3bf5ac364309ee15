# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# The result's type needs n * n, which no parameter matches: a shape function
# computes it as soon as n is known, and the result (an opaque packed call's
# value) is checked and matched against it.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", "n"), dtype="float32")) -> R.Tensor(("n * n",), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        out: R.Object = R.call_packed("flatten_matrix", x, sinfo_args=(R.Object,))
        return out
