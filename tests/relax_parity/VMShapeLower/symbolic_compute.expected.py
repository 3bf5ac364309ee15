# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def shape_func(H: T.Buffer((T.int64(4),), "int64")):
        T.func_attr({"tir.is_host_func": True})
        H[T.int64(3)] = H[T.int64(2)] + T.int64(1)

    @R.function
    def main(x: R.Tensor(("n", "m"), dtype="float32"), y: R.Tensor(dtype="float32", ndim=3)) -> R.Shape(ndim=3):
        n = T.int64()
        m = T.int64()
        k = T.int64()
        R.func_attr({"relax.force_pure": True})
        cls = Module
        shape_heap: R.Tensor(dtype="int64", ndim=1) = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(4),), sinfo_args=(R.Tensor(dtype="int64", ndim=1),))
        _: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str(""), sinfo_args=(R.Tuple,))
        _1: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", y, R.prim_value(3), R.dtype("float32"), R.str(""), sinfo_args=(R.Tuple,))
        _2: R.Tuple = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(2), R.prim_value(1), R.prim_value(0), R.prim_value(1), R.prim_value(1), R.str(""), sinfo_args=(R.Tuple,))
        _3: R.Tuple = R.call_packed("vm.builtin.match_shape", y, shape_heap, R.prim_value(3), R.prim_value(1), R.prim_value(2), R.prim_value(3), R.prim_value(1), R.prim_value(2), R.prim_value(0), R.str(""), sinfo_args=(R.Tuple,))
        _4: R.Tuple = cls.shape_func(shape_heap)
        _5: R.Tuple = R.call_packed("vm.builtin.match_shape", y, shape_heap, R.prim_value(3), R.prim_value(3), R.prim_value(2), R.prim_value(3), R.prim_value(1), R.prim_value(3), R.prim_value(3), R.str(""), sinfo_args=(R.Tuple,))
        z: R.Tensor((k, m, k + 1), dtype="float32") = R.match_cast(y, R.Tensor((k, m, k + 1), dtype="float32"))
        gv: R.Shape(ndim=3) = R.call_packed("vm.builtin.make_shape", shape_heap, R.prim_value(3), R.prim_value(1), R.prim_value(3), R.prim_value(1), R.prim_value(1), R.prim_value(0), R.prim_value(2), sinfo_args=(R.Shape(ndim=3),))
        return gv
