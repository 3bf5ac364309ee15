// The HTML report (report/html_report.h): its sections and events for every
// example scenario, escaping of everything that comes from the IR, shared
// function texts, and the page itself in a real browser (Debian's chromium,
// headless: its scripts run, the DOM is checked, a screenshot is written).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "core/workbench/workbench.h"
#include "passes/registry.h"
#include "repl/batch.h"
#include "repl/batch_report.h"
#include "repl/interpreter.h"
#include "report/html_report.h"
#include "report/html_text.h"
#include "bench/generated_model.h"
#include "tests/test_util.h"

using namespace passlab;
using passlab::testing::readFile;
using passlab::testing::sharedBuiltinRegistry;
namespace fs = std::filesystem;

namespace {

const std::string kSource = PASSLAB_SOURCE_DIR;

struct Session {
  Workbench workbench{sharedBuiltinRegistry()};
  CommandInterpreter interpreter{workbench};
  /// Runs REPL lines from the source tree (examples use relative paths).
  void run(const std::string& lines) {
    fs::path cwd = fs::current_path();
    fs::current_path(kSource);
    std::istringstream in(lines);
    for (std::string line; std::getline(in, line);) {
      if (line.empty() || line[0] == '#') continue;
      CommandResult r = interpreter.runLine(line);
      INFO(line << "\n" << r.output() << r.error());
      // Example scripts fail on purpose here and there (a refused pass); their own transcripts check that.
      if (line.rfind("source", 0) != 0) CHECK((r.ok() || r.status == CommandStatus::Quit));
    }
    fs::current_path(cwd);
  }
};

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

fs::path scratch(const std::string& name) {
  fs::path dir = fs::path(PASSLAB_BINARY_DIR) / "report-tests";
  fs::create_directories(dir);
  return dir / name;
}

/// Runs a command, returning its standard output and exit status.
std::pair<std::string, int> capture(const std::string& command) {
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::array<char, 65536> buffer;
  for (size_t n; (n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0;) out.append(buffer.data(), n);
  int status = pclose(pipe);
  return {out, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

/// A fresh chromium profile of this process: ctest runs the browser tests in
/// parallel, and two chromiums on one profile directory fail (its lock).
fs::path freshProfile() {
  static int uses = 0;
  fs::path profile = scratch("chromium-profile-" + std::to_string(::getpid()) + "-" + std::to_string(++uses));
  fs::remove_all(profile);
  return profile;
}

/// Headless chromium as this machine allows it (root: no sandbox; closed
/// network: no background connections), on a fresh profile.
std::string chromium(const fs::path& profile) {
  return "chromium --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --disable-background-networking "
         "--disable-component-update --disable-sync --disable-extensions --hide-scrollbars --user-data-dir=" +
         profile.string() + " --virtual-time-budget=5000 ";
}

/// The DOM of `file` after its scripts ran, opened at `fragment`.
std::string renderedDom(const fs::path& file, const std::string& fragment) {
  fs::path profile = freshProfile();
  auto [dom, status] = capture(chromium(profile) + "--dump-dom 'file://" + fs::absolute(file).string() + fragment + "' 2>/dev/null");
  fs::remove_all(profile);
  INFO("chromium exit status " << status);
  REQUIRE(status == 0);
  return dom;
}

struct Example {
  const char* name;
  const char* script;
  /// Text the report must show (a pass of the scenario, a summary, an attribute).
  std::vector<const char*> mustShow;
};

}  // namespace

TEST_CASE("Report: escaping keeps every IR string text", "[report]") {
  CHECK(htmlEscape("<a href='x'>&\"") == "&lt;a href=&#39;x&#39;&gt;&amp;&quot;");
  CHECK(scriptJsonString("</script><!--\u2028") == "\"\\u003c/script\\u003e\\u003c!--\\u2028\"");
  CHECK(htmlId("fused_add") == "fused_5fadd");
  CHECK(htmlId("a b") != htmlId("a_b"));
}

TEST_CASE("Report: before a load there is nothing to report", "[report]") {
  Workbench wb(sharedBuiltinRegistry());
  CHECK_THROWS_AS(renderHtmlReport(wb), WorkbenchError);
}

TEST_CASE("Report: every example's report has its sections, events and changes", "[report]") {
  auto example = GENERATE(values<Example>({
      {"seed000", "examples/seed000/run.cmds", {"FoldConstant", "FuseOps", "provenance.module-attr-leak", "link-params"}},
      {"seed001", "examples/seed001/run.cmds", {"PartitionGraph", "ConvertLayout", "ccompiler"}},
      {"seed002", "examples/seed002/run.cmds", {"LambdaLifting", "LegalizeOps"}},
      {"seed003", "examples/seed003/run.cmds", {"OutlineCompilerFunctions", "MarkCompilerFunctionsAsExtern", "Extern"}},
      {"seed004", "examples/seed004/run.cmds", {"BindTarget", "InlinePrivateFunctions", "hexagon"}},
      {"seed004-plan", "examples/seed004/plan.cmds", {"PlanDevices", "device_copy", "virtual_device(%bias)", "hexagon:0"}},
  }));
  INFO(example.name);
  Session s;
  s.run("source --keep-going " + std::string(example.script));
  ReportStats stats;
  std::string html = renderHtmlReport(s.workbench, {}, &stats);
  CHECK(stats.bytes == html.size());
  for (const char* section : {"id=\"trace\"", "id=\"changes\"", "id=\"attributes\"", "id=\"config\"", "id=\"diagnostics\"",
                              "id=\"numeric\"", "id=\"builds\""})
    CHECK(count(html, section) == 1);
  // One trace item per event, one change section per changed pass event.
  const Trace& trace = s.workbench.trace();
  CHECK(count(html, "<li id=\"ev-") == trace.events().size());
  size_t changed = 0;
  for (const TraceEvent& ev : trace.events()) changed += !s.workbench.builds().isCodegen(ev.id) && ev.id != 0 && ev.status == EventStatus::Changed;
  CHECK(count(html, "<details class=\"change\"") == changed);
  CHECK(stats.changedEvents == static_cast<int>(changed));
  for (const char* text : example.mustShow) {
    INFO(text);
    CHECK(html.find(text) != std::string::npos);
  }
  // Two script elements (data and code) and no external resource.
  CHECK(count(html, "<script") == 2);
  CHECK(html.find("http://") == std::string::npos);
  CHECK(html.find("https://") == std::string::npos);
  CHECK(html.find("src=\"") == std::string::npos);
}

TEST_CASE("Report: large constants print by reference, or cut to their first values inline", "[report][constants]") {
  Session s;
  s.run("load examples/seed000/cnn_fp32.relay\npipeline InferType,FoldConstant\nrun");
  ReportStats stats;
  std::string html = renderHtmlReport(s.workbench, {}, &stats);
  // By reference (the default), with the session's numbers.
  CHECK(html.find("meta[relay.Constant][0] /* ty=Tensor[(4, 3, 3, 3), float32] */") != std::string::npos);
  CHECK(html.find("const(Tensor[(4, 3, 3, 3)") == std::string::npos);
  // Inline: the 4x3x3x3 conv weight (108 values) keeps its first 12 values and a count.
  s.run("set print-constants inline");
  html = renderHtmlReport(s.workbench, {}, &stats);
  CHECK(html.find("const(Tensor[(4, 3, 3, 3), float32], [-0.09, 0.18, -0.08, -0.11, -0.33, -0.07, 0.39, 0.15, 0.36, 0.09, 0.14, "
                  "0.06, \u2026 96 more])") != std::string::npos);
}

TEST_CASE("Report: the seed-000 leak is flagged in the config section", "[report]") {
  Session s;
  s.run("source --keep-going examples/seed000/run.cmds");
  std::string html = renderHtmlReport(s.workbench);
  CHECK(html.find("id=\"conflicts\"") != std::string::npos);
  CHECK(html.find("<tr class=\"conflict\">") != std::string::npos);
  CHECK(html.find("<div class=\"mono\">relay.FoldConstant.inherit_executor_leak = ") != std::string::npos);
}

TEST_CASE("Report: a function unchanged by a pass is embedded once", "[report]") {
  Session s;
  s.run("load examples/seed003/two_blocks.relay\n"
        "pipeline InferType,AnnotateTarget,MergeCompilerRegions,PartitionGraph,Inline,OutlineCompilerFunctions,MarkCompilerFunctionsAsExtern\n"
        "run");
  ReportStats stats;
  std::string html = renderHtmlReport(s.workbench, {}, &stats);
  // Each diff embeds two texts at most, and texts shared between events count once.
  CHECK(stats.texts <= 2 * stats.diffs);
  CHECK(stats.texts < 2 * stats.diffs);
}

TEST_CASE("Report: progress names each section and changed event, and a cancel stops it", "[report][interrupt]") {
  Session s;
  s.run("load examples/seed003/two_blocks.relay\n"
        "pipeline InferType,AnnotateTarget,MergeCompilerRegions,PartitionGraph,Inline,OutlineCompilerFunctions,MarkCompilerFunctionsAsExtern\n"
        "run");
  ReportOptions options;
  std::vector<std::string> said;
  options.progress = [&](const std::string& what) { said.push_back(what); };
  ReportStats stats;
  std::string whole = renderHtmlReport(s.workbench, options, &stats);
  REQUIRE(stats.changedEvents >= 2);
  // The sections in order, with one line per changed event counting them.
  REQUIRE(said.size() == 8 + static_cast<size_t>(stats.changedEvents));
  CHECK(said.front() == "report: trace");
  CHECK_THAT(said[1], Catch::StartsWith("report: changes: #") && Catch::EndsWith(" (1/" + std::to_string(stats.changedEvents) + ")"));
  CHECK(said.back() == "report: page data");
  // A cancel (the REPL's Ctrl-C) during the second changed event stops the report there.
  said.clear();
  options.cancelled = [&] { return said.size() >= 2; };
  CHECK_THROWS_WITH(renderHtmlReport(s.workbench, options), Catch::StartsWith("report interrupted (Ctrl-C) while writing changes: #"));
  CHECK(said.size() == 2);
  // Nothing of the workbench changed: the same report again.
  options.cancelled = nullptr;
  CHECK(renderHtmlReport(s.workbench, options) == whole);
}

TEST_CASE("Report: FuseOps' regrouping is drawn as moves, and oversized graphs are left out", "[report][moves]") {
  Session s;
  s.run("load examples/seed000/cnn_fp32.relay\n"
        "pipeline InferType,SimplifyInference,FuseOps\n"
        "run");
  int fuse = s.workbench.eventOfPass(2);
  std::string html = renderHtmlReport(s.workbench, reportOptions(s.workbench));
  // The FuseOps section counts moved lines apart from changed ones ...
  std::string anchor = "id=\"change-" + std::to_string(fuse) + "\"";
  size_t at = html.find(anchor);
  REQUIRE(at != std::string::npos);
  size_t end = std::min(html.find("<details class=\"change\"", at + 1), html.find("</section>", at));
  std::string section = html.substr(at, end - at);
  INFO(section);
  CHECK(section.find("moved</span>") != std::string::npos);
  CHECK(section.find("<span class=\"a\">+0</span> <span class=\"r\">&minus;0</span>") != std::string::npos);
  // ... and its line operations use the moved kinds (3 moved away, 4 moved here).
  std::smatch m;
  std::regex ops("\"ops\":\\[([0-9,]*)\\]");
  bool movedKinds = false;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), ops); it != std::sregex_iterator(); ++it) {
    std::string list = (*it)[1];
    movedKinds = movedKinds || list.rfind("3,", 0) == 0 || list.find(",3,") != std::string::npos;
  }
  CHECK(movedKinds);
  // A graph over the size limit is named, not embedded.
  ReportOptions tiny = reportOptions(s.workbench);
  tiny.maxGraphHeightPt = 10;
  ReportStats stats;
  std::string small = renderHtmlReport(s.workbench, tiny, &stats);
  CHECK(stats.graphs == 0);
  CHECK(small.find("left out (") != std::string::npos);
}

