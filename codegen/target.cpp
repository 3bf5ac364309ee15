// Targets, external tools (clang-14, ld.lld-14, qemu-hexagon) and artifact files.
#include <sys/stat.h>
#include <sys/wait.h>
#include <signal.h>
#include <unistd.h>
#include <fcntl.h>

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "codegen/codegen.h"
#include "codegen/codegen_internal.h"
#include "core/interp/interp_limits.h"

namespace passlab::codegen {

namespace fs = std::filesystem;

Target Target::host() { return Target{TargetKind::Host, "", "", "", "llvm"}; }

Target Target::hexagon() {
  return Target{TargetKind::Hexagon, "hexagon-unknown-linux-musl", "hexagonv68", "+hvxv68,+hvx-length128b",
                "hexagon -mcpu=hexagonv68 -mattr=+hvxv68,+hvx-length128b"};
}

Target Target::hexagonEmulated() {
  return Target{TargetKind::Hexagon, "hexagon-unknown-linux-musl", "hexagonv67", "+hvxv67,+hvx-length128b",
                "hexagon -mcpu=hexagonv67 -mattr=+hvxv67,+hvx-length128b"};
}

int Target::hexagonVersion() const {
  if (kind != TargetKind::Hexagon || cpu.rfind("hexagonv", 0) != 0) return 0;
  int v = 0;
  for (size_t i = 8; i < cpu.size() && std::isdigit(static_cast<unsigned char>(cpu[i])) && v < 1000; ++i) v = v * 10 + (cpu[i] - '0');
  return v;
}

Target Target::forEmulator() const {
  if (kind != TargetKind::Hexagon || hexagonVersion() <= hexagonEmulated().hexagonVersion()) return *this;
  return hexagonEmulated();
}

Target Target::parse(std::string_view text) {
  std::istringstream words{std::string(text)};
  std::string kind;
  words >> kind;
  Target t;
  if (kind == "llvm" || kind == "c" || kind == "cpu" || kind == "host") {
    t = host();
  } else if (kind == "hexagon") {
    t = hexagon();
  } else {
    throw CodegenError("unknown target '" + std::string(text) + "' (llvm, host or hexagon)");
  }
  t.text = std::string(text);
  std::string word;
  while (words >> word) {
    if (word.rfind("-mcpu=", 0) == 0) t.cpu = word.substr(6);
    else if (word.rfind("-mattr=", 0) == 0) t.features = word.substr(7);
    else if (word.rfind("-mtriple=", 0) == 0) t.triple = word.substr(9);
  }
  if (text.find("-mcpu=") != std::string_view::npos)
    if (std::optional<std::string> why = unknownCpuMessage(t.kind, t.cpu)) throw CodegenError(*why);
  return t;
}

std::string runtimeDir() { return std::string(PASSLAB_CODEGEN_SOURCE_DIR) + "/runtime/hexagon"; }

std::string makeTempDir(const std::string& prefix) {
  std::string pattern = (fs::temp_directory_path() / (prefix + "XXXXXX")).string();
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data())) throw CodegenError("cannot create a temporary directory under " + fs::temp_directory_path().string());
  return buf.data();
}

