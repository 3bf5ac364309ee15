# from tvm.script import ir as I
# from tvm.script import tir as T
# from tvm.script import relax as R

# The lowering stage of relax.default after RemovePurityChecking:
# CallTIRRewrite, StaticPlanBlockMemory, LowerAllocTensor, KillAfterLastUse,
# LowerRuntimeBuiltin. exp's storage is reused by negative; sigmoid's result
# is returned and gets its own uint8 storage; every value is killed after
# its last use; the reshape becomes the VM's reshape builtin.
@I.ir_module
class Module:
    @T.prim_func(private=True)
    def exp(a: T.Buffer((T.int64(4), T.int64(4)), "float32"), out: T.Buffer((T.int64(4), T.int64(4)), "float32")):
        T.evaluate(0)

    @T.prim_func(private=True)
    def relu(a: T.Buffer((T.int64(4), T.int64(4)), "float32"), out: T.Buffer((T.int64(4), T.int64(4)), "float32")):
        T.evaluate(0)

    @T.prim_func(private=True)
    def negative(a: T.Buffer((T.int64(16),), "float32"), out: T.Buffer((T.int64(16),), "float32")):
        T.evaluate(0)

    @T.prim_func(private=True)
    def sigmoid(a: T.Buffer((T.int64(16),), "float32"), out: T.Buffer((T.int64(16),), "float32")):
        T.evaluate(0)

    @R.function
    def main(x: R.Tensor((4, 4), dtype="float32")) -> R.Tensor((16,), dtype="float32"):
        R.func_attr({"relax.force_pure": True})
        cls = Module
        lv = R.call_tir(cls.exp, (x,), out_sinfo=R.Tensor((4, 4), dtype="float32"))
        lv1 = R.call_tir(cls.relu, (lv,), out_sinfo=R.Tensor((4, 4), dtype="float32"))
        lv2: R.Tensor((16,), dtype="float32") = R.reshape(lv1, R.shape([16]))
        lv3 = R.call_tir(cls.negative, (lv2,), out_sinfo=R.Tensor((16,), dtype="float32"))
        gv = R.call_tir(cls.sigmoid, (lv3,), out_sinfo=R.Tensor((16,), dtype="float32"))
        return gv
