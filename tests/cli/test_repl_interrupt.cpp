// Ctrl-C in a real terminal (issue 30): passlab runs in a tmux pane, a long
// `run --host --tir-reference` is interrupted with a real SIGINT from the
// terminal, and the session goes on with its trace intact. tmux is one of
// the packages CI installs (scripts/debian-packages.txt).
//
// The only time limit here is a generous one that tells "stopped" from "ran to
// the end" (the reference takes minutes); the delay from the keypress to the
// prompt is printed, not asserted.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

using namespace std::chrono_literals;
namespace fs = std::filesystem;

namespace {

std::string run(const std::string& command) {
  std::string out;
  if (FILE* p = popen(command.c_str(), "r")) {
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    pclose(p);
  }
  return out;
}

/// A tmux server of this test's own (-L), so a developer's sessions are never touched.
class Tmux {
 public:
  explicit Tmux(const std::string& command) : socket_("passlab-test-" + std::to_string(getpid())) {
    run(tmux() + "new-session -d -s t -x 200 -y 60 '" + command + "' 2>&1");
  }
  ~Tmux() { run(tmux() + "kill-server 2>/dev/null"); }
  Tmux(const Tmux&) = delete;
  Tmux& operator=(const Tmux&) = delete;

  void keys(const std::string& keys) { run(tmux() + "send-keys -t t " + keys); }
  void line(const std::string& text) { keys("'" + text + "' Enter"); }
  /// The pane's text, scrollback included, without the blank rows below the
  /// cursor (so an offset into it stays where it was as the text grows).
  std::string screen() {
    std::string s = run(tmux() + "capture-pane -p -J -S -2000 -t t");
    while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
    return s;
  }
  /// Waits until `text` appears after offset `from` of the screen (at most `limit`); the screen then.
  bool waitFor(const std::string& text, size_t from, std::chrono::milliseconds limit, std::string* last = nullptr) {
    const auto end = std::chrono::steady_clock::now() + limit;
    std::string s;
    while (std::chrono::steady_clock::now() < end) {
      s = screen();
      if (s.size() > from && s.find(text, from) != std::string::npos) {
        if (last) *last = s;
        return true;
      }
      std::this_thread::sleep_for(50ms);
    }
    if (last) *last = s;
    return false;
  }

 private:
  std::string tmux() const { return "tmux -L " + socket_ + " "; }
  std::string socket_;
};

}  // namespace

TEST_CASE("REPL in tmux: Ctrl-C stops a long run --host and keeps the session", "[repl][interrupt][tmux]") {
  REQUIRE(run("command -v tmux").find("tmux") != std::string::npos);
  fs::path dir = fs::path(PASSLAB_BINARY_DIR) / "test_repl_interrupt";
  fs::remove_all(dir);
  fs::create_directories(dir);
  // 400 chained 512x512 dense layers: the TIR interpreter takes minutes over them.
  {
    std::ofstream m(dir / "slow.relay");
    m << "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(8, 512), float32], %w: Tensor[(512, 512), float32]) {\n";
    std::string prev = "%x";
    for (int i = 0; i < 400; ++i) {
      m << "  %" << i << " = nn.dense(" << prev << ", %w);\n";
      prev = "%" + std::to_string(i);
    }
    m << "  " << prev << "\n}\n";
  }
  const std::string passlab = (fs::path(PASSLAB_BINARY_DIR) / "passlab").string();
  REQUIRE(fs::exists(passlab));
  Tmux t("cd " + dir.string() + " && " + passlab + " slow.relay");
  std::string screen;
  REQUIRE(t.waitFor("(passlab)", 0, 30s, &screen));
  t.line("pipeline InferType,FuseOps,LambdaLifting,LegalizeOps");
  t.line("run");
  REQUIRE(t.waitFor("end of the pipeline", 0, 120s, &screen));

  const size_t before = screen.size();
  t.line("run --host --tir-reference");
  // The status line says what runs and that Ctrl-C stops it.
  REQUIRE(t.waitFor("computing the reference", before, 120s, &screen));
  CHECK(screen.find("(Ctrl-C stops)", before) != std::string::npos);
  std::this_thread::sleep_for(1s);
  const size_t atKey = t.screen().size();
  const auto pressed = std::chrono::steady_clock::now();
  t.keys("C-c");
  // Stopped: the error, then a fresh prompt, long before the minutes the reference needs.
  REQUIRE(t.waitFor("interrupted (Ctrl-C)", atKey > 200 ? atKey - 200 : 0, 60s, &screen));
  REQUIRE(t.waitFor("\n(passlab)", screen.find("interrupted (Ctrl-C)"), 60s, &screen));
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - pressed).count();
  std::printf("Ctrl-C to prompt: %.0f ms (polled every 50 ms)\n", ms);
  CHECK(screen.find("nothing was compared") != std::string::npos);

  // The session is intact: its trace is all there and it takes commands.
  const size_t after = screen.size();
  t.line("trace --no-time");
  REQUIRE(t.waitFor("pipeline: 4 of 4 passes run", after, 30s, &screen));
  CHECK(screen.find("LegalizeOps  changed", after) != std::string::npos);
  t.line("quit");
}

