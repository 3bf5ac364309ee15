// The print syntax as one setting: `set syntax`, the load path's TextOrigin,
// batch mode's --syntax and -o OUT.py, reproducers in either syntax, and
// module text pasted at the REPL prompt. Cases that print or read TVMScript
// need the TVMScript printer and parser (core/text/tvmscript_*.cpp).
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/text/load_text.h"
#include "core/workbench/reproducer.h"
#include "core/workbench/workbench.h"
#include "passes/registry.h"
#include "repl/batch.h"
#include "repl/interpreter.h"
#include "repl/paste.h"
#include "tests/test_util.h"

using namespace passlab;
using passlab::testing::readFile;
using passlab::testing::sharedBuiltinRegistry;
namespace fs = std::filesystem;

namespace {

const std::string kSource = PASSLAB_SOURCE_DIR;
const std::string kRelay = kSource + "/tests/data/syntax/add_relu.relay";
const std::string kScript = kSource + "/tests/data/syntax/add_relu.py";

fs::path scratch(const std::string& name) {
  fs::path dir = fs::path(PASSLAB_BINARY_DIR) / "syntax-tests" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

struct Session {
  Workbench workbench{sharedBuiltinRegistry()};
  CommandInterpreter interpreter{workbench};

  /// Runs a line that must succeed; returns its output.
  std::string run(const std::string& line) {
    CommandResult r = interpreter.runLine(line);
    INFO(line << " -> " << r.error());
    REQUIRE(r.ok());
    return r.output();
  }
};

/// Markers only one syntax prints.
bool isTvmScript(const std::string& text) { return text.find("@R.function") != std::string::npos; }
bool isRelay(const std::string& text) { return text.find("def @main(%x") != std::string::npos; }

int batch(const BatchOptions& o, std::string* errText = nullptr) {
  std::FILE* err = std::tmpfile();
  std::FILE* out = std::tmpfile();
  int status = runBatch(o, *sharedBuiltinRegistry(), out, err);
  std::rewind(err);
  std::string text;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, err)) > 0;) text.append(buf, n);
  std::fclose(err);
  std::fclose(out);
  if (errText) *errText = text;
  return status;
}

}  // namespace

// ---- The setting --------------------------------------------------------------

TEST_CASE("Syntax: set syntax rejects an unknown syntax and lists the choices", "[syntax]") {
  Session s;
  CommandResult r = s.interpreter.runLine("set syntax python");
  CHECK_FALSE(r.ok());
  CHECK(r.error().find("unknown syntax 'python'") != std::string::npos);
  CHECK(r.error().find("tvmscript, relay, auto") != std::string::npos);
  CHECK_FALSE(s.workbench.printSyntaxSetting());
  CommandResult extra = s.interpreter.runLine("set syntax relay now");
  CHECK_FALSE(extra.ok());
  CHECK(extra.error().find("usage: set syntax tvmscript|relay|auto") != std::string::npos);
}

TEST_CASE("Syntax: the print syntax follows the load until set, and `set` and `info` show it", "[syntax]") {
  Session s;
  CHECK(s.run("load " + kRelay) == "loaded " + kRelay + " (Relay text): 1 function\n");
  CHECK(s.workbench.textOrigin().syntax == TextSyntax::Relay);
  CHECK(s.workbench.printSyntax() == TextSyntax::Relay);
  CHECK(s.run("set").find("syntax: relay (auto: the syntax the module was loaded in)\n") != std::string::npos);
  CHECK(s.run("info 0").find("loaded from " + kRelay + " as Relay text; prints as relay (auto") != std::string::npos);

  CHECK(s.run("set syntax tvmscript") == "syntax = tvmscript\n");
  CHECK(s.workbench.printSyntax() == TextSyntax::TVMScript);
  CHECK(s.workbench.printOptions().syntax == TextSyntax::TVMScript);
  CHECK(s.run("set").find("syntax: tvmscript\n") != std::string::npos);
  CHECK(s.run("set syntax py") == "syntax = tvmscript\n");  // the alias of textSyntaxFromName
  // An explicit choice outlives a load; `auto` returns to the load's syntax.
  s.run("load " + kRelay);
  CHECK(s.workbench.printSyntax() == TextSyntax::TVMScript);
  CHECK(s.run("set syntax auto") == "syntax = relay (auto: the syntax the module was loaded in)\n");
  // Printing only: nothing recorded is discarded.
  s.run("pipeline InferType,SimplifyExpr");
  s.run("run");
  const size_t events = s.workbench.trace().events().size();
  s.run("set syntax relay");
  CHECK(s.workbench.trace().events().size() == events);
}

