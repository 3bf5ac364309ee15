# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# Each builtin.alloc_tensor left by memory planning gets a uint8 storage of
# its byte size (24 for 2x3 int32, 12 for 3 float32) and a tensor at offset 0.
@I.ir_module
class Module:
    @R.function
    def main() -> R.Tuple(R.Tensor((2, 3), dtype="int32"), R.Tensor((3,), dtype="float32")):
        R.func_attr({"relax.force_pure": True})
        a: R.Tensor((2, 3), dtype="int32") = R.builtin.alloc_tensor(R.shape([2, 3]), R.dtype("int32"), R.prim_value(0), R.str("global"))
        b: R.Tensor((3,), dtype="float32") = R.builtin.alloc_tensor(R.shape([3]), R.dtype("float32"), R.prim_value(0), R.str("global"))
        gv: R.Tuple(R.Tensor((2, 3), dtype="int32"), R.Tensor((3,), dtype="float32")) = (a, b)
        return gv
