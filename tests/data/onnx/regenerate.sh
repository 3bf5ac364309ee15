#!/bin/sh
# Regenerates the binary .onnx and .pb fixtures from their text form (needs
# protoc from Debian's protobuf-compiler and onnx.proto from libonnx-dev).
set -e
cd "$(dirname "$0")"
encode() { protoc --encode="$1" -I/usr/include/onnx /usr/include/onnx/onnx.proto < "$2" > "$3"; }
for t in *.textproto; do encode onnx.ModelProto "$t" "${t%.textproto}.onnx"; done
# Two backend-style tests for the conformance runner: one must pass, one must fail.
for case in right wrong; do
  encode onnx.ModelProto conformance/relu.textproto conformance/relu_$case/model.onnx
  encode onnx.TensorProto conformance/input.textproto conformance/relu_$case/test_data_set_0/input_0.pb
  encode onnx.TensorProto conformance/${case}_output.textproto conformance/relu_$case/test_data_set_0/output_0.pb
done
