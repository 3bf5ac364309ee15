# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main() -> R.Tensor((4, 4), dtype="float16"):
        R.func_attr({"relax.force_pure": True})
        storage = R.memory.alloc_storage(R.shape([32]), 0, "global", "uint8")
        y = R.memory.alloc_tensor(storage, 0, R.shape([4, 4]), "float16")
        return y
