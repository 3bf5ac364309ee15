# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((16, 16), dtype="float32"), w: R.Tensor((16, 16), dtype="float32"), b: R.Tensor(("n",), dtype="float32")) -> R.Tensor((16, 16), dtype="float32"):
        n = T.int64()
        R.func_attr({"num_input": 1, "relax.force_pure": True})
        shape_heap: R.Tensor(dtype="int64", ndim=1) = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(1),), sinfo_args=(R.Tensor(dtype="int64", ndim=1),))
        _: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str(""), sinfo_args=(R.Tuple,))
        _1: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", b, R.prim_value(1), R.dtype("float32"), R.str(""), sinfo_args=(R.Tuple,))
        _2: R.Tuple = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(2), R.prim_value(0), R.prim_value(16), R.prim_value(0), R.prim_value(16), R.str(""), sinfo_args=(R.Tuple,))
        _3: R.Tuple = R.call_packed("vm.builtin.match_shape", b, shape_heap, R.prim_value(1), R.prim_value(1), R.prim_value(0), R.str(""), sinfo_args=(R.Tuple,))
        return x
