# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# Already VM builtins and a PrimFunc call: nothing to lower.
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def exp(a: T.Buffer((T.int64(4),), "float32"), out: T.Buffer((T.int64(4),), "float32")):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        storage: R.Object = R.vm.alloc_storage(R.shape([16]), R.prim_value(0), R.dtype("uint8"), R.str("global"))
        y: R.Tensor((4,), dtype="float32") = R.vm.alloc_tensor(storage, R.prim_value(0), R.shape([4]), R.dtype("float32"), R.prim_value(0))
        _: R.Tuple = R.vm.kill_object(storage)
        _1: R.Tuple = cls.exp(x, y)
        return y
