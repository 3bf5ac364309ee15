// Figures for the ONNX importer: import time and peak memory of the largest
// model of ONNX's backend tests and of a generated 10k-node model (built here
// with the ONNX protobuf API). Each import runs in a fresh child process so its
// peak resident memory is its own. Prints a table; asserts nothing.
//
//   bench_onnx [NODES]              default 10000
//   bench_onnx --generate PATH N    write the N-node model to PATH (for profiling)
//   bench_onnx --import PATH        (internal) import PATH once, report ms
#include <onnx/onnx_pb.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/frontend/onnx_importer.h"
#include "core/text/printer.h"

namespace {

using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

double msSince(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

void addFloatInitializer(onnx::GraphProto& g, const std::string& name, std::vector<int64_t> dims, float seed) {
  onnx::TensorProto* t = g.add_initializer();
  t->set_name(name);
  t->set_data_type(onnx::TensorProto::FLOAT);
  int64_t n = 1;
  for (int64_t d : dims) {
    t->add_dims(d);
    n *= d;
  }
  std::vector<float> values(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) values[i] = seed * static_cast<float>((i * 7919) % 101 - 50) / 500.0f;
  t->set_raw_data(values.data(), values.size() * sizeof(float));
}

void addNode(onnx::GraphProto& g, const std::string& op, std::vector<std::string> inputs, const std::string& output) {
  onnx::NodeProto* n = g.add_node();
  n->set_op_type(op);
  n->set_name(output);
  for (const auto& in : inputs) n->add_input(in);
  n->add_output(output);
}

void setTensorType(onnx::ValueInfoProto* v, const std::string& name, std::vector<int64_t> dims) {
  v->set_name(name);
  auto* tt = v->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims) tt->mutable_shape()->add_dim()->set_dim_value(d);
}

/// A chain of `nodes` nodes in blocks of five, as an exported MLP looks:
/// MatMul (32x32 weight) -> Add (bias) -> Relu -> Reshape (constant shape) -> Mul (scale).
std::string generateModel(size_t nodes, const std::string& path) {
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.set_producer_name("passlab bench_onnx");
  model.add_opset_import()->set_version(13);
  onnx::GraphProto& g = *model.mutable_graph();
  g.set_name("chain");
  constexpr int64_t kWidth = 32;
  setTensorType(g.add_input(), "x", {1, kWidth});
  {
    onnx::TensorProto* shape = g.add_initializer();
    shape->set_name("shape");
    shape->set_data_type(onnx::TensorProto::INT64);
    shape->add_dims(2);
    shape->add_int64_data(1);
    shape->add_int64_data(kWidth);
  }
  std::string current = "x";
  const char* ops[] = {"MatMul", "Add", "Relu", "Reshape", "Mul"};
  for (size_t i = 0; i < nodes; ++i) {
    size_t block = i / 5;
    std::string op = ops[i % 5];
    std::string out = "t" + std::to_string(i);
    std::string b = std::to_string(block);
    if (op == "MatMul") {
      addFloatInitializer(g, "w" + b, {kWidth, kWidth}, 1.0f);
      addNode(g, op, {current, "w" + b}, out);
    } else if (op == "Add") {
      addFloatInitializer(g, "bias" + b, {kWidth}, 0.5f);
      addNode(g, op, {current, "bias" + b}, out);
    } else if (op == "Relu") {
      addNode(g, op, {current}, out);
    } else if (op == "Reshape") {
      addNode(g, op, {current, "shape"}, out);
    } else {
      addFloatInitializer(g, "scale" + b, {}, 0.9f);
      addNode(g, op, {current, "scale" + b}, out);
    }
    current = out;
  }
  setTensorType(g.add_output(), current, {1, kWidth});
  std::ofstream out(path, std::ios::binary);
  model.SerializeToOstream(&out);
  return path;
}

/// The biggest model.onnx of the backend-test suites the runner uses.
std::string largestTestModel() {
  std::string best;
  uintmax_t bestSize = 0;
  for (const char* suite : {"node", "pytorch-converted", "pytorch-operator", "simple"}) {
    fs::path dir = fs::path("/usr/share/libonnx-testdata/data") / suite;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      fs::path m = entry.path() / "model.onnx";
      if (fs::exists(m) && fs::file_size(m) > bestSize) {
        bestSize = fs::file_size(m);
        best = m.string();
      }
    }
  }
  return best;
}

