# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def shape_func(H: T.Buffer((T.int64(4),), "int64")):
        T.func_attr({"tir.is_host_func": True})
        H[T.int64(3)] = H[T.int64(1)] + H[T.int64(2)]

    @R.function
    def main(s: R.Shape(ndim=2), k: R.Prim("int64")) -> R.Shape(ndim=2):
        a = T.int64()
        b = T.int64()
        c = T.int64()
        R.func_attr({"relax.force_pure": True})
        cls = Module
        shape_heap: R.Tensor(dtype="int64", ndim=1) = R.call_builtin_with_ctx("vm.builtin.alloc_shape_heap", (R.prim_value(4),), sinfo_args=(R.Tensor(dtype="int64", ndim=1),))
        _: R.Tuple = R.call_packed("vm.builtin.check_shape_info", s, R.prim_value(2), R.str(""), sinfo_args=(R.Tuple,))
        _1: R.Tuple = R.call_packed("vm.builtin.check_prim_value_info", k, R.dtype("int64"), R.str(""), sinfo_args=(R.Tuple,))
        _2: R.Tuple = R.call_packed("vm.builtin.match_shape", s, shape_heap, R.prim_value(2), R.prim_value(1), R.prim_value(0), R.prim_value(1), R.prim_value(1), R.str(""), sinfo_args=(R.Tuple,))
        t: R.Shape([a, b]) = R.match_cast(s, R.Shape([a, b]))
        _3: R.Tuple = R.call_packed("vm.builtin.match_prim_value", k, shape_heap, R.prim_value(1), R.prim_value(2), R.str(""), sinfo_args=(R.Tuple,))
        _4: R.Tuple = cls.shape_func(shape_heap)
        j: R.Prim(value=c) = R.match_cast(k, R.Prim(value=c))
        gv: R.Shape(ndim=2) = R.call_packed("vm.builtin.make_shape", shape_heap, R.prim_value(2), R.prim_value(1), R.prim_value(0), R.prim_value(1), R.prim_value(3), sinfo_args=(R.Shape(ndim=2),))
        return gv
