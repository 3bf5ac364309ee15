# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# Symbolic values defined in the body: R.match_cast of a shape stores a and b
# (slots 0 and 1), R.match_cast of a prim value to R.Prim(value=c) stores c
# (slot 2) with vm.builtin.match_prim_value, and that makes b + c (slot 3)
# computable; the returned shape loads a and b + c. The parameters' types
# already say what the casts' checks would, so no check_*_info is emitted
# for the casts.
@I.ir_module
class Module:
    @R.function
    def main(s: R.Shape(ndim=2), k: R.Prim("int64")) -> R.Shape(ndim=2):
        a = T.int64()
        b = T.int64()
        c = T.int64()
        R.func_attr({"relax.force_pure": True})
        t: R.Shape([a, b]) = R.match_cast(s, R.Shape([a, b]))
        j: R.Prim(value=c) = R.match_cast(k, R.Prim(value=c))
        return R.shape([a, b + c])
