# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function(pure=False)
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        storage: R.Object = R.vm.alloc_storage(R.shape([16]), R.prim_value(0), R.dtype("uint8"), R.str("global"))
        y: R.Tensor((4,), dtype="float32") = R.vm.alloc_tensor(storage, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        _: R.Tuple = R.vm.kill_object(storage)
        _1: R.Tuple = R.call_packed("my_runtime.fill", x, y, sinfo_args=(R.Tuple,))
        z: R.Tensor((4,), dtype="float32") = R.add(x, y)
        _2: R.Tuple = R.vm.kill_object(y)
        return z
