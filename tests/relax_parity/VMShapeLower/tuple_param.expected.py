# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tuple(R.Tensor(("n", "m"), dtype="float32"), R.Tuple(R.Shape, R.Tensor(("n", "k"), dtype="int32")))) -> R.Tuple(R.Tensor(("n", "m"), dtype="float32"), R.Tuple(R.Shape, R.Tensor(("n", "k"), dtype="int32"))):
        n = T.int64()
        m = T.int64()
        k = T.int64()
        R.func_attr({"relax.force_pure": True})
        shape_heap: R.Tensor(dtype="int64", ndim=1) = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(3),), sinfo_args=(R.Tensor(dtype="int64", ndim=1),))
        _: R.Tuple = R.call_packed("vm.builtin.check_tuple_info", x, R.prim_value(2), R.str(""), sinfo_args=(R.Tuple,))
        t0: R.Tensor((n, m), dtype="float32") = x[0]
        _1: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", t0, R.prim_value(2), R.dtype("float32"), R.str(""), sinfo_args=(R.Tuple,))
        t1: R.Tuple(R.Shape, R.Tensor((n, k), dtype="int32")) = x[1]
        _2: R.Tuple = R.call_packed("vm.builtin.check_tuple_info", t1, R.prim_value(2), R.str(""), sinfo_args=(R.Tuple,))
        t10: R.Shape = t1[0]
        _3: R.Tuple = R.call_packed("vm.builtin.check_shape_info", t10, R.prim_value(-1), R.str(""), sinfo_args=(R.Tuple,))
        t11: R.Tensor((n, k), dtype="int32") = t1[1]
        _4: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", t11, R.prim_value(2), R.dtype("int32"), R.str(""), sinfo_args=(R.Tuple,))
        _5: R.Tuple = R.call_packed("vm.builtin.match_shape", t0, shape_heap, R.prim_value(2), R.prim_value(1), R.prim_value(0), R.prim_value(1), R.prim_value(1), R.str(""), sinfo_args=(R.Tuple,))
        _6: R.Tuple = R.call_packed("vm.builtin.match_shape", t11, shape_heap, R.prim_value(2), R.prim_value(3), R.prim_value(0), R.prim_value(1), R.prim_value(2), R.str(""), sinfo_args=(R.Tuple,))
        return x
