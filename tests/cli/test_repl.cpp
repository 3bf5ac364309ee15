// REPL: argument splitting, syntax data and completion, errors that keep the
// session running, scripts, generated docs, and the transcript tests that run
// `passlab --script` on tests/repl/*.cmds and compare with *.expected exactly.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "core/workbench/workbench.h"
#include "passes/registry.h"
#include "repl/batch.h"
#include "repl/command.h"
#include "repl/interpreter.h"
#include "tests/test_util.h"

using namespace passlab;
using passlab::testing::readFile;
using passlab::testing::sharedBuiltinRegistry;
namespace fs = std::filesystem;

namespace {

const std::string kSource = PASSLAB_SOURCE_DIR;

/// Runs a shell command; returns its exit status and combined output.
std::pair<int, std::string> runShell(const std::string& command) {
  std::string output;
  std::FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return {-1, ""};
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, pipe)) > 0;) output.append(buf, n);
  int status = ::pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

/// A fresh working directory under the build tree with `examples` and the test
/// data linked in, so transcripts can say `load examples/cnn_block.relay` or
/// `load tests/data/onnx/...` and write files freely.
fs::path scratchDir(const std::string& name) {
  fs::path dir = fs::path(PASSLAB_BINARY_DIR) / "repl-transcripts" / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::create_directory_symlink(fs::path(kSource) / "examples", dir / "examples");
  fs::create_directories(dir / "tests");
  fs::create_directory_symlink(fs::path(kSource) / "tests" / "data", dir / "tests" / "data");
  return dir;
}

struct Fixture {
  Workbench workbench{sharedBuiltinRegistry()};
  CommandInterpreter interpreter{workbench};
};

}  // namespace

TEST_CASE("arguments split like a shell and keep the raw rest of the line", "[repl]") {
  CommandArgs args(R"(  target "hexagon -mcpu=hexagonv68" --flag @main  tail text )");
  REQUIRE(args.size() == 6);
  CHECK(args[1] == "hexagon -mcpu=hexagonv68");
  CHECK(args.rest(3) == "@main  tail text");
  CHECK(args.takeFlag("--flag"));
  CHECK_FALSE(args.takeFlag("--flag"));
  CHECK(args.takeFunction() == "main");
  CHECK(args.words() == std::vector<std::string>{"target", "hexagon -mcpu=hexagonv68", "tail", "text"});
  CHECK(args.rest(2) == "tail text");
  CHECK(CommandArgs("").empty());
}

TEST_CASE("syntax forms parse into completion slots", "[repl]") {
  std::vector<SyntaxItem> items = parseSyntax("event <event> [before|after] [@<function>] <file>...");
  REQUIRE(items.size() == 5);
  CHECK(items[0].kind == CompletionKind::Literal);
  CHECK(items[1].kind == CompletionKind::EventId);
  CHECK(items[2].optional);
  CHECK(items[2].words == std::vector<std::string>{"before", "after"});
  CHECK(items[3].kind == CompletionKind::FunctionName);
  CHECK(items[3].prefix == "@");
  CHECK(items[4].repeat);
  CHECK(items[4].kind == CompletionKind::FilePath);
  CHECK(placeholderKind("N") == CompletionKind::None);
}

TEST_CASE("every command has a unique name, aliases, syntax starting with its name and help", "[repl]") {
  Fixture f;
  std::set<std::string> names;
  for (const Command& c : f.interpreter.commands()) {
    CHECK(names.insert(c.name).second);
    for (const std::string& a : c.aliases) CHECK(names.insert(a).second);
    REQUIRE_FALSE(c.syntax.empty());
    for (const std::string& form : c.syntax) CHECK(form.rfind(c.name, 0) == 0);
    CHECK_FALSE(c.summary.empty());
    CHECK(c.run);
  }
  for (const char* required : {"load", "show", "pipeline", "step", "stepin", "next", "finish", "back", "goto", "run", "break",
                               "delete", "trace", "diff", "attrs", "why", "config", "set", "save", "help", "quit", "source"})
    CHECK(f.interpreter.find(required));
  CHECK(f.interpreter.find("s") == f.interpreter.find("stepin"));
  CHECK(f.interpreter.find("n") == f.interpreter.find("next"));
}