TEST_CASE("Syntax: `syntax` is a setting key for completion and help", "[syntax]") {
  Session s;
  std::vector<std::string> keys = settingKeys();
  CHECK(std::find(keys.begin(), keys.end(), "syntax") != keys.end());
  Completion c = s.interpreter.complete("set syn", 7);
  CHECK(std::find(c.candidates.begin(), c.candidates.end(), "syntax") != c.candidates.end());
  std::string help = s.interpreter.helpFor(*s.interpreter.find("set"));
  CHECK(help.find("set syntax tvmscript|relay|auto") != std::string::npos);
}

// ---- Printing in Relay (needs no TVMScript printer) -----------------------------

TEST_CASE("Syntax: set syntax relay prints Relay text from show, diff and save module", "[syntax]") {
  Session s;
  s.run("load " + kRelay);
  s.run("set syntax relay");
  s.run("pipeline SimplifyExpr");
  s.run("step");
  CHECK(isRelay(s.run("show")));
  CHECK(s.run("diff").find("-  %1 = multiply(%0, 1f") != std::string::npos);
  CHECK(s.run("diff --text").find("-  %1 = multiply(%0, 1f") != std::string::npos);
  fs::path dir = scratch("relay-save");
  s.run("save module " + (dir / "m.relay").string());
  CHECK(isRelay(readFile(dir / "m.relay")));
}

TEST_CASE("Syntax: batch --syntax wins over the output file's extension", "[syntax][batch]") {
  fs::path dir = scratch("batch-explicit");
  BatchOptions o;
  o.input = kRelay;
  o.output = (dir / "out.py").string();
  o.syntax = TextSyntax::Relay;
  REQUIRE(batch(o) == 0);
  CHECK(isRelay(readFile(dir / "out.py")));
}

TEST_CASE("Syntax: batch mode's print syntax is --syntax, else the output's extension, else the input's", "[syntax][batch]") {
  auto [output, explicitSyntax, loaded, expected] = GENERATE(table<std::string, int, TextSyntax, TextSyntax>({
      {"out.py", -1, TextSyntax::Relay, TextSyntax::TVMScript},
      {"out.relay", -1, TextSyntax::TVMScript, TextSyntax::Relay},
      {"-", -1, TextSyntax::TVMScript, TextSyntax::TVMScript},
      {"-", -1, TextSyntax::Relay, TextSyntax::Relay},
      {"out.txt", -1, TextSyntax::TVMScript, TextSyntax::TVMScript},
      {"out.py", 0, TextSyntax::TVMScript, TextSyntax::Relay},
      {"out.relay", 1, TextSyntax::Relay, TextSyntax::TVMScript},
  }));
  BatchOptions o;
  o.output = output;
  if (explicitSyntax >= 0) o.syntax = explicitSyntax ? TextSyntax::TVMScript : TextSyntax::Relay;
  TextOrigin origin;
  origin.syntax = loaded;
  CHECK(batchPrintSyntax(o, origin) == expected);
}

TEST_CASE("Syntax: syntax names, extensions and load descriptions", "[syntax]") {
  CHECK(textSyntaxName(TextSyntax::Relay) == "relay");
  CHECK(textSyntaxName(TextSyntax::TVMScript) == "tvmscript");
  CHECK(textSyntaxFromName("tvmscript") == TextSyntax::TVMScript);
  CHECK(textSyntaxFromName("py") == TextSyntax::TVMScript);
  CHECK(textSyntaxFromName("relay") == TextSyntax::Relay);
  CHECK_FALSE(textSyntaxFromName("python"));
  CHECK(textSyntaxExtension(TextSyntax::TVMScript) == ".py");
  CHECK(describeTextOrigin({TextSyntax::Relay, TvmScriptSpelling::Release}) == "Relay text");
  CHECK(describeTextOrigin({TextSyntax::TVMScript, TvmScriptSpelling::Main}) == "TVMScript, main spelling");
  CHECK(detectTextSyntax("#[version = \"0.0.5\"]\ndef @main() { 0 }", "m.relay") == TextSyntax::Relay);
  CHECK(detectTextSyntax("", "m.py") == TextSyntax::TVMScript);
}

// ---- Reproducers in TVMScript keep a Python comment header -----------------------

