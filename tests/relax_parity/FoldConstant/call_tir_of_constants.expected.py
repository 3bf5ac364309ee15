# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# 1.5 * 2 folded; the PrimFunc stays (DeadCodeElimination removes it in TVM too).
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def double(A: T.Buffer((), "float32"), C: T.Buffer((), "float32")):
        T.func_attr({"tir.noalias": True})
        with T.block("C"):
            T.reads(A[()])
            T.writes(C[()])
            C[()] = A[()] * T.float32(2.0)

    @R.function
    def main(x: R.Tensor((3,), dtype="float32")) -> R.Tensor((3,), dtype="float32"):
        with R.dataflow():
            c: R.Tensor((), dtype="float32") = R.const(3.0, "float32")
            gv: R.Tensor((3,), dtype="float32") = R.multiply(x, c)
            R.output(gv)
        return gv
