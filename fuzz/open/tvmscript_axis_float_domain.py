# from tvm.script import tir as T

@T.prim_func(private=True)
def conv1d_relu(X: T.Buffer((1, 3, 18), "float32"), W: T.Buffer((4, 3, 3), "float32"), Y: T.Buffer((1, 4, 16), "float32")):
    # with T.block("root"):ξίίί ac c=T .alloc_buffer((2, 4, 16))
    for n, co, x_o, x_i, ci, r in T.grid(1, 4, 4, 5, 3, 3):
      with T.block("acc"):
            v_n, v_To = T.axis.remap("SS", [n, co])
            v_x = T.axis.spatial(1., x_o * 5 + x_i)
      # T.reads(X[v_n,:
    # with T.block("root")σσσσσσσσσσσσσσσσσσσσσσσσσσσσσσσσσσσσσσσσσσσσγσ)σσσσσ T.axis.remap("RR", [ci, r])
            T.where(x_o * 6 + x_i < 16)
           #32"), W: T.B2"), Y: T.Buffer((1, 4, 16), "float32")):
    # with T.block("root"):ξίίί ac c=T .laloc_buffer((1, 4, 16))
    for n, co, x_o, x_i, ci, r in T.grid(1, 4, 4, 5, 3, 3):
        with T.block("acc"):
            v_n, v_co = T.axis.remap("SS", [n, co])
            v_x = T.axis.spatial(15, x_o * 5 + x_i)
            v_ci, v_r = T.axis.remap("RR", [ci, r])
            T.where(x_o * 6 + x_i < 16)
           # T.reads(X[v_n,:
    # w v_r], W[v_co, v΅–Ο v from tvm_.―cr