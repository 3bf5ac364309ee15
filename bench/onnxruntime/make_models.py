#!/usr/bin/python3
"""MobileNetV3-style ONNX models for bench_vs_onnxruntime (Debian's python3-onnx).

    /usr/bin/python3 bench/onnxruntime/make_models.py OUT_DIR

writes, with seeded random weights (opset 14, float32, batch 1):
  mnv3_classifier.onnx  224x224 classifier: strided stem, inverted residual
                        blocks (pointwise expand, depthwise 3x3/5x5 with
                        hard-swish, squeeze-excite, pointwise project), head Gemm
  mnv3_detector.onnx    320x320 backbone of the same blocks plus an upsampling
                        head: ConvTranspose 2x2 stride 2 and Resize, merged
                        with skip connections
  text_detector.onnx    the detector on a 96x96 crop: its last stage runs on
                        3x3 maps of up to 576 channels
  text_encoder.onnx     a MobileNetV3 strip backbone on a 32x384 text line
                        feeding a 2-layer transformer encoder on [1, 24, 120]
                        (MatMul of [1, T, C] by [C, D], ReduceMean layer
                        norms, Softmax attention), then a per-position
                        classifier over 96 characters and a blank (a CTC head):
                        the recogniser-shaped model
Each file name is printed with its input name and shape."""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


