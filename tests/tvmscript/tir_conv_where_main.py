# from tvm.script import ir as I
# from tvm.script import tirx as T

@I.ir_module
class Module:
    @T.prim_func(private=True)
    def conv1d_relu(X: T.Buffer((1, 3, 18), "float32"), W: T.Buffer((4, 3, 3), "float32"), Y: T.Buffer((1, 4, 16), "float32")):
        # with T.sblock("root"):
        acc = T.sblock_alloc_buffer((1, 4, 16))
        for n, co, x_o, x_i, ci, r in T.grid(1, 4, 4, 5, 3, 3):
            with T.sblock("acc"):
                v_n, v_co = T.axis.remap("SS", [n, co])
                v_x = T.axis.spatial(16, x_o * 5 + x_i)
                v_ci, v_r = T.axis.remap("RR", [ci, r])
                T.where(x_o * 5 + x_i < 16)
                T.reads(X[v_n, v_ci, v_x + v_r], W[v_co, v_ci, v_r])
                T.writes(acc[v_n, v_co, v_x])
                with T.init():
                    acc[v_n, v_co, v_x] = T.float32(0.0)
                acc[v_n, v_co, v_x] = acc[v_n, v_co, v_x] + X[v_n, v_ci, v_x + v_r] * W[v_co, v_ci, v_r]
        for n, co, x in T.grid(1, 4, 16):
            with T.sblock("relu"):
                v_n, v_co, v_x = T.axis.remap("SSS", [n, co, x])
                T.reads(acc[v_n, v_co, v_x])
                T.writes(Y[v_n, v_co, v_x])
                Y[v_n, v_co, v_x] = T.max(acc[v_n, v_co, v_x], T.float32(0.0))