TEST_CASE("Report: markup and scripts in IR strings show as text", "[report][escape]") {
  const std::string payload = "</script><script>document.body.dataset.pwned='1'</script><img src=x onerror=document.title='pwned'>";
  Session s;
  s.workbench.loadText("#[version = \"0.0.5\"]\n"
                       "def @main(%x: Tensor[(4), float32]) -> Tensor[(4), float32] {\n"
                       "  @f(%x)\n"
                       "}\n"
                       "def @f(%y: Tensor[(4), float32], Compiler=\"" + payload + "\") -> Tensor[(4), float32] {\n"
                       "  add(%y, %y)\n"
                       "}\n",
                       "<b>evil</b>.relay");
  s.run("pipeline InferType,MarkCompilerFunctionsAsExtern\nrun");
  std::string html = renderHtmlReport(s.workbench);
  CHECK(count(html, "<script") == 2);
  CHECK(html.find("<img src=x") == std::string::npos);
  CHECK(html.find("<b>evil") == std::string::npos);
  CHECK(html.find("&lt;b&gt;evil&lt;/b&gt;.relay") != std::string::npos);

  fs::path file = scratch("escape.html");
  std::ofstream(file) << html;
  std::string dom = renderedDom(file, "#expand-all");
  CHECK(dom.find("data-ready=\"1\"") != std::string::npos);  // the page's script ran
  CHECK(dom.find("data-pwned") == std::string::npos);        // the payload's did not
  CHECK(dom.find("<title>pwned") == std::string::npos);
  CHECK(dom.find("document.body.dataset") != std::string::npos);  // but it shows, as text
}