TEST_CASE("Syntax: a TVMScript reproducer's header is `# ` comments and reads back", "[syntax]") {
  Reproducer r;
  r.pipeline = "LegalizeOps";
  r.failedPass = "LegalizeOps";
  r.syntax = TextSyntax::TVMScript;
  r.moduleText = "# from tvm.script import relax as R\n@I.ir_module\nclass Module:\n    pass\n";
  std::string text = formatReproducer(r);
  CHECK(text.rfind("# passlab reproducer: replay with", 0) == 0);
  CHECK(text.find("\n# pipeline: LegalizeOps\n") != std::string::npos);
  CHECK(text.find("// ") == std::string::npos);
  Reproducer back = parseReproducer(text, "r.py");
  CHECK(back.syntax == TextSyntax::TVMScript);
  CHECK(back.pipeline == "LegalizeOps");
  CHECK(back.failedPass == "LegalizeOps");
  // Header lines are blanked, so the module keeps the file's line numbers.
  CHECK(back.moduleText.find("\n# from tvm.script import relax as R\n@I.ir_module\n") != std::string::npos);

  fs::path dir = scratch("repro-dir");
  std::string written = writeReproducer((dir / "r").string() + "/", r);
  CHECK(written.find("module.py") != std::string::npos);
  CHECK(fs::exists(dir / "r" / "module.py"));
  Reproducer fromDir = readReproducer((dir / "r").string());
  CHECK(fromDir.syntax == TextSyntax::TVMScript);
  CHECK(fromDir.moduleText == r.moduleText);

  CHECK_THROWS_WITH(parseReproducer("# not one\n", "x.py"), Catch::Contains("'# passlab reproducer'"));
}

// ---- Paste ------------------------------------------------------------------------

TEST_CASE("Syntax: module text pasted at the prompt is collected until two empty lines or a command", "[syntax][paste]") {
  auto isCommand = [](std::string_view w) { return w == "show" || w == "step"; };
  CHECK(ModulePaste::startsModuleText("#[version = \"0.0.5\"]"));
  CHECK(ModulePaste::startsModuleText("# from tvm.script import ir as I"));
  CHECK(ModulePaste::startsModuleText("@I.ir_module"));
  CHECK(ModulePaste::startsModuleText("  @R.function"));
  CHECK(ModulePaste::startsModuleText("def @main(%x: Tensor[(1), float32]) {"));
  CHECK_FALSE(ModulePaste::startsModuleText("# a comment"));
  CHECK_FALSE(ModulePaste::startsModuleText("show @main"));

  ModulePaste relay;
  using Feed = ModulePaste::Feed;
  CHECK(relay.feed("#[version = \"0.0.5\"]", isCommand) == Feed::Continue);
  CHECK(relay.feed("def @f(%x: Tensor[(1), float32]) {", isCommand) == Feed::Continue);
  CHECK(relay.feed("  %x", isCommand) == Feed::Continue);
  CHECK(relay.feed("}", isCommand) == Feed::Continue);
  CHECK(relay.feed("", isCommand) == Feed::Continue);  // one empty line separates definitions
  CHECK(relay.feed("def @main(%x: Tensor[(1), float32]) {", isCommand) == Feed::Continue);
  CHECK(relay.feed("show", isCommand) == Feed::Continue);  // inside braces: module text, not a command
  CHECK(relay.feed("}", isCommand) == Feed::Continue);
  CHECK(relay.feed("show @main", isCommand) == Feed::DoneNotTaken);
  std::string text = relay.take();
  CHECK_FALSE(relay.active());
  CHECK(text.find("def @f") != std::string::npos);
  CHECK(text.find("def @main") != std::string::npos);
  CHECK(text.find("show @main") == std::string::npos);

  ModulePaste script;
  CHECK(script.feed("@I.ir_module", isCommand) == Feed::Continue);
  CHECK(script.feed("class Module:", isCommand) == Feed::Continue);
  CHECK(script.feed("    @R.function", isCommand) == Feed::Continue);
  CHECK(script.feed("    def main(x: R.Tensor((1,), dtype=\"float32\")):", isCommand) == Feed::Continue);
  CHECK(script.feed("        return x", isCommand) == Feed::Continue);
  CHECK(script.feed("", isCommand) == Feed::Continue);
  CHECK(script.feed("", isCommand) == Feed::Done);
  CHECK(script.take().find("        return x\n") != std::string::npos);  // indentation kept
}

TEST_CASE("Syntax: a pasted Relay module loads through the load path", "[syntax][paste]") {
  Session s;
  CommandResult r = s.interpreter.loadPasted(readFile(kRelay));
  REQUIRE(r.ok());
  CHECK(r.output() == "loaded <paste> (Relay text): 1 function\n");
  CHECK(s.workbench.sourceName() == "<paste>");
  CommandResult bad = s.interpreter.loadPasted("def @main( {\n");
  CHECK_FALSE(bad.ok());
  CHECK(bad.error().find("<paste>:1:") != std::string::npos);
}

