# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32"), s: R.Shape([4, 5]), t: R.Shape) -> R.Tensor((2, 3), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        shape_heap: R.Object = R.null_value()
        _: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str(""), sinfo_args=(R.Tuple,))
        _1: R.Tuple = R.call_packed("vm.builtin.check_shape_info", s, R.prim_value(2), R.str(""), sinfo_args=(R.Tuple,))
        _2: R.Tuple = R.call_packed("vm.builtin.check_shape_info", t, R.prim_value(-1), R.str(""), sinfo_args=(R.Tuple,))
        _3: R.Tuple = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(2), R.prim_value(0), R.prim_value(2), R.prim_value(0), R.prim_value(3), R.str(""), sinfo_args=(R.Tuple,))
        _4: R.Tuple = R.call_packed("vm.builtin.match_shape", s, shape_heap, R.prim_value(2), R.prim_value(0), R.prim_value(4), R.prim_value(0), R.prim_value(5), R.str(""), sinfo_args=(R.Tuple,))
        return x
