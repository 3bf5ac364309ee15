# from tvm.script import ir as I
# from tvm.script import relax as R

# TVM: public functions are entries; a private function no entry reaches goes,
# and so does the unused binding lv1.
@I.ir_module
class Module:
    @R.function(private=True)
    def unused(x: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        return x

    @R.function
    def main(x: R.Tensor((4,), dtype="float32"), y: R.Tensor((4,), dtype="float32")) -> R.Tensor((4,), dtype="float32"):
        with R.dataflow():
            lv = R.add(x, y)
            lv1 = R.multiply(x, y)
            gv = R.nn.relu(lv)
            R.output(gv)
        return gv
