# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# A symbolic prim value parameter: R.Prim(value="m") is checked for its dtype
# and matched into the heap (vm.builtin.match_prim_value stores m in slot 1,
# after n of x's shape in slot 0). The returned R.prim_value(n * m) needs a
# slot of its own, computed by a shape function once n and m are known, and is
# built by vm.builtin.make_prim_value.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), k: R.Prim(value="m")) -> R.Prim("int64"):
        n = T.int64()
        m = T.int64()
        R.func_attr({"relax.force_pure": True})
        return R.prim_value(n * m)
