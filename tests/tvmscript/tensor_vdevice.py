# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice("llvm", 0, "global"), I.vdevice("hexagon -mcpu=hexagonv68", 0, "global")]})

    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32", vdevice="hexagon:0"):
        with R.dataflow():
            gv: R.Tensor((2, 3), dtype="float32", vdevice="hexagon:0") = R.to_vdevice(x, dst_vdevice="hexagon:0:global")
            R.output(gv)
        return gv
