# The VM-lowering forms as TVM's tests write them by hand: LowerRuntimeBuiltin's
# output after memory planning, with kills (tests/relax_parity/LowerRuntimeBuiltin).
# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def exp(a: T.Buffer((T.int64(4), T.int64(4)), "float32"), out: T.Buffer((T.int64(4), T.int64(4)), "float32")):
        T.evaluate(0)

    @T.prim_func(private=True)
    def relu(a: T.Buffer((T.int64(4), T.int64(4)), "float32"), out: T.Buffer((T.int64(4), T.int64(4)), "float32")):
        T.evaluate(0)

    @T.prim_func(private=True)
    def negative(a: T.Buffer((T.int64(16),), "float32"), out: T.Buffer((T.int64(16),), "float32")):
        T.evaluate(0)

    @T.prim_func(private=True)
    def sigmoid(a: T.Buffer((T.int64(16),), "float32"), out: T.Buffer((T.int64(16),), "float32")):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((4, 4), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        storage: R.Object = R.vm.alloc_storage(R.shape([64]), R.prim_value(0), R.dtype("uint8"), R.str("global"))
        alloc: R.Tensor((4, 4), dtype="float32") = R.vm.alloc_tensor(storage, R.prim_value(0), R.shape([4, 4]), R.dtype("float32"), R.prim_value(0))
        _: R.Tuple = cls.exp(x, alloc)
        storage1: R.Object = R.vm.alloc_storage(R.shape([64]), R.prim_value(0), R.dtype("uint8"), R.str("global"))
        alloc1: R.Tensor((4, 4), dtype="float32") = R.vm.alloc_tensor(storage1, R.prim_value(0), R.shape([4, 4]), R.dtype("float32"), R.prim_value(0))
        _1: R.Tuple = R.vm.kill_object(storage1)
        _2: R.Tuple = cls.relu(alloc, alloc1)
        _3: R.Tuple = R.vm.kill_object(alloc)
        lv2: R.Tensor((16,), dtype="float32") = R.call_packed("vm.builtin.reshape", alloc1, R.shape([16]), sinfo_args=(R.Tensor((16,), dtype="float32"),))
        _4: R.Tuple = R.vm.kill_object(alloc1)
        alloc2: R.Tensor((16,), dtype="float32") = R.vm.alloc_tensor(storage, R.prim_value(0), R.shape([16]), R.dtype("float32"), R.prim_value(0))
        _5: R.Tuple = R.vm.kill_object(storage)
        _6: R.Tuple = cls.negative(lv2, alloc2)
        _7: R.Tuple = R.vm.kill_object(lv2)
        storage2: R.Object = R.vm.alloc_storage(R.shape([64]), R.prim_value(0), R.dtype("uint8"), R.str("global"))
        alloc3: R.Tensor((16,), dtype="float32") = R.vm.alloc_tensor(storage2, R.prim_value(0), R.shape([16]), R.dtype("float32"), R.prim_value(0))
        _8: R.Tuple = R.vm.kill_object(storage2)
        _9: R.Tuple = cls.sigmoid(alloc2, alloc3)
        _10: R.Tuple = R.vm.kill_object(alloc2)
        return alloc3
