# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def shape_func(H: T.Buffer((T.int64(3),), "int64")):
        T.func_attr({"tir.is_host_func": True})
        H[T.int64(2)] = H[T.int64(0)] * H[T.int64(1)]

    @R.function
    def main(x: R.Tensor(("n", 4), dtype="float32"), k: R.Prim(value="m")) -> R.Prim("int64"):
        n = T.int64()
        m = T.int64()
        R.func_attr({"relax.force_pure": True})
        cls = Module
        shape_heap: R.Tensor(dtype="int64", ndim=1) = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(3),), sinfo_args=(R.Tensor(dtype="int64", ndim=1),))
        _: R.Tuple = R.call_packed("vm.builtin.check_tensor_info", x, R.prim_value(2), R.dtype("float32"), R.str(""), sinfo_args=(R.Tuple,))
        _1: R.Tuple = R.call_packed("vm.builtin.check_prim_value_info", k, R.dtype("int64"), R.str(""), sinfo_args=(R.Tuple,))
        _2: R.Tuple = R.call_packed("vm.builtin.match_shape", x, shape_heap, R.prim_value(2), R.prim_value(1), R.prim_value(0), R.prim_value(0), R.prim_value(4), R.str(""), sinfo_args=(R.Tuple,))
        _3: R.Tuple = R.call_packed("vm.builtin.match_prim_value", k, shape_heap, R.prim_value(1), R.prim_value(1), R.str(""), sinfo_args=(R.Tuple,))
        _4: R.Tuple = cls.shape_func(shape_heap)
        gv: R.Prim(value=n * m) = R.call_packed("vm.builtin.make_prim_value", shape_heap, R.prim_value(1), R.prim_value(2), sinfo_args=(R.Prim(value=n * m),))
        return gv
