# from tvm.script import ir as I
# from tvm.script import relax as R

# Nothing in float32: integer arithmetic is never cast.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((3,), dtype="int32"), y: R.Tensor((3,), dtype="int32")) -> R.Tensor((3,), dtype="int32"):
        with R.dataflow():
            gv: R.Tensor((3,), dtype="int32") = R.add(x, y)
            R.output(gv)
        return gv
