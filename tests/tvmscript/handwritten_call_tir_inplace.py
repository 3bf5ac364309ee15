from tvm.script import ir as I, relax as R, tir as T

# Hand-written forms: positional indices, a bare int, relax.call_tir_inplace.
@I.ir_module
class Module:
    @T.prim_func
    def add_into(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
        for i in range(8):
            A[i] = A[i] + B[i]

    @R.function
    def main(x: R.Tensor((8,), dtype="float32"), y: R.Tensor((8,), dtype="float32")):
        lv = R.call_tir_inplace(Module.add_into, (x, y), [0], R.Tensor((8,), "float32"))
        gv = R.call_tir_inplace(Module.add_into, (lv, y), inplace_indices=0, out_sinfo=R.Tensor((8,), "float32"))
        return gv
