# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main() -> R.Tuple(R.Tensor((2, 3), dtype="int32"), R.Tensor((3,), dtype="float32")):
        R.func_attr({"relax.force_pure": True})
        storage: R.Object = R.memory.alloc_storage(R.shape([24]), R.prim_value(0), R.str("global"), R.dtype("uint8"))
        a: R.Tensor((2, 3), dtype="int32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([2, 3]), R.dtype("int32"), R.prim_value(0))
        storage1: R.Object = R.memory.alloc_storage(R.shape([12]), R.prim_value(0), R.str("global"), R.dtype("uint8"))
        b: R.Tensor((3,), dtype="float32") = R.memory.alloc_tensor(storage1, R.prim_value(0), R.shape([3]), R.dtype("float32"), R.prim_value(0))
        gv: R.Tuple(R.Tensor((2, 3), dtype="int32"), R.Tensor((3,), dtype="float32")) = (a, b)
        return gv