/// CPU time of this process in milliseconds: on a shared, loaded machine the
/// wall-clock figure mostly measures the other processes.
double cpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

/// Child mode: import once and print wall and CPU milliseconds on stdout.
int importOnce(const std::string& path) {
  auto t0 = Clock::now();
  double c0 = cpuMs();
  passlab::OnnxImport imported = passlab::importOnnxWithInfo(path);
  double ms = msSince(t0), cpu = cpuMs() - c0;
  std::printf("%.3f %.3f %zu\n", ms, cpu, imported.info.nodeCount);
  return 0;
}

struct Measurement {
  double bestMs = 1e300;
  double bestCpuMs = 1e300;
  long peakKiB = 0;
  size_t nodes = 0;
};

/// Runs `self --import path` `reps` times; best time, largest peak RSS.
Measurement measure(const std::string& self, const std::string& path, int reps) {
  Measurement m;
  for (int r = 0; r < reps; ++r) {
    int pipeFds[2];
    if (pipe(pipeFds) != 0) std::exit(1);
    pid_t pid = fork();
    if (pid == 0) {
      dup2(pipeFds[1], STDOUT_FILENO);
      close(pipeFds[0]);
      execl(self.c_str(), self.c_str(), "--import", path.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    close(pipeFds[1]);
    char buffer[128] = {};
    ssize_t got = read(pipeFds[0], buffer, sizeof buffer - 1);
    close(pipeFds[0]);
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    double ms = 0, cpu = 0;
    size_t nodes = 0;
    if (got <= 0 || std::sscanf(buffer, "%lf %lf %zu", &ms, &cpu, &nodes) != 3) {
      std::fprintf(stderr, "bench_onnx: import of %s failed\n", path.c_str());
      std::exit(1);
    }
    m.bestMs = std::min(m.bestMs, ms);
    m.bestCpuMs = std::min(m.bestCpuMs, cpu);
    m.peakKiB = std::max(m.peakKiB, usage.ru_maxrss);
    m.nodes = nodes;
  }
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "--import") return importOnce(argv[2]);
  if (argc == 4 && std::string(argv[1]) == "--generate") {
    generateModel(std::strtoull(argv[3], nullptr, 10), argv[2]);
    return 0;
  }
  size_t nodes = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10000;
  std::string self = fs::canonical("/proc/self/exe").string();
  std::string generated = (fs::temp_directory_path() / ("bench_onnx_" + std::to_string(nodes) + ".onnx")).string();
  auto t0 = Clock::now();
  generateModel(nodes, generated);
  double genMs = msSince(t0);

  std::string largest = largestTestModel();
  std::printf("%-40s %7s %9s %10s %10s %9s\n", "model", "nodes", "file KiB", "wall ms", "cpu ms", "peak MiB");
  for (const std::string& path : {largest, generated}) {
    Measurement m = measure(self, path, 5);
    std::string label = fs::path(path).parent_path().filename().string() + "/" + fs::path(path).filename().string();
    std::printf("%-40s %7zu %9.1f %10.2f %10.2f %9.1f\n", label.c_str(), m.nodes, static_cast<double>(fs::file_size(path)) / 1024.0,
                m.bestMs, m.bestCpuMs, static_cast<double>(m.peakKiB) / 1024.0);
  }
  std::printf("(generated the %zu-node model in %.0f ms; times are the best of 5 imports, each in a fresh process, file read "
              "and protobuf parse included; peak is the child's maximum resident set, process start-up included)\n",
              nodes, genMs);

  // For scale: printing the imported 10k-node module.
  passlab::IRModule mod = passlab::importOnnx(generated);
  auto tp = Clock::now();
  std::string text = passlab::printModule(mod);
  std::printf("printing the imported module: %.1f ms, %.1f MiB of text\n", msSince(tp), static_cast<double>(text.size()) / (1 << 20));
  fs::remove(generated);
  return 0;
}
