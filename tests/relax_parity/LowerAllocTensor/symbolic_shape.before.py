# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# A symbolic allocation's storage is the dtype's bytes times each dim, in
# order (TVM's 4 * n * 8), in uint8.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 8), dtype="float32")) -> R.Tensor(("n", 8), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        y: R.Tensor((n, 8), dtype="float32") = R.builtin.alloc_tensor(R.shape([n, 8]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        return y