TEST_CASE("completion offers commands, keywords, passes, functions, keys, events and files", "[repl]") {
  Fixture f;
  auto complete = [&](const std::string& line) { return f.interpreter.complete(line, line.size()).candidates; };
  CHECK(complete("ste") == std::vector<std::string>{"step", "stepin", "stepout"});
  CHECK(complete("break ") == std::vector<std::string>{"attr", "diag", "func", "numeric", "pass", "remark"});
  CHECK(complete("break pass SimplifyE") == std::vector<std::string>{"SimplifyExpr"});
  CHECK(complete("set opt") == std::vector<std::string>{"opt_level"});
  CHECK(complete("pipeline InferType,SimplifyE") == std::vector<std::string>{"InferType,SimplifyExpr"});
  CHECK(complete("pipeline Dead") == std::vector<std::string>{"DeadCodeElimination"});
  CHECK(complete("show ") == std::vector<std::string>{"--remarks", "after", "asm", "before", "c", "const", "event", "llvm", "llvm-opt"});
  Completion offset = f.interpreter.complete("break pass SimplifyE", 20);
  CHECK(offset.start == 11);

  f.interpreter.runLine("load " + kSource + "/examples/cnn_block.relay");
  CHECK(complete("show @") == std::vector<std::string>{"@ext_block", "@main", "@scale"});
  CHECK(complete("show before @m") == std::vector<std::string>{"@main"});
  CHECK(complete("break attr Com") == std::vector<std::string>{"Compiler", "Composite"});
  CHECK(complete("goto ") == std::vector<std::string>{"0"});
  CHECK(complete("help tr") == std::vector<std::string>{"trace"});
  std::vector<std::string> files = complete("load " + kSource + "/examples/cnn_");
  CHECK(files == std::vector<std::string>{kSource + "/examples/cnn_block.relay"});
  CHECK(complete("frobnicate ").empty());
}

TEST_CASE("errors are results, and the interpreter keeps going", "[repl]") {
  Fixture f;
  CommandResult unknown = f.interpreter.runLine("stpe");
  CHECK(unknown.status == CommandStatus::Error);
  CHECK(unknown.error() == "error: unknown command 'stpe'; did you mean 'step'? (`help` lists commands)\n");
  CHECK(unknown.output().empty());
  CommandResult noModule = f.interpreter.runLine("step");
  CHECK(noModule.error() == "error: no module loaded\n");
  CommandResult badParse = f.interpreter.runLine("pipeline InferType,Bogus");
  CHECK(badParse.status == CommandStatus::Error);
  CHECK(badParse.error().find("Bogus") != std::string::npos);
  CommandResult usage = f.interpreter.runLine("goto");
  CHECK(usage.error() == "error: usage: goto <event>\n");
  CHECK(f.interpreter.runLine("help").ok());
  CHECK(f.interpreter.runLine("   # a comment").chunks.empty());
  CHECK(f.interpreter.runLine("quit").status == CommandStatus::Quit);
}

TEST_CASE("scripts stop at the first error unless --keep-going", "[repl]") {
  Fixture f;
  std::string script = "help quit\nbogus\nhelp load\n";
  std::vector<std::string> lines;
  CommandResult stopped = f.interpreter.runScript(script, "s.cmds", false, [&](const CommandResult& r) { lines.push_back(r.output()); });
  CHECK(stopped.status == CommandStatus::Error);
  CHECK(lines.size() == 2);
  CHECK(stopped.error().find("s.cmds:2: stopping at the first error") != std::string::npos);
  CommandResult all = f.interpreter.runScript(script, "s.cmds", true);
  CHECK(all.status == CommandStatus::Error);
  CHECK(all.output().find("(passlab) help load") != std::string::npos);
  CommandResult quits = f.interpreter.runScript("help\nquit\nbogus\n", "q.cmds", false);
  CHECK(quits.status == CommandStatus::Quit);
}

TEST_CASE("docs/commands.md is generated from the command objects and up to date", "[repl][docs]") {
  Fixture f;
  std::string generated = f.interpreter.commandsMarkdown();
  for (const Command& c : f.interpreter.commands()) CHECK(generated.find("\n## " + c.name + "\n") != std::string::npos);
  INFO("regenerate with: passlab --help-commands-markdown > docs/commands.md");
  CHECK(readFile(fs::path(kSource) / "docs" / "commands.md") == generated);
}