TEST_CASE("Report: each example's report renders in headless chromium", "[report][browser]") {
  auto name = GENERATE(values<std::string>({"seed000", "seed001", "seed002", "seed003", "seed004"}));
  INFO(name);
  Session s;
  s.run("source --keep-going examples/" + name + "/run.cmds");
  fs::path file = scratch(name + ".html");
  ReportStats stats = writeHtmlReport(s.workbench, file.string(), reportOptions(s.workbench));

  std::string dom = renderedDom(file, "#expand-all");
  CHECK(dom.find("data-ready=\"1\"") != std::string::npos);
  CHECK(dom.find("class=\"show-quiet\"") != std::string::npos);
  // Expanding everything rendered every diff as a side-by-side table.
  std::string html = readFile(file);
  CHECK(count(dom, "<table class=\"diff\">") == count(html, "data-diff=\""));
  CHECK(count(dom, "<li id=\"ev-") == s.workbench.trace().events().size());
  CHECK((dom.find("class=\"code del\"") != std::string::npos || dom.find("class=\"code add\"") != std::string::npos));
  // Graphs: one figure per embedded SVG, shown as an image (never inline markup).
  CHECK(count(dom, "<figure>") == static_cast<size_t>(stats.graphs));
  CHECK(count(dom, "<img alt=") == static_cast<size_t>(stats.graphs));
  if (name != "seed002" && name != "seed004") CHECK(stats.graphs > 0);  // their changes are in PrimFuncs

  // A picture for people: the report as a reader first sees it.
  fs::path png = scratch(name + ".png");
  fs::remove(png);
  fs::path profile = freshProfile();
  int firstChange = -1;
  for (const TraceEvent& ev : s.workbench.trace().events())
    if (firstChange < 0 && !s.workbench.builds().isCodegen(ev.id) && ev.id != 0 && ev.status == EventStatus::Changed) firstChange = ev.id;
  auto [out, status] = capture(chromium(profile) + "--window-size=1280,1600 --screenshot=" + png.string() + " 'file://" +
                               fs::absolute(file).string() + "#change-" + std::to_string(firstChange) + "' 2>/dev/null");
  fs::remove_all(profile);
  CHECK(status == 0);
  CHECK(fs::exists(png));
  CHECK(fs::file_size(png) > 10000);
}