// ---- TVMScript (needs the TVMScript printer and parser) ---------------------------

TEST_CASE("Syntax: set syntax tvmscript prints TVMScript from show, diff and save module", "[syntax][tvmscript]") {
  Session s;
  s.run("load " + kRelay);
  s.run("pipeline SimplifyExpr");
  s.run("step");
  s.run("set syntax tvmscript");
  CHECK(isTvmScript(s.run("show")));
  CHECK(isTvmScript(s.run("show before")));
  CHECK(isTvmScript(s.run("show @main")));
  std::string diff = s.run("diff");
  CHECK(diff.find("R.multiply") != std::string::npos);
  CHECK(diff.find("%0") == std::string::npos);
  CHECK(s.run("diff --text").find("R.multiply") != std::string::npos);
  fs::path dir = scratch("tvmscript-save");
  s.run("save module " + (dir / "m.py").string());
  CHECK(isTvmScript(readFile(dir / "m.py")));
  // What was saved loads back, as TVMScript.
  s.run("load " + (dir / "m.py").string());
  CHECK(s.workbench.textOrigin().syntax == TextSyntax::TVMScript);

  s.run("set syntax relay");
  CHECK(isRelay(s.run("show")));
}

TEST_CASE("Syntax: a TVMScript module loads as TVMScript and prints back in it", "[syntax][tvmscript]") {
  Session s;
  CHECK(s.run("load " + kScript) == "loaded " + kScript + " (TVMScript, release spelling): 1 function\n");
  CHECK(s.workbench.printSyntax() == TextSyntax::TVMScript);
  CHECK(isTvmScript(s.run("show")));
  s.run("set syntax relay");
  CHECK(s.run("show").find("def @main(") != std::string::npos);
}

TEST_CASE("Syntax: batch -o OUT.py writes TVMScript, and dumps follow the print syntax", "[syntax][batch][tvmscript]") {
  fs::path dir = scratch("batch-py");
  BatchOptions o;
  o.input = kRelay;
  o.pipeline = "SimplifyExpr";
  o.hasPipeline = true;
  o.printChanged = true;
  o.printChangedDiff = true;
  o.output = (dir / "out.py").string();
  std::string dumps;
  REQUIRE(batch(o, &dumps) == 0);
  std::string written = readFile(dir / "out.py");
  CHECK(isTvmScript(written));
  CHECK(dumps.find("R.multiply") != std::string::npos);
  CHECK(dumps.find("# -----// IR Dump After SimplifyExpr (diff) //----- //\n") != std::string::npos);
  CHECK(dumps.find("// -----//") == std::string::npos);
  // The written file is TVMScript passlab reads back.
  LoadedText back = loadModuleText(written, o.output);
  CHECK(back.origin.syntax == TextSyntax::TVMScript);
  CHECK(back.module->functions.size() == 1);
}

TEST_CASE("Syntax: a pasted TVMScript module loads as TVMScript", "[syntax][paste][tvmscript]") {
  Session s;
  CommandResult r = s.interpreter.loadPasted(readFile(kScript));
  INFO(r.error());
  REQUIRE(r.ok());
  CHECK(r.output() == "loaded <paste> (TVMScript, release spelling): 1 function\n");
}

TEST_CASE("Syntax: edit --from reads TVMScript, and a reproducer made in TVMScript replays", "[syntax][tvmscript]") {
  Session s;
  s.run("load " + kScript);
  s.run("pipeline SimplifyExpr");
  fs::path dir = scratch("tvmscript-edit");
  s.run("save module " + (dir / "m.py").string());
  std::string text = readFile(dir / "m.py");
  CHECK(isTvmScript(text));
  s.run("edit --from " + (dir / "m.py").string());
  CHECK(s.workbench.editRecords().size() == 1);
  CHECK(isTvmScript(s.workbench.editRecords().back().moduleText));
}

