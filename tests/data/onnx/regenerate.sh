#!/bin/sh
# Regenerates the binary .onnx fixtures from their text form (needs protoc from
# Debian's protobuf-compiler and onnx.proto from libonnx-dev).
set -e
cd "$(dirname "$0")"
for t in *.textproto; do
  protoc --encode=onnx.ModelProto -I/usr/include/onnx /usr/include/onnx/onnx.proto < "$t" > "${t%.textproto}.onnx"
done
