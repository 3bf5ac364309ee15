# from tvm.script import ir as I
# from tvm.script import relax as R

# Virtual devices: the global infos' devices (a target string and TVM's
# exported target dict), a copy to the second one and a hint. The vdevice of
# lv1's annotation is what TVM infers; passlab keeps it in the type.
@I.ir_module
class Module:
    I.module_global_infos({"vdevice": [I.vdevice({"keys": ["cpu"], "kind": "llvm", "mtriple": "x86_64-pc-linux-gnu", "tag": ""}, 0, "global"), I.vdevice("hexagon -mcpu=hexagonv68", 0, "global")]})

    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((2, 3), dtype="float32") = R.hint_on_device(x, R.device(device_type=1, index=0), "global")
            lv1: R.Tensor((2, 3), dtype="float32", vdevice="hexagon:0:global") = R.to_vdevice(lv, dst_vdevice="hexagon:0")
            gv: R.Tensor((2, 3), dtype="float32") = R.add(lv1, lv1)
            R.output(gv)
        return gv
