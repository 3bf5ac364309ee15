// The MobileNetV3-style ONNX model the benches measure by default, generated
// with bench/make_mobilenetv3_onnx.py (python3-onnx). Header-only: it uses the
// including bench's PASSLAB_SOURCE_DIR.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace passlab::bench {

/// Generates the 96×96 model (dynamic batch) into the temp directory and
/// returns its path; "" (with a message on stderr) when python3-onnx is missing.
inline std::string generateMobileNetV3Model() {
  std::string model = (std::filesystem::temp_directory_path() / "passlab_bench_mobilenetv3_96.onnx").string();
  std::string cmd = "/usr/bin/python3 " + std::string(PASSLAB_SOURCE_DIR) + "/bench/make_mobilenetv3_onnx.py " + model +
                    " --dynamic >/dev/null";
  if (std::system(cmd.c_str()) != 0) {
    std::fprintf(stderr, "could not generate the model (needs python3-onnx): %s\n", cmd.c_str());
    return "";
  }
  return model;
}

}  // namespace passlab::bench