TEST_CASE("Report: batch mode writes the report, also when a pass fails", "[report][batch]") {
  auto registry = sharedBuiltinRegistry();
  BatchOptions o;
  o.input = kSource + "/examples/seed000/cnn_fp32.relay";
  o.pipeline = "InferType,SimplifyInference,ToMixedPrecision,FoldConstant,FuseOps";
  o.hasPipeline = true;
  o.output = scratch("batch-out.relay").string();
  o.report = scratch("batch.html").string();
  o.config.emplace_back("relay.FoldConstant.inherit_executor_leak", "true");
  fs::remove(o.report);
  std::FILE* null = std::fopen("/dev/null", "w");
  CHECK(runBatch(o, *registry, null, null) == 0);
  std::string html = readFile(o.report);
  CHECK(html.find("FoldConstant") != std::string::npos);
  CHECK(html.find("folded") != std::string::npos);  // the change summary of FoldConstant
  CHECK(html.find(">relay.FoldConstant.inherit_executor_leak = ") != std::string::npos);  // the config change, in the header

  // An ill-typed module: InferType fails, the batch exits 1, the report shows the failure.
  BatchOptions bad;
  bad.input = kSource + "/examples/ill_typed.relay";
  bad.typeCheck = false;
  bad.pipeline = "InferType";
  bad.hasPipeline = true;
  bad.output = scratch("batch-bad.relay").string();
  bad.report = scratch("batch-bad.html").string();
  fs::remove(bad.report);
  CHECK(runBatch(bad, *registry, null, null) == 1);
  std::fclose(null);
  std::string failed = readFile(bad.report);
  CHECK(failed.find("status-failed") != std::string::npos);
  CHECK(failed.find("data-status=\"failed\"") != std::string::npos);

  // A report that cannot be written is an error of its own.
  o.report = "/nonexistent-dir/x.html";
  null = std::fopen("/dev/null", "w");
  CHECK(runBatch(o, *registry, null, null) == 1);
  std::fclose(null);
}

