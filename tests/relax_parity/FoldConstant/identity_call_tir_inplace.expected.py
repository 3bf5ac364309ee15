# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# TVM's FoldConstant evaluates call_tir only: a call_tir_inplace of constants stays.
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def double_inplace(A: T.Buffer((), "float32")):
        T.func_attr({"tir.noalias": True})
        with T.block("A"):
            T.reads(A[()])
            T.writes(A[()])
            A[()] = A[()] * T.float32(2.0)

    @R.function
    def main(x: R.Tensor((3,), dtype="float32")) -> R.Tensor((3,), dtype="float32"):
        cls = Module
        with R.dataflow():
            c = R.call_tir_inplace(cls.double_inplace, (R.const(1.5, "float32"),), out_sinfo=R.Tensor((), dtype="float32"), inplace_indices=[0])
            gv: R.Tensor((3,), dtype="float32") = R.multiply(x, c)
            R.output(gv)
        return gv