class Builder:
    def __init__(self, seed):
        self.nodes, self.inits = [], []
        self.rng = np.random.default_rng(seed)
        self.n = 0

    def name(self, prefix):
        self.n += 1
        return f"{prefix}_{self.n}"

    def const(self, array, prefix="w"):
        name = self.name(prefix)
        dtype = np.int64 if prefix == "shape" else np.float32
        self.inits.append(numpy_helper.from_array(np.asarray(array, dtype=dtype), name))
        return name

    def op(self, op_type, inputs, **attrs):
        out = self.name(op_type.lower())
        self.nodes.append(helper.make_node(op_type, inputs, [out], **attrs))
        return out

    def conv(self, x, cin, cout, k, stride=1, groups=1, bias=True):
        fan_in = cin // groups * k * k
        w = self.const(self.rng.normal(0, (2.0 / fan_in) ** 0.5, (cout, cin // groups, k, k)))
        inputs = [x, w]
        if bias:
            inputs.append(self.const(self.rng.normal(0, 0.05, cout), "b"))
        return self.op("Conv", inputs, kernel_shape=[k, k], strides=[stride, stride], pads=[k // 2] * 4, group=groups)

    def act(self, x, kind):
        if kind == "hs":
            return self.op("HardSwish", [x])
        if kind == "re":
            return self.op("Relu", [x])
        return x

    def squeeze_excite(self, x, c):
        mid = max(8, c // 4)
        s = self.op("GlobalAveragePool", [x])
        s = self.op("Relu", [self.conv(s, c, mid, 1)])
        s = self.op("HardSigmoid", [self.conv(s, mid, c, 1)], alpha=1.0 / 6, beta=0.5)
        return self.op("Mul", [x, s])

    def bneck(self, x, cin, exp, cout, k, stride, se, act):
        y = x
        if exp != cin:
            y = self.act(self.conv(y, cin, exp, 1), act)
        y = self.act(self.conv(y, exp, exp, k, stride, groups=exp), act)
        if se:
            y = self.squeeze_excite(y, exp)
        y = self.conv(y, exp, cout, 1)
        if stride == 1 and cin == cout:
            y = self.op("Add", [x, y])
        return y

    def model(self, name, inp, shape, out, out_shape):
        graph = helper.make_graph(self.nodes, name, [helper.make_tensor_value_info(inp, TensorProto.FLOAT, shape)],
                                  [helper.make_tensor_value_info(out, TensorProto.FLOAT, out_shape)], self.inits)
        m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)], producer_name="passlab-bench")
        onnx.checker.check_model(m)
        return m


# (kernel, expansion, out channels, squeeze-excite, activation, stride): MobileNetV3-small.
SMALL = [(3, 16, 16, True, "re", 2), (3, 72, 24, False, "re", 2), (3, 88, 24, False, "re", 1),
         (5, 96, 40, True, "hs", 2), (5, 240, 40, True, "hs", 1), (5, 240, 40, True, "hs", 1),
         (5, 120, 48, True, "hs", 1), (5, 144, 48, True, "hs", 1), (5, 288, 96, True, "hs", 2),
         (5, 576, 96, True, "hs", 1), (5, 576, 96, True, "hs", 1)]


def backbone(b, x, blocks, collect=None):
    x = b.op("HardSwish", [b.conv(x, 3, 16, 3, 2)])
    c = 16
    for i, (k, exp, cout, se, act, stride) in enumerate(blocks):
        if collect is not None and stride == 2:
            collect.append((x, c))
        x = b.bneck(x, c, exp, cout, k, stride, se, act)
        c = cout
    return x, c


def classifier():
    b = Builder(1)
    x, c = backbone(b, "image", SMALL)
    x = b.op("HardSwish", [b.conv(x, c, 576, 1)])
    x = b.op("GlobalAveragePool", [x])
    x = b.op("Flatten", [x])
    x = b.op("HardSwish", [b.op("Gemm", [x, b.const(b.rng.normal(0, 0.04, (1024, 576))), b.const(np.zeros(1024))], transB=1)])
    x = b.op("Gemm", [x, b.const(b.rng.normal(0, 0.03, (1000, 1024))), b.const(np.zeros(1000))], transB=1)
    return b.model("mnv3_classifier", "image", [1, 3, 224, 224], b.op("Softmax", [x], axis=1), [1, 1000])


def detector(size=320, name="mnv3_detector"):
    b = Builder(2)
    skips = []
    x, c = backbone(b, "image", SMALL, skips)
    x = b.op("HardSwish", [b.conv(x, c, 96, 1)])
    c = 96
    # Upsampling head: ConvTranspose x2 twice, then Resize x2 twice, each merged with a skip.
    for i, (skip, sc) in enumerate(reversed(skips[-4:])):
        if i < 2:
            w = b.const(b.rng.normal(0, 0.1, (c, 48, 2, 2)))
            x = b.op("ConvTranspose", [x, w, b.const(np.zeros(48), "b")], kernel_shape=[2, 2], strides=[2, 2])
        else:
            x = b.conv(x, c, 48, 1)
            scales = b.const(np.array([1, 1, 2, 2]), "scales")
            x = b.op("Resize", [x, "", scales], mode="linear" if i == 2 else "nearest")
        x = b.op("Add", [x, b.conv(skip, sc, 48, 1)])
        x = b.op("Relu", [b.conv(x, 48, 48, 3, groups=48)])
        c = 48
    x = b.conv(x, 48, 8, 1)  # 8 maps: a score and 7 box parameters per position
    return b.model(name, "image", [1, 3, size, size], b.op("Sigmoid", [x]), [1, 8, size // 2, size // 2])


def text_detector():
    # The same network on a 96x96 crop: its last stage is 3x3 maps of 96-576
    # channels (the `1x576x3x3` kernels: few positions, many channels).
    return detector(96, "text_detector")


def layer_norm(b, x, d):
    mean = b.op("ReduceMean", [x], axes=[-1])
    xc = b.op("Sub", [x, mean])
    var = b.op("ReduceMean", [b.op("Mul", [xc, xc])], axes=[-1])
    den = b.op("Sqrt", [b.op("Add", [var, b.const(np.array(1e-5))])])
    y = b.op("Div", [xc, den])
    return b.op("Add", [b.op("Mul", [y, b.const(1 + b.rng.normal(0, 0.05, d))]), b.const(b.rng.normal(0, 0.05, d))])


def linear(b, x, din, dout):
    y = b.op("MatMul", [x, b.const(b.rng.normal(0, din ** -0.5, (din, dout)))])
    return b.op("Add", [y, b.const(b.rng.normal(0, 0.02, dout))])


def encoder_layer(b, x, t, d, heads):
    dh = d // heads
    h = layer_norm(b, x, d)
    def split_heads(y):  # [1, T, D] -> [1, H, T, Dh]
        y = b.op("Reshape", [y, b.const(np.array([1, t, heads, dh]), "shape")])
        return b.op("Transpose", [y], perm=[0, 2, 1, 3])
    q, k, v = (split_heads(linear(b, h, d, d)) for _ in range(3))
    scores = b.op("MatMul", [q, b.op("Transpose", [k], perm=[0, 1, 3, 2])])
    scores = b.op("Mul", [scores, b.const(np.array(dh ** -0.5))])
    att = b.op("MatMul", [b.op("Softmax", [scores], axis=-1), v])
    att = b.op("Transpose", [att], perm=[0, 2, 1, 3])
    att = b.op("Reshape", [att, b.const(np.array([1, t, d]), "shape")])
    x = b.op("Add", [x, linear(b, att, d, d)])
    h = layer_norm(b, x, d)
    h = linear(b, b.op("HardSwish", [linear(b, h, d, 2 * d)]), 2 * d, d)
    return b.op("Add", [x, h])


def text_encoder():
    b = Builder(3)
    # A text line 32 x 384: strides shrink it to 1 x 24 with 120 channels ([1, 120, 1, 24]).
    blocks = [(3, 16, 16, True, "re", 2), (3, 72, 24, False, "re", 2), (3, 88, 24, False, "re", 1),
              (5, 96, 40, True, "hs", 2), (5, 240, 40, True, "hs", 1), (5, 120, 48, True, "hs", 1)]
    x, c = backbone(b, "line", blocks)
    x = b.op("MaxPool", [x], kernel_shape=[2, 1], strides=[2, 1])
    x = b.op("HardSwish", [b.conv(x, c, 120, 1)])  # [1, 120, 1, 24]
    x = b.op("Reshape", [x, b.const(np.array([1, 120, 24]), "shape")])
    x = b.op("Transpose", [x], perm=[0, 2, 1])  # [1, 24, 120]
    for _ in range(2):
        x = encoder_layer(b, x, 24, 120, 4)
    x = layer_norm(b, x, 120)
    x = linear(b, x, 120, 97)  # per position: 96 characters and a blank
    return b.model("text_encoder", "line", [1, 3, 32, 384], b.op("Softmax", [x], axis=-1), [1, 24, 97])


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    for make in (classifier, detector, text_detector, text_encoder):
        m = make()
        path = f"{out}/{m.graph.name}.onnx"
        onnx.save(m, path)
        inp = m.graph.input[0]
        dims = ",".join(str(d.dim_value) for d in inp.type.tensor_type.shape.dim)
        print(f"{path} {inp.name} {dims} {len(m.graph.node)}")


if __name__ == "__main__":
    main()
