# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# A broadcast dimension of extent 1 reads index 0; topi's block is "T_add".
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def add(x: T.Buffer((T.int64(1), T.int64(2), T.int64(3)), "float32"), y: T.Buffer((T.int64(4), T.int64(3), T.int64(2), T.int64(1)), "float32"), T_add: T.Buffer((T.int64(4), T.int64(3), T.int64(2), T.int64(3)), "float32")):
        T.func_attr({"tir.noalias": True})
        for ax0, ax1, ax2, ax3 in T.grid(T.int64(4), T.int64(3), T.int64(2), T.int64(3)):
            with T.block("T_add"):
                v_ax0, v_ax1, v_ax2, v_ax3 = T.axis.remap("SSSS", [ax0, ax1, ax2, ax3])
                T.reads(x[T.int64(0), v_ax2, v_ax3], y[v_ax0, v_ax1, v_ax2, T.int64(0)])
                T.writes(T_add[v_ax0, v_ax1, v_ax2, v_ax3])
                T_add[v_ax0, v_ax1, v_ax2, v_ax3] = x[T.int64(0), v_ax2, v_ax3] + y[v_ax0, v_ax1, v_ax2, T.int64(0)]

    @R.function
    def main(x: R.Tensor((1, 2, 3), dtype="float32"), y: R.Tensor((4, 3, 2, 1), dtype="float32")) -> R.Tensor((4, 3, 2, 3), dtype="float32"):
        cls = Module
        gv = R.call_tir(cls.add, (x, y), out_sinfo=R.Tensor((4, 3, 2, 3), dtype="float32"))
        return gv
