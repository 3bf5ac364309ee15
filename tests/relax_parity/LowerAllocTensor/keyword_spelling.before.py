# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# The keyword spelling people write by hand (dtype=, runtime_device_index=)
# reads as the positional one; a float16 tensor of 4x4 is 32 bytes.
@I.ir_module
class Module:
    @R.function
    def main() -> R.Tensor((4, 4), dtype="float16"):
        R.func_attr({"relax.force_pure": True})
        y = R.builtin.alloc_tensor(R.shape([4, 4]), dtype="float16", runtime_device_index=0)
        return y
