# from tvm.script import ir as I
# from tvm.script import relax as R

# Inside a dataflow block the new bindings are dataflow variables of that block;
# a tuple operand stays inline while its non-leaf fields are bound.
@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")):
        with R.dataflow():
            lv: R.Tensor((2, 3), dtype="float32") = R.nn.relu(R.add(x, x))
            gv: R.Tuple(R.Tensor((2, 3), dtype="float32"), R.Tensor((2, 3), dtype="float32")) = (lv, R.multiply(lv, x))
            R.output(gv)
        return gv
