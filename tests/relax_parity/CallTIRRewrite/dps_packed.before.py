# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# call_dps_packed: the packed function is called with the inputs and the
# allocated output, through R.call_packed.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((8,), dtype="float32"), y: R.Tensor((8,), dtype="float32")) -> R.Tensor((8,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        gv = R.call_dps_packed("my_runtime.vector_add", (x, y), out_sinfo=R.Tensor((8,), dtype="float32"))
        return gv
