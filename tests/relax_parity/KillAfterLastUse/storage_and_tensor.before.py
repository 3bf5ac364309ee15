# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# The storage dies with the last tensor placed in it; the tensor after the
# op that reads it last. The parameter and the returned value are never killed.
@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        storage: R.Object = R.memory.alloc_storage(R.shape([16]), R.prim_value(0), R.str("global"), R.dtype("uint8"))
        y: R.Tensor((4,), dtype="float32") = R.memory.alloc_tensor(storage, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        _: R.Tuple = R.call_packed("my_runtime.fill", x, y, sinfo_args=(R.Tuple,))
        z: R.Tensor((4,), dtype="float32") = R.add(x, y)
        return z