void runTool(const std::vector<std::string>& argv, const std::string& inFile, const std::string& outFile) {
  std::string errPath = makeTempDir("passlab-tool-") + "/stderr";
  pid_t pid = fork();
  if (pid < 0) throw CodegenError("cannot start " + argv[0]);
  if (pid == 0) {
    int in = open(inFile.empty() ? "/dev/null" : inFile.c_str(), O_RDONLY);
    int out = outFile.empty() ? open(errPath.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600) : open(outFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int err = open(errPath.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (in < 0 || out < 0 || err < 0) _exit(126);
    dup2(in, 0);
    dup2(out, 1);
    dup2(err, 2);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  // Polled rather than blocking, so that Ctrl-C (interp::requestInterrupt)
  // stops a long qemu run or compile within a few milliseconds.
  int status = 0;
  bool interrupted = false;
  for (pid_t done = 0; (done = waitpid(pid, &status, WNOHANG)) <= 0;) {
    if (done < 0 && errno != EINTR) throw CodegenError("cannot wait for " + argv[0]);
    if (!interrupted && interp::interruptRequested()) {
      interrupted = true;
      kill(pid, SIGKILL);
    }
    usleep(2000);
  }
  if (interrupted) {
    fs::remove_all(fs::path(errPath).parent_path());
    throw CodegenError(argv[0] + " interrupted (Ctrl-C)");
  }
  std::ifstream errStream(errPath);
  std::string errText((std::istreambuf_iterator<char>(errStream)), std::istreambuf_iterator<char>());
  fs::remove_all(fs::path(errPath).parent_path());
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
  std::string command;
  for (const std::string& a : argv) command += (command.empty() ? "" : " ") + a;
  std::string why = WIFEXITED(status) ? (WEXITSTATUS(status) == 127 ? "not found" : "exit status " + std::to_string(WEXITSTATUS(status)))
                                      : "killed by signal " + std::to_string(WTERMSIG(status));
  if (errText.size() > 4000) errText = errText.substr(0, 4000) + "...";
  throw CodegenError(command + " failed (" + why + ")" + (errText.empty() ? "" : ":\n" + errText));
}

std::vector<uint8_t> compileC(const std::string& source, const Target& target, const std::string& name) {
  std::string dir = makeTempDir("passlab-cc-");
  std::string src = dir + "/" + name + ".c", obj = dir + "/" + name + ".o";
  std::ofstream(src) << source;
  std::vector<std::string> argv{"clang-14", "-c", "-O3", "-std=c11", "-ffp-contract=off", "-o", obj, src};
  if (target.kind == TargetKind::Host) {
    argv.insert(argv.begin() + 1, {"-fPIC", "-march=native"});
  } else {
    std::string cpu = "-mcpu=" + (target.cpu.empty() ? Target::hexagon().cpu : target.cpu);
    argv.insert(argv.begin() + 1, {"--target=hexagon-unknown-linux-musl", cpu, "-mhvx", "-mhvx-length=128b",
                                   "-G0", "-ffreestanding", "-fno-builtin", "-nostdlib"});
  }
  try {
    runTool(argv);
  } catch (...) {
    fs::remove_all(dir);
    throw;
  }
  std::ifstream in(obj, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  fs::remove_all(dir);
  return bytes;
}

std::vector<std::string> writeArtifacts(const Artifacts& a, const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw CodegenError("cannot create " + dir + ": " + ec.message());
  std::vector<std::string> written;
  auto put = [&](const std::string& file, const std::string& text) {
    std::ofstream out(fs::path(dir) / file, std::ios::binary);
    if (!out) throw CodegenError("cannot write " + (fs::path(dir) / file).string());
    out << text;
    written.push_back(file);
  };
  std::string kind(a.target.kindName());
  put(kind + ".ll", a.llvmIR);
  put(kind + ".opt.ll", a.llvmIROptimized);
  if (!a.assembly.empty()) put(kind + ".s", a.assembly);
  if (!a.object.empty()) put(kind + ".o", std::string(a.object.begin(), a.object.end()));
  for (const auto& [name, c] : a.externC) put(name + ".c", c);
  return written;
}

double maxAbsError(const std::vector<NDArray>& a, const std::vector<NDArray>& b) {
  if (a.size() != b.size()) return INFINITY;
  double worst = 0;
  for (size_t k = 0; k < a.size(); ++k) {
    if (a[k].dtype() != b[k].dtype() || a[k].numElements() != b[k].numElements()) return INFINITY;
    for (int64_t i = 0; i < a[k].numElements(); ++i) {
      double x = a[k].getAsDouble(i), y = b[k].getAsDouble(i);
      if (std::isnan(x) || std::isnan(y)) {
        if (std::isnan(x) != std::isnan(y)) return INFINITY;
        continue;
      }
      if (x == y) continue;  // equal infinities
      worst = std::max(worst, std::fabs(x - y));
    }
  }
  return worst;
}

}  // namespace passlab::codegen
