# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 8), dtype="float32")) -> R.Tensor(("n", 8), dtype="float32"):
        n = T.int64()
        R.func_attr({"relax.force_pure": True})
        storage: R.Object = R.memory.alloc_storage(R.shape([4 * n * 8]), R.prim_value(0), R.str("global"), R.dtype("uint8"))
        y: R.Tensor((n, 8), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([n, 8]), R.dtype("float32"), R.prim_value(0))
        return y
