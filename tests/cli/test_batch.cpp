// Batch mode pinned from the outside: the real `passlab` binary on a table of
// command lines, each with its exit status, stdout and stderr compared with
// tests/batch/NAME.expected. Written before batch mode became a Workbench run
// (issue 32: one driver), so any difference that change makes shows here as a
// diff to review. Times and sizes are masked; everything else is exact.
// Rewrite the expected files with PASSLAB_UPDATE_GOLDEN=1 and read the diff.
#include <sys/wait.h>

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <string>

#include "tests/text_test_util.h"

namespace fs = std::filesystem;
using namespace passlab::testing;

namespace {

/// A scratch directory with examples/ linked in, so command lines and the
/// file names in their output are the same on every machine.
fs::path batchScratch(const std::string& name) {
  fs::path dir = fs::path(PASSLAB_BINARY_DIR) / "batch-runs" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::create_directory_symlink(fs::path(PASSLAB_SOURCE_DIR) / "examples", dir / "examples");
  fs::create_directory_symlink(fs::path(PASSLAB_SOURCE_DIR) / "tests" / "batch", dir / "inputs");
  return dir;
}

/// Masks what changes from run to run: durations (the timing report's
/// 4-decimal seconds, the trace's wallMs/startMs), percentages and sizes.
std::string maskVolatile(std::string text) {
  static const std::regex duration(R"(\b[0-9]+(\.[0-9]+)? ?(ms|us|s)\b)");
  static const std::regex seconds(R"(\b[0-9]+\.[0-9]{4}\b)");
  static const std::regex percent(R"(\( *[0-9]+(\.[0-9]+)?%\))");
  static const std::regex kib(R"([0-9]+ KiB)");
  static const std::regex jsonTime(R"re(("(wallMs|startMs|selfMs|ms|seconds)"\s*:\s*)[-0-9.e+]+)re");
  text = std::regex_replace(text, jsonTime, "$1<n>");
  text = std::regex_replace(text, seconds, "<t>");
  text = std::regex_replace(text, duration, "<time>");
  text = std::regex_replace(text, percent, "(<pct>)");
  text = std::regex_replace(text, kib, "<n> KiB");
  return text;
}

struct BatchCase {
  const char* name;
  const char* args;
  /// A file the run writes whose text is part of what is pinned ("" for none).
  const char* writes;
};

}  // namespace

TEST_CASE("Batch: each command line gives the pinned exit status, stdout and stderr", "[batch][golden]") {
  // clang-format off
  auto c = GENERATE(
      BatchCase{"print_changed_diff", "examples/cnn_block.relay --pass-pipeline=InferType,SimplifyExpr,EliminateCommonSubexpr,DeadCodeElimination --print-changed=diff -o -", ""},
      BatchCase{"print_after_all", "examples/cnn_block.relay --pass-pipeline=SimplifyInference,FoldConstant --print-after-all -o /dev/null", ""},
      BatchCase{"print_before_all_filtered", "examples/seed000/cnn_fp32.relay --pass-pipeline=FoldConstant,FuseOps --print-before-all --filter-print-funcs=main -o /dev/null", ""},
      BatchCase{"print_changed_summary", "examples/seed000/cnn_fp32.relay --pass-pipeline=FoldConstant,FuseOps,LegalizeOps --print-changed=summary -o /dev/null", ""},
      BatchCase{"print_changed_plain", "examples/cnn_block.relay --pass-pipeline=SimplifyExpr,FoldConstant --print-changed -o /dev/null", ""},
      BatchCase{"verify_each_clean", "examples/cnn_block.relay --pass-pipeline=SimplifyInference,FoldConstant,FuseOps --verify-each -o -", ""},
      BatchCase{"verify_each_phase", "examples/seed000/cnn_fp32.relay --pass-pipeline=FuseOps,LegalizeOps,FuseOps --verify-each -o /dev/null", ""},
      BatchCase{"time_passes", "examples/cnn_block.relay --pass-pipeline=FoldConstant,FuseOps --time-passes -o /dev/null", ""},
      BatchCase{"trace_json", "examples/cnn_block.relay --pass-pipeline=FoldConstant,FuseOps --trace-json=trace.json -o /dev/null", "trace.json"},
      BatchCase{"remarks", "examples/seed000/cnn_fp32.relay --pass-pipeline=FoldConstant,FuseOps --remarks=missed:FuseOps -o /dev/null", ""},
      BatchCase{"report", "examples/cnn_block.relay --pass-pipeline=FoldConstant,FuseOps --report=run.html -o /dev/null", ""},
      BatchCase{"config_opt_level", "examples/seed000/cnn_fp32.relay --pass-pipeline=FuseOps --opt-level=0 --config=relay.FuseOps.max_depth=2 --print-changed=summary -o /dev/null", ""},
      BatchCase{"disabled_pass", "examples/cnn_block.relay --pass-pipeline=SimplifyExpr,FoldConstant --disabled-pass=FoldConstant --print-changed=summary -o /dev/null", ""},
      BatchCase{"bad_pipeline", "examples/cnn_block.relay --pass-pipeline=InferType,NoSuchPass -o -", ""},
      BatchCase{"bad_config", "examples/cnn_block.relay --pass-pipeline=FuseOps --config=relay.FuseOps.max_depth=abc -o -", ""},
      BatchCase{"bad_input", "examples/ill_typed.relay --pass-pipeline=InferType -o -", ""},
      BatchCase{"tvmscript_legalize", "examples/relax/mlp.py --pass-pipeline=LegalizeOps --print-changed=summary -o -", ""});
  // clang-format on
  const fs::path dir = batchScratch(c.name);
  const std::string binary = (fs::path(PASSLAB_BINARY_DIR) / "passlab").string();
  // Under the sanitizers LeakSanitizer would list the suppressions it used on
  // stderr (Graphviz's), which is not the run's output.
  const char* lsan = std::getenv("LSAN_OPTIONS");
  const std::string lsanOptions = std::string(lsan ? lsan : "") + (lsan && *lsan ? ":" : "") + "print_suppressions=0";
  const std::string command = "cd '" + dir.string() + "' && PASSLAB_CACHE_DIR=off LSAN_OPTIONS='" + lsanOptions + "' '" +
                              binary + "' " + c.args + " > stdout.txt 2> stderr.txt";
  const int raw = std::system(command.c_str());
  const int status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  std::string actual = "$ passlab " + std::string(c.args) + "\nexit: " + std::to_string(status) + "\n--- stdout ---\n" +
                       readFile(dir / "stdout.txt") + "--- stderr ---\n" + readFile(dir / "stderr.txt");
  if (*c.writes) actual += "--- " + std::string(c.writes) + " ---\n" + readFile(dir / c.writes);
  actual = maskVolatile(actual);
  const fs::path expectedPath = corpusDir("batch") / (std::string(c.name) + ".expected");
  if (updatingGoldens()) writeFile(expectedPath, actual);
  INFO("command: passlab " << c.args);
  REQUIRE(fs::exists(expectedPath));
  CHECK(actual == readFile(expectedPath));
}