TEST_CASE("Syntax: module text piped to the REPL loads, and the command after it runs", "[syntax][paste][tvmscript]") {
  fs::path passlab = fs::path(PASSLAB_BINARY_DIR) / "passlab";
  REQUIRE(fs::exists(passlab));
  fs::path dir = scratch("paste-session");
  {
    // A TVMScript module ended by two empty lines, then Relay text ended by a command.
    std::ofstream in(dir / "input.txt", std::ios::binary);
    in << readFile(kScript) << "\n\nshow @main\n" << readFile(kRelay) << "info 0 --no-time\n";
  }
  std::string command = "cd '" + dir.string() + "' && '" + passlab.string() + "' < input.txt > out.txt 2>&1";
  REQUIRE(std::system(command.c_str()) == 0);
  std::string out = readFile(dir / "out.txt");
  INFO(out);
  size_t first = out.find("loaded <paste> (TVMScript, release spelling): 1 function\n");
  size_t show = out.find("(passlab) show @main\n");
  size_t second = out.find("loaded <paste> (Relay text): 1 function\n");
  size_t info = out.find("as Relay text; prints as relay");
  CHECK(first != std::string::npos);
  CHECK(show > first);
  CHECK(out.find("@R.function", show) < second);
  CHECK(second != std::string::npos);
  CHECK(info > second);
  CHECK(info != std::string::npos);
}

TEST_CASE("Syntax: the HTML report and a reproducer print in the print syntax", "[syntax][tvmscript]") {
  Session s;
  s.run("load " + kRelay);
  s.run("pipeline SimplifyExpr");
  s.run("run");
  fs::path dir = scratch("report");
  s.run("set syntax tvmscript");
  s.run("save report " + (dir / "script.html").string());
  s.run("set syntax relay");
  s.run("save report " + (dir / "relay.html").string());
  std::string script = readFile(dir / "script.html"), relay = readFile(dir / "relay.html");
  CHECK(script.find("R.multiply") != std::string::npos);
  CHECK(script.find("<td>syntax</td><td>Relay text; IR shown as TVMScript</td>") != std::string::npos);
  CHECK(relay.find("R.multiply") == std::string::npos);
  CHECK(relay.find("<td>syntax</td><td>Relay text; IR shown as Relay text</td>") != std::string::npos);
}

TEST_CASE("Syntax: a reproducer written while printing TVMScript replays", "[syntax][tvmscript]") {
  Session s;
  s.run("load --no-check " + kSource + "/examples/ill_typed.relay");
  s.run("pipeline InferType");
  s.run("set syntax tvmscript");
  s.interpreter.runLine("run");
  fs::path dir = scratch("repro-tvmscript");
  s.run("save repro " + (dir / "repro.py").string());
  std::string text = readFile(dir / "repro.py");
  CHECK(text.rfind("# passlab reproducer", 0) == 0);
  CHECK(text.find("@I.ir_module") != std::string::npos);
  Session replay;
  CommandResult r = replay.interpreter.runLine("reproduce " + (dir / "repro.py").string());
  CHECK(r.output().find("reproduced: InferType failed as recorded") != std::string::npos);
  CHECK(replay.workbench.textOrigin().syntax == TextSyntax::TVMScript);
}

TEST_CASE("Syntax: edit @f --from a lone TVMScript function that calls other globals", "[syntax][tvmscript]") {
  Session s;
  s.run("load " + kSource + "/examples/seed002/model.py");
  s.run("pipeline LambdaLifting,InferType");
  s.run("step");
  const std::string shown = s.run("show @main");
  REQUIRE(shown.find("cls.main_scale(x, lv1)") != std::string::npos);
  fs::path dir = scratch("tvmscript-edit-function");
  std::string edited = shown;
  edited.replace(edited.find("R.nn.relu(lv2)"), 14, "R.nn.relu(lv1)");
  std::ofstream(dir / "main.py", std::ios::binary) << edited;
  std::string out = s.run("edit @main --from " + (dir / "main.py").string());
  CHECK(out.find("@main changed") != std::string::npos);
  CHECK(s.run("show @main").find("R.nn.relu(lv1)") != std::string::npos);
  // An error in the edit is located in the edited file, at its own line and column.
  std::string broken = shown;
  broken.replace(broken.find("cls.main_scale(x, lv1)"), 22, "cls.no_such_fn(x, lv1)");
  std::ofstream(dir / "broken.py", std::ios::binary) << broken;
  CommandResult r = s.interpreter.runLine("edit @main --from " + (dir / "broken.py").string());
  CHECK_FALSE(r.ok());
  size_t line = 1 + static_cast<size_t>(std::count(broken.begin(), broken.begin() + static_cast<long>(broken.find("cls.no_such_fn")), '\n'));
  const size_t at = broken.find("no_such_fn");
  const size_t column = at - broken.rfind('\n', at);  // 1-based
  INFO(r.error());
  CHECK(r.error().find("broken.py:" + std::to_string(line) + ":" + std::to_string(column) + ": error:") != std::string::npos);
  CHECK(r.error().find("no_such_fn") != std::string::npos);
}
