metadata = tvm.ir.load_json("""{
  \"root_index\": 13,
  \"nodes\": [
    {
      \"type\": \"ffi.String\",
      \"data\": \"relax.expr.Constant\"
    },
    {
      \"type\": \"None\"
    },
    {
      \"type\": \"ir.PrimType\",
      \"data\": {
        \"span\": 1,
        \"dtype\": \"int64\"
      }
    },
    {
      \"type\": \"ir.IntImm\",
      \"data\": {
        \"span\": 1,
        \"ty\": 2,
        \"value\": 2
      }
    },
    {
      \"type\": \"ir.IntImm\",
      \"data\": {
        \"span\": 1,
        \"ty\": 2,
        \"value\": 3
      }
    },
    {
      \"type\": \"ffi.Array\",
      \"data\": [
        3,
        4
      ]
    },
    {
      \"type\": \"relax.ShapeType\",
      \"data\": {
        \"span\": 1,
        \"values\": 5,
        \"ndim\": 2
      }
    },
    {
      \"type\": \"relax.expr.ShapeExpr\",
      \"data\": {
        \"span\": 1,
        \"ty\": 6,
        \"values\": 5
      }
    },
    {
      \"type\": \"ir.PrimType\",
      \"data\": {
        \"span\": 1,
        \"dtype\": \"float32\"
      }
    },
    {
      \"type\": \"relax.TensorType\",
      \"data\": {
        \"span\": 1,
        \"shape\": 7,
        \"dtype\": 8,
        \"vdevice\": 1,
        \"ndim\": 2
      }
    },
    {
      \"type\": \"ffi.Tensor\",
      \"data\": \"P6G0lvBAXt0AAAAAAAAAAAEAAAAAAAAAAgAAAAIgAQACAAAAAAAAAAMAAAAAAAAAGAAAAAAAAAAAAIA/AAAAQAAAQEAAAIBAAACgQAAAwEA=\"
    },
    {
      \"type\": \"relax.expr.Constant\",
      \"data\": {
        \"span\": 1,
        \"ty\": 9,
        \"data\": 10
      }
    },
    {
      \"type\": \"ffi.Array\",
      \"data\": [
        11
      ]
    },
    {
      \"type\": \"ffi.Map\",
      \"data\": [
        0,
        12
      ]
    }
  ],
  \"metadata\": {
    \"tvm_version\": \"0.26.0\"
  }
}""")
# from tvm.script import ir as I
# from tvm.script import relax as R

@I.ir_module
class Module:
    @R.function
    def main(x: R.Tensor((2, 3), dtype="float32")) -> R.Tensor((2, 3), dtype="float32"):
        with R.dataflow():
            lv: R.Tensor((2, 3), dtype="float32") = metadata["relax.expr.Constant"][0]
            lv1: R.Tensor((2, 3), dtype="float32") = R.add(x, lv)
            gv: R.Tensor((2, 3), dtype="float32") = R.nn.relu(lv1)
            R.output(gv)
        return gv