TEST_CASE("REPL in tmux: Ctrl-C stops a long build while LLVM works and keeps the session", "[repl][interrupt][tmux][build]") {
  REQUIRE(run("command -v tmux").find("tmux") != std::string::npos);
  fs::path dir = fs::path(PASSLAB_BINARY_DIR) / "test_repl_interrupt_build";
  fs::remove_all(dir);
  fs::create_directories(dir);
  // 300 dense layers of as many sizes: 300 different kernels for LLVM (equal
  // kernels would be compiled once), many seconds of optimization.
  {
    std::ofstream m(dir / "wide.relay");
    m << "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(4, 16), float32]";
    for (int i = 0; i < 300; ++i) m << ", %w" << i << ": Tensor[(" << 17 + i << ", " << 16 + i << "), float32]";
    m << ") {\n";
    std::string prev = "%x";
    for (int i = 0; i < 300; ++i) {
      m << "  %" << i << " = nn.dense(" << prev << ", %w" << i << ");\n";
      prev = "%" + std::to_string(i);
    }
    m << "  " << prev << "\n}\n";
  }
  const std::string passlab = (fs::path(PASSLAB_BINARY_DIR) / "passlab").string();
  REQUIRE(fs::exists(passlab));
  Tmux t("cd " + dir.string() + " && " + passlab + " wide.relay");
  std::string screen;
  REQUIRE(t.waitFor("(passlab)", 0, 30s, &screen));
  t.line("pipeline relay.default");
  t.line("run");
  REQUIRE(t.waitFor("end of the pipeline", 0, 120s, &screen));

  const size_t before = screen.size();
  t.line("build");
  // The status line names the stage and the function LLVM works on.
  REQUIRE(t.waitFor("build: optimizing @", before, 120s, &screen));
  CHECK(screen.find("(Ctrl-C stops)", before) != std::string::npos);
  const size_t atKey = t.screen().size();
  const auto pressed = std::chrono::steady_clock::now();
  t.keys("C-c");
  REQUIRE(t.waitFor("build interrupted (Ctrl-C)", atKey > 200 ? atKey - 200 : 0, 60s, &screen));
  REQUIRE(t.waitFor("\n(passlab)", screen.find("build interrupted (Ctrl-C)"), 60s, &screen));
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - pressed).count();
  std::printf("build: Ctrl-C to prompt: %.0f ms (polled every 50 ms)\n", ms);
  CHECK(screen.find("nothing was recorded") != std::string::npos);

  // The session goes on with its trace (the unit tests check that nothing was recorded).
  const size_t after = screen.size();
  t.line("trace --no-time");
  REQUIRE(t.waitFor("pipeline: 6 of 6 passes run", after, 30s, &screen));
  t.line("quit");
}
