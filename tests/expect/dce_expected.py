# from tvm.script import ir as I
# from tvm.script import relax as R

# DeadCodeElimination of dce_before.py: the unused multiply is gone. The names
# differ from the before module on purpose: structural equality ignores them.
@I.ir_module
class Module:
    @R.function
    def main(a: R.Tensor((2, 3), dtype="float32"), b: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        with R.dataflow():
            s: R.Tensor((2, 3), dtype="float32") = R.add(a, b)
            out: R.Tensor((2, 3), dtype="float32") = R.nn.relu(s)
            R.output(out)
        return out
