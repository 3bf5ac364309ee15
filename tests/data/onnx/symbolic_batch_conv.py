#!/usr/bin/python3
# Writes symbolic_batch_conv.onnx (needs python3-onnx): a Conv/Relu/Add over an
# input whose batch dimension is named ("batch_size"), with fixed weights, so
# it imports with a shape variable and runs for any batch on the interpreter
# and, bound (run --host --bind batch_size=N), on the host JIT.
import os

import onnx
from onnx import TensorProto, helper

here = os.path.dirname(os.path.abspath(__file__))
w = [((i * 7) % 11 - 5) / 8.0 for i in range(4 * 3 * 3 * 3)]
b = [0.25, -0.5, 0.125, 0.0]
shift = [((i * 5) % 9 - 4) / 16.0 for i in range(4 * 6 * 6)]
graph = helper.make_graph(
    [
        helper.make_node("Conv", ["x", "W", "B"], ["conv"], name="conv_0", kernel_shape=[3, 3]),
        helper.make_node("Relu", ["conv"], ["relu"], name="relu_0"),
        helper.make_node("Add", ["relu", "S"], ["y"], name="add_0"),
    ],
    "symbolic_batch_conv",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch_size", 3, 8, 8])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch_size", 4, 6, 6])],
    [
        helper.make_tensor("W", TensorProto.FLOAT, [4, 3, 3, 3], w),
        helper.make_tensor("B", TensorProto.FLOAT, [4], b),
        helper.make_tensor("S", TensorProto.FLOAT, [4, 6, 6], shift),
    ],
)
model = helper.make_model(graph, producer_name="passlab-tests", opset_imports=[helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.checker.check_model(model)
onnx.save(model, os.path.join(here, "symbolic_batch_conv.onnx"))