TEST_CASE("Report: the 700-op model's FuseOps section, every graph drawn in pages, in headless chromium", "[report][browser][scale]") {
  // The 96x96 MobileNetV3 from ONNX (bench/make_mobilenetv3_onnx.py, python3-onnx).
  const std::string model = bench::generateMobileNetV3Model();
  REQUIRE_FALSE(model.empty());
  Session s;
  s.run("load --input-shape input=1,3,96,96 " + model + "\n"
        "pipeline InferType,SimplifyInference,FoldConstant,FuseOps\n"
        "run");
  const int fuse = s.workbench.eventOfPass(3);
  fs::path file = scratch("mobilenetv3.html");
  ReportStats stats = writeHtmlReport(s.workbench, file.string(), reportOptions(s.workbench));
  std::string html = readFile(file);
  // Every changed event's @main is drawn on both sides; none is left out for its size.
  size_t changed = 0;
  for (const TraceEvent& ev : s.workbench.trace().events())
    if (ev.parent < 0 && !s.workbench.builds().isCodegen(ev.id) && ev.status == EventStatus::Changed) ++changed;
  CHECK(changed == 3);
  CHECK(stats.graphs >= static_cast<int>(2 * changed));
  CHECK(html.find("left out") == std::string::npos);
  // Before FuseOps @main is a column too tall for one page: it comes in pages side by side.
  CHECK(html.find("page 1 of 2; continues at the top of page 2") != std::string::npos);
  CHECK(stats.bytes < 2u * 1024 * 1024);

  // Opened at the FuseOps graphs: both sides render as images.
  const std::string anchor = "#graph-" + std::to_string(fuse) + "-main";
  std::string dom = renderedDom(file, anchor);
  CHECK(dom.find("data-ready=\"1\"") != std::string::npos);
  size_t at = dom.find("id=\"graph-" + std::to_string(fuse) + "-main\"");
  REQUIRE(at != std::string::npos);
  CHECK(count(dom.substr(at, dom.find("</details>", at) - at), "<img alt=") == 2);

  // Pictures for people: the section as a reader first sees it, and its graphs opened.
  for (const std::string& fragment : {"#change-" + std::to_string(fuse), anchor}) {
    fs::path png = scratch("mobilenetv3-fuseops" + std::string(fragment == anchor ? "-graphs" : "") + ".png");
    fs::remove(png);
    fs::path profile = freshProfile();
    auto [out, status] = capture(chromium(profile) + "--window-size=1280,1600 --screenshot=" + png.string() + " 'file://" +
                                 fs::absolute(file).string() + fragment + "' 2>/dev/null");
    fs::remove_all(profile);
    CHECK(status == 0);
    REQUIRE(fs::exists(png));
    CHECK(fs::file_size(png) > 10000);
  }
}

TEST_CASE("Report: kernels that differ only in their names are shown once, with the other names", "[report][scale]") {
  // Three identical exps: FuseOps makes three groups, LambdaLifting three
  // globals, LegalizeOps three PrimFuncs, each the same text under its own
  // name. The report shows each once and names the other two.
  fs::path model = scratch("twin_kernels.relay");
  std::ofstream(model) << "#[version = \"0.0.5\"]\n"
                          "def @main(%x: Tensor[(1, 8), float32], %y: Tensor[(1, 8), float32], %z: Tensor[(1, 8), float32]) {\n"
                          "  %0 = exp(%x);\n"
                          "  %1 = exp(%y);\n"
                          "  %2 = exp(%z);\n"
                          "  (%0, %1, %2)\n"
                          "}\n";
  Session s;
  s.run("load " + model.string() + "\npipeline relay.default\nrun");
  const int legalize = s.workbench.eventOfPass(5);
  std::string html = renderHtmlReport(s.workbench, {});
  size_t at = html.find("id=\"change-" + std::to_string(legalize) + "\"");
  REQUIRE(at != std::string::npos);
  std::string section = html.substr(at, html.find("<details class=\"change\"", at + 1) - at);
  INFO(section);
  std::vector<std::string> kernels;
  for (const FunctionEdit& e : s.workbench.eventEdits(legalize)->functions)
    if (e.primFunc && e.kind == FunctionEdit::Kind::Added) kernels.push_back(e.name);
  REQUIRE(kernels.size() == 3);
  // One row for the three kernels, the other two named in it.
  CHECK(count(section, "<details class=\"fn\" id=\"change-" + std::to_string(legalize) + "-" + htmlId("fused_exp")) == 1);
  CHECK(section.find("the same in 2 more functions") != std::string::npos);
  CHECK(section.find("2 functions with the text of @fused_exp but for their own name") != std::string::npos);
  // Every kernel is reachable: shown, or named in its twin's row.
  for (const std::string& k : kernels) CHECK(section.find("@" + k) != std::string::npos);
  CHECK(section.find("more changed functions are not shown") == std::string::npos);
}
