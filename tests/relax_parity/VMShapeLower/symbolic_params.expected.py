# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor(("n", 4, "m"), dtype="float32"), y: R.Tensor(("m", "n"), dtype="int32")) -> R.Tensor(("n", 4, "m"), dtype="float32"):
        n = T.int64()
        m = T.int64()
        R.func_attr({"relax.force_pure": True})
        shape_heap: R.Tensor(dtype="int64", ndim=1) = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(2),), sinfo_args=(R.Tensor(dtype="int64", ndim=1),))
        _: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(3), R.dtype("float32"), R.str(""), sinfo_args=(R.Tuple,))
        _1: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", y, R.prim_value(2), R.dtype("int32"), R.str(""), sinfo_args=(R.Tuple,))
        _2: R.Tuple = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(3), R.prim_value(1), R.prim_value(0), R.prim_value(0), R.prim_value(4), R.prim_value(1), R.prim_value(1), R.str(""), sinfo_args=(R.Tuple,))
        _3: R.Tuple = R.call_packed("vm.builtin.match_shape", y, shape_heap, R.prim_value(2), R.prim_value(3), R.prim_value(1), R.prim_value(3), R.prim_value(0), R.str(""), sinfo_args=(R.Tuple,))
        return x
