#!/usr/bin/python3
"""Writes a MobileNetV3-Large-shaped ONNX model with random weights (Debian's
python3-onnx and python3-numpy; nothing downloaded): the stem, the 15
inverted-residual blocks with depthwise convolutions, squeeze-and-excitation
and hard-swish, and the classifier head, each convolution followed by
BatchNormalization as exporters write it. About 560 Relay ops once imported.
Used for the Graph view's figures and screenshots (docs/gui.md).

Usage: /usr/bin/python3 bench/make_mobilenetv3_onnx.py OUT.onnx [--dynamic] [--width W] [--classes N]
With --dynamic the input is (N, 3, H, W), as detection exporters write it:
import it with `--input-shape input=1,3,96,96` (bench_run_reference does).
--width W scales every channel count (rounded to a multiple of 8, as
MobileNet's width multiplier does) and --classes N sets the classifier's
outputs (default 1000): `--width 0.2 --classes 16` keeps every op of the
model (the same graph, about 560 Relay ops) in under 1 MB of weights, small
enough for a test's model in the tree (tests/data/onnx/mobilenetv3_small.onnx).
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(0)
nodes, inits = [], []
counter = [0]


def name(prefix):
    counter[0] += 1
    return f"{prefix}_{counter[0]}"


def weight(shape, scale=0.1):
    n = name("w")
    inits.append(numpy_helper.from_array((rng.standard_normal(shape) * scale).astype(np.float32), n))
    return n


def conv(x, cin, cout, k, stride=1, group=1, bias=False):
    out = name("conv")
    inputs = [x, weight((cout, cin // group, k, k))]
    if bias:
        inputs.append(weight((cout,)))
    nodes.append(helper.make_node("Conv", inputs, [out], kernel_shape=[k, k], strides=[stride, stride],
                                  pads=[k // 2] * 4, group=group))
    return out


def bn(x, c):
    out = name("bn")
    scale = name("gamma")
    inits.append(numpy_helper.from_array((1 + 0.1 * rng.standard_normal(c)).astype(np.float32), scale))
    var = name("var")
    inits.append(numpy_helper.from_array((1 + 0.1 * rng.random(c)).astype(np.float32), var))
    nodes.append(helper.make_node("BatchNormalization", [x, scale, weight((c,)), weight((c,)), var], [out], epsilon=1e-3))
    return out


def act(x, kind):
    out = name(kind)
    nodes.append(helper.make_node("HardSwish" if kind == "hs" else "Relu", [x], [out]))
    return out


def se(x, c):
    squeeze = max(8, (c // 4 + 7) // 8 * 8)
    pooled = name("gap")
    nodes.append(helper.make_node("GlobalAveragePool", [x], [pooled]))
    a = act(conv(pooled, c, squeeze, 1, bias=True), "re")
    b = conv(a, squeeze, c, 1, bias=True)
    gate = name("hsig")
    nodes.append(helper.make_node("HardSigmoid", [b], [gate], alpha=1.0 / 6, beta=0.5))
    out = name("se")
    nodes.append(helper.make_node("Mul", [x, gate], [out]))
    return out


# (kernel, expanded, out, SE, activation, stride) of MobileNetV3-Large.
BLOCKS = [
    (3, 16, 16, False, "re", 1), (3, 64, 24, False, "re", 2), (3, 72, 24, False, "re", 1),
    (5, 72, 40, True, "re", 2), (5, 120, 40, True, "re", 1), (5, 120, 40, True, "re", 1),
    (3, 240, 80, False, "hs", 2), (3, 200, 80, False, "hs", 1), (3, 184, 80, False, "hs", 1),
    (3, 184, 80, False, "hs", 1), (3, 480, 112, True, "hs", 1), (3, 672, 112, True, "hs", 1),
    (5, 672, 160, True, "hs", 2), (5, 960, 160, True, "hs", 1), (5, 960, 160, True, "hs", 1),
]


def scaled(c, width):
    """`c` channels at width multiplier `width`: a multiple of 8, at least 8."""
    return max(8, int(c * width + 4) // 8 * 8)


def main(path, dynamic=False, width=1.0, classes=1000):
    stem = scaled(16, width)
    x = act(bn(conv("input", 3, stem, 3, stride=2), stem), "hs")
    c = stem
    for k, exp, out, use_se, a, stride in BLOCKS:
        exp, out = scaled(exp, width), scaled(out, width)
        y = x
        if exp != c:
            y = act(bn(conv(y, c, exp, 1), exp), a)
        y = act(bn(conv(y, exp, exp, k, stride=stride, group=exp), exp), a)
        if use_se:
            y = se(y, exp)
        y = bn(conv(y, exp, out, 1), out)
        if stride == 1 and c == out:
            r = name("add")
            nodes.append(helper.make_node("Add", [x, y], [r]))
            y = r
        x, c = y, out
    last, head = scaled(960, width), scaled(1280, width)
    x = act(bn(conv(x, c, last, 1), last), "hs")
    pooled = name("gap")
    nodes.append(helper.make_node("GlobalAveragePool", [x], [pooled]))
    x = act(conv(pooled, last, head, 1, bias=True), "hs")
    flat = name("flatten")
    nodes.append(helper.make_node("Flatten", [x], [flat]))
    nodes.append(helper.make_node("Gemm", [flat, weight((classes, head)), weight((classes,))], ["logits"], transB=1))
    graph = helper.make_graph(nodes, "mobilenetv3_large",
                              [helper.make_tensor_value_info("input", TensorProto.FLOAT, ["N", 3, "H", "W"] if dynamic else [1, 3, 224, 224])],
                              [helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, classes])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)], producer_name="passlab")
    onnx.checker.check_model(model)
    onnx.save(model, path)
    print(f"wrote {path}: {len(nodes)} ONNX nodes")


def option(flag, default, convert):
    """The value after `flag` on the command line, or `default`."""
    args = sys.argv[2:]
    return convert(args[args.index(flag) + 1]) if flag in args and args.index(flag) + 1 < len(args) else default


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1].startswith("-"):
        print(__doc__)
        sys.exit(0 if sys.argv[1] in ("-h", "--help") else 2)
    main(sys.argv[1] if len(sys.argv) > 1 else "mobilenetv3.onnx", "--dynamic" in sys.argv[2:],
         option("--width", 1.0, float), option("--classes", 1000, int))
