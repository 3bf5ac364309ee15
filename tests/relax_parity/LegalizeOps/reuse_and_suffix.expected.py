# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add(x: T.Buffer((T.int64(2), T.int64(3)), "float32"), y: T.Buffer((T.int64(2), T.int64(3)), "float32"), T_add: T.Buffer((T.int64(2), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": True})
        # with T.block("root"):
        for i0, i1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("T_add"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                T.reads(x[v_i0, v_i1], y[v_i0, v_i1])
                T.writes(T_add[v_i0, v_i1])
                T_add[v_i0, v_i1] = x[v_i0, v_i1] + y[v_i0, v_i1]

    @T.prim_func(private=True)
    def add1(lv1: T.Buffer((T.int64(2), T.int64(3)), "float32"), z: T.Buffer((T.int64(3),), "float32"), T_add: T.Buffer((T.int64(2), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": True})
        # with T.block("root"):
        for i0, i1 in T.grid(T.int64(2), T.int64(3)):
            with T.block("T_add"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                T.reads(lv1[v_i0, v_i1], z[v_i1])
                T.writes(T_add[v_i0, v_i1])
                T_add[v_i0, v_i1] = lv1[v_i0, v_i1] + z[v_i1]

    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32"), y: R.Tensor((2, 3), dtype="float32"), z: R.Tensor((3,), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        cls = Module
        with R.dataflow():
            lv = R.call_tir(cls.add, (x, y), out_sinfo=R.Tensor((2, 3), dtype="float32"))
            lv1 = R.call_tir(cls.add, (lv, y), out_sinfo=R.Tensor((2, 3), dtype="float32"))
            gv = R.call_tir(cls.add1, (lv1, z), out_sinfo=R.Tensor((2, 3), dtype="float32"))
            R.output(gv)
        return gv