TEST_CASE("REPL transcripts match exactly", "[repl][transcript]") {
  fs::path passlab = fs::path(PASSLAB_BINARY_DIR) / "passlab";
  REQUIRE(fs::exists(passlab));
  std::vector<fs::path> scripts;
  for (const auto& entry : fs::directory_iterator(fs::path(kSource) / "tests" / "repl"))
    if (entry.path().extension() == ".cmds") scripts.push_back(entry.path());
  std::sort(scripts.begin(), scripts.end());
  REQUIRE(scripts.size() >= 5);
  for (const fs::path& script : scripts) {
    SECTION(script.filename().string()) {
      std::string text = readFile(script);
      // The first line may carry command-line arguments: "# passlab-args: --keep-going".
      std::string args;
      const std::string marker = "# passlab-args:";
      if (text.rfind(marker, 0) == 0) args = text.substr(marker.size(), text.find('\n') - marker.size());
      fs::path dir = scratchDir(script.stem().string());
      fs::copy_file(script, dir / script.filename());
      auto [status, output] = runShell("cd '" + dir.string() + "' && '" + passlab.string() + "' --script " +
                                       script.filename().string() + " " + args + " 2>&1");
      fs::path expectedPath = script;
      expectedPath.replace_extension(".expected");
      std::string expected = readFile(expectedPath);
      INFO("transcript " << script.filename().string() << " (actual output in " << (dir / "actual.txt").string() << ")");
      std::ofstream(dir / "actual.txt", std::ios::binary) << output << "[exit " << status << "]\n";
      CHECK(output + "[exit " + std::to_string(status) + "]\n" == expected);
    }
  }
}

TEST_CASE("passlab --reproduce replays a reproducer written by a transcript", "[repl][transcript]") {
  fs::path passlab = fs::path(PASSLAB_BINARY_DIR) / "passlab";
  REQUIRE(fs::exists(passlab));
  fs::path dir = scratchDir("reproduce-cli");
  auto [saveStatus, saveOutput] = runShell("cd '" + dir.string() + "' && printf '%s\\n' 'load --no-check examples/ill_typed.relay' " +
                                           "'pipeline DeadCodeElimination,InferType' run 'save repro repro.relay' | '" +
                                           passlab.string() + "' 2>&1");
  INFO(saveOutput);
  REQUIRE(fs::exists(dir / "repro.relay"));
  auto [status, output] = runShell("cd '" + dir.string() + "' && '" + passlab.string() + "' --reproduce repro.relay 2>&1");
  INFO(output);
  CHECK(status == 0);  // 0: it reproduced (docs: repl/batch.h runReproducer)
  CHECK(output.find("reproduced: InferType failed as recorded") != std::string::npos);
  // The reproducer is also a plain Relay file for batch mode with the recorded settings.
  auto [batchStatus, batchOutput] = runShell("cd '" + dir.string() + "' && '" + passlab.string() +
                                             "' repro.relay --no-check --pass-pipeline=InferType 2>&1");
  CHECK(batchStatus == 1);
  CHECK(batchOutput.find("error: pass InferType failed") != std::string::npos);
}

TEST_CASE("batch mode prints changed IR, runs the pipeline and writes the trace", "[repl][batch]") {
  fs::path dir = scratchDir("batch");
  BatchOptions o;
  o.input = kSource + "/examples/cnn_block.relay";
  o.pipeline = "InferType,SimplifyExpr";
  o.hasPipeline = true;
  o.printChanged = true;
  o.output = (dir / "out.relay").string();
  o.traceJson = (dir / "trace.json").string();
  std::FILE* err = std::tmpfile();
  std::FILE* out = std::tmpfile();
  REQUIRE(runBatch(o, *sharedBuiltinRegistry(), out, err) == 0);
  std::rewind(err);
  std::string dumps;
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, err)) > 0;) dumps.append(buf, n);
  std::fclose(err);
  std::fclose(out);
  CHECK(dumps.find("IR Dump After SimplifyExpr") != std::string::npos);
  CHECK(readFile(dir / "out.relay").find("multiply(%1, 1f") == std::string::npos);
  CHECK(readFile(dir / "trace.json").find("SimplifyExpr") != std::string::npos);
}
