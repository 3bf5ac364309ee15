// Lists that grow with the model are capped with a count, and `--all` shows
// the rest: `changes`, `info`, the `build` function list, the profile table,
// the attribute timeline (identical changes fold into one row) and the report's.
#include <catch2/catch.hpp>

#include <sstream>

#include "core/workbench/workbench.h"
#include "passes/registry.h"
#include "repl/command.h"
#include "repl/interpreter.h"
#include "report/html_report.h"

using namespace passlab;

namespace {

/// A chain of `n` conv2d + relu pairs: FuseOps makes n Primitive functions,
/// LambdaLifting n globals, LegalizeOps n PrimFuncs.
std::string convChain(int n) {
  std::string text = "#[version = \"0.0.5\"]\ndef @main(%x: Tensor[(1, 2, 4, 4), float32]) {\n";
  std::string prev = "%x";
  for (int i = 0; i < n; ++i) {
    text += "  %" + std::to_string(2 * i) + " = nn.conv2d(" + prev +
            ", const(Tensor[(2, 2, 1, 1), float32], [1, 0.5, -0.5, 1]), channels=2, kernel_size=[1, 1]);\n";
    text += "  %" + std::to_string(2 * i + 1) + " = nn.relu(%" + std::to_string(2 * i) + ");\n";
    prev = "%" + std::to_string(2 * i + 1);
  }
  return text + "  " + prev + "\n}\n";
}

struct Session {
  Workbench workbench{[] {
    auto registry = std::make_shared<PassRegistry>();
    registerBuiltinPasses(*registry);
    return registry;
  }()};
  CommandInterpreter repl{workbench};

  Session() {
    workbench.loadText(convChain(30), "chain30.relay");
    workbench.setPipeline("InferType,FuseOps,LambdaLifting,LegalizeOps");
    workbench.run();
  }
  std::string out(const std::string& line) {
    CommandResult r = repl.runLine(line);
    INFO(line << "\n" << r.error());
    REQUIRE(r.ok());
    return r.output();
  }
};

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("Caps: changes stops at 40 lines and counts the rest by kind; --all lists every line", "[caps]") {
  Session s;
  std::vector<std::string> capped = lines(s.out("changes 2"));
  // The summary, the function's header and 39 node lines, then the count.
  REQUIRE(capped.size() == 42);
  CHECK(capped[0] == "#2 FuseOps: grouped 60 ops into 30 Primitive functions; 0 ops rewritten");
  CHECK(capped.back() == "… 81 more lines (41 inserted, 40 moved); --all lists every one");
  std::string all = s.out("changes 2 --all");
  CHECK(all.find("more lines") == std::string::npos);
  CHECK(count(all, "  moved    ") == 60);
  CHECK(lines(s.out("diff 2 --summary")).size() == 42);
}

TEST_CASE("Caps: info names 8 changed functions and folds an attribute change made to many", "[caps]") {
  Session s;
  std::string info = s.out("info 3 --no-time");
  CHECK(info.find("  changed functions (31): @main @main_lifted @main_lifted_1 @main_lifted_10 @main_lifted_11 "
                  "@main_lifted_12 @main_lifted_13 @main_lifted_14 … 23 more\n") != std::string::npos);
  CHECK(info.find("    Primitive added 1 on 30 functions (@main_lifted @main_lifted_1 @main_lifted_10 … 27 more)\n") !=
        std::string::npos);
  CHECK(info.find("<module> phase: 0 -> 1") != std::string::npos);
  std::string all = s.out("info 3 --no-time --all");
  CHECK(all.find("… 23 more") == std::string::npos);
  CHECK(count(all, " Primitive: added 1\n") == 30);
  CHECK(all.find("@main_lifted_9") != std::string::npos);
}

TEST_CASE("Caps: the attribute timeline folds rows that tell the same story", "[caps]") {
  Session s;
  std::vector<std::string> folded = lines(s.out("attrs"));
  REQUIRE(folded.size() == 5);  // header, phase, global_symbol on 30, Primitive on 30, hidden-events note
  CHECK(folded[2].rfind("30 functions (@fused_nn_conv2d_nn_relu @fused_nn_conv2d_nn_relu_1 … 28 more)", 0) == 0);
  CHECK(folded[2].find("global_symbol") != std::string::npos);
  CHECK(folded[2].find("(own name)*") != std::string::npos);
  CHECK(folded[3].rfind("30 functions (@main_lifted @main_lifted_1 … 28 more)", 0) == 0);
  std::string all = s.out("attrs --all");
  CHECK(all.find("functions (") == std::string::npos);
  CHECK(count(all, "global_symbol") == 30);
  // Grouping is a workbench query, so every face folds the same rows.
  std::vector<AttrTimelineGroup> groups = groupAttrTimelineRows(s.workbench.attrTimeline());
  REQUIRE(groups.size() == 3);
  CHECK(groups[1].rows.size() + groups[2].rows.size() == 60);
  // The report's timeline: one row per story, the functions behind an expander.
  std::string html = renderHtmlReport(s.workbench);
  CHECK(count(html, "<details><summary>30 functions</summary>") == 2);
}

TEST_CASE("Caps: the build lists 8 functions and profiles the 20 slowest kernels, a row for the rest and a total",
          "[caps]") {
  Session s;
  std::string built = s.out("build --profile --repeat 2");
  CHECK(built.find("  PrimFuncs: (30) @fused_nn_conv2d_nn_relu, @fused_nn_conv2d_nn_relu_1,") != std::string::npos);
  CHECK(built.find(", … 22 more (--all lists every one)\n") != std::string::npos);
  std::string profile = s.out("profile");
  std::vector<std::string> rows = lines(profile);
  size_t kernels = 0;
  for (const std::string& r : rows) kernels += r.rfind("  @fused_nn_conv2d_nn_relu", 0) == 0;
  CHECK(kernels == 20);
  CHECK(profile.find("  … 10 more kernels (--all lists every one)") != std::string::npos);
  // The total closes the table; only the schedule column's key follows it.
  REQUIRE(rows.size() >= 2);
  CHECK(rows[rows.size() - 2].rfind("  total in kernels", 0) == 0);
  CHECK(rows.back().rfind("  schedule: ", 0) == 0);
  std::string all = s.out("profile --all");
  CHECK(count(all, "\n  @fused_nn_conv2d_nn_relu") == 30);
  CHECK(all.find("more kernels") == std::string::npos);
  CHECK(s.out("build --all").find("more (--all") == std::string::npos);
}
