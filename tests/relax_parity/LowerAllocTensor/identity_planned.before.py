# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# Already planned: memory.alloc_tensor in a planned storage is left alone.
@I.ir_module
class Module:
    @R.function
    def main() -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        storage: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("float32"))
        y: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        return y
