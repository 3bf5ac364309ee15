# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def matmul(x: T.Buffer((T.int64(4), T.int64(8)), "float32"), w: T.Buffer((T.int64(8), T.int64(16)), "float32"), matmul_1: T.Buffer((T.int64(4), T.int64(16)), "float32")):
        T.func_attr({"tir.noalias": True})
        # with T.block("root"):
        for i0, i1, k0 in T.grid(T.int64(4), T.int64(16), T.int64(8)):
            with T.block("matmul"):
                v_i0, v_i1, v_k0 = T.axis.remap("SSR", [i0, i1, k0])
                T.reads(x[v_i0, v_k0], w[v_k0, v_i1])
                T.writes(matmul_1[v_i0, v_i1])
                with T.init():
                    matmul_1[v_i0, v_i1] = T.float32(0.0)
                matmul_1[v_i0, v_i1] = matmul_1[v_i0, v_i1] + x[v_i0, v_k0] * w[v_k0, v_i1]

    @R.function
    def main(x: R.Tensor((4, 8), dtype="float32"), w: R.Tensor((8, 16), dtype="float32")) -> R.Tensor((4, 16), dtype="float32"):
        cls = Module
        gv = R.call_tir(cls.matmul, (x, w), out_sinfo=R.Tensor((4, 16), dtype="float32"))
        return gv
