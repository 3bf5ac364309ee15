// passlab: command-line entry point. Kept thin: argument parsing and exit
// codes; the REPL, scripts, batch mode and reproducers live in repl/ and the
// work in the core library.
//
//   passlab                         the REPL
//   passlab FILE                    the REPL with FILE loaded
//   passlab [FILE] --script S [--keep-going]   run REPL commands from S
//   passlab FILE -o OUT             parse, type-check and print (OUT '-' = stdout)
//   passlab FILE --pass-pipeline=SPEC [batch options]
//   passlab --reproduce FILE        replay a reproducer written by `save repro`
//   passlab --help-commands-markdown   docs/commands.md from the command objects
//   passlab --help-passes-markdown     docs/passes.md from the pass registry
//   passlab --help-remarks-markdown    docs/remarks.md from the remark rules
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/workbench/workbench.h"
#include "passes/registry.h"
#include "repl/batch.h"
#include "repl/interpreter.h"
#include "repl/session.h"
#include "repl/session_options.h"
#include "core/support/strings.h"

namespace {

void printUsage(std::FILE* out) {
  std::fputs(
      "usage: passlab [FILE]                      interactive workbench (REPL), FILE loaded\n"
      "       passlab [FILE] --script S [--keep-going]\n"
      "                                           run REPL commands from S (exit 1 on failure)\n"
      "       passlab FILE -o OUT                 parse, type-check and print FILE to OUT ('-': stdout)\n"
      "       passlab FILE --pass-pipeline=SPEC [-o OUT] [options]\n"
      "       passlab --reproduce FILE            replay a reproducer written by `save repro`\n"
      "                                           (exit 0 when it reproduces, 1 when not)\n"
      "       passlab --help-commands-markdown    print docs/commands.md\n"
      "       passlab --help-passes-markdown      print docs/passes.md\n"
      "       passlab --help-remarks-markdown     print docs/remarks.md\n"
      "options shared with passlab-gui (each takes --name=VALUE or --name VALUE):\n",
      out);
  std::fputs(passlab::sessionOptionsUsage().c_str(), out);
  std::fputs(
      "batch options:\n"
      "  --print-before-all --print-after-all --print-changed[=diff|=summary]\n"
      "  --filter-print-funcs=NAME,...  --time-passes  --verify-each  --trace-json=FILE\n"
      "  --report=FILE.html             the run as a self-contained HTML report\n"
      "  --remarks[=[KIND:]PASS,...]    print pass remarks (KIND missed, applied or analysis) as\n"
      "                                 FILE:LINE:COL: remark: ... (docs/remarks.md)\n"
      "  --remarks-json=FILE            write the remarks (filtered like --remarks) as JSON\n"
      "  --expect=FILE                  the final module must be structurally equal to FILE's (Relay text or\n"
      "                                 TVMScript); exit 1 with the aligned diff otherwise (-o still writes it)\n"
      "  --graph-dir=DIR                one SVG graph per function each pass changed (NNN-Pass-function.svg)\n"
      "  --reduce='WHEN'                shrink FILE while WHEN holds after the pipeline (bisect's predicates:\n"
      "                                 fails [PASS] [RULE], diag RULE, numeric > T, attr [@F] KEY, wellformed);\n"
      "                                 the reduced module goes to -o, the summary to stderr\n"
      "  --reduce-repro=FILE            with --reduce: also write a reproducer of the reduced module\n"
      "With --pass-pipeline (or a batch option) and no --script, passlab runs in batch mode: -o OUT gets the\n"
      "final module, in --syntax or OUT's extension (.py TVMScript, .relay Relay). In the REPL and with\n"
      "--script the shared options apply to the session (the pipeline is set, not run).\n"
      "FILE is Relay text or TVMScript (by content, or a .py name), or an ONNX model when it ends in .onnx\n"
      "(--input-shape binds its dynamic dimensions).\n",
      out);
}

int usageError(const std::string& message) {
  std::fprintf(stderr, "passlab: error: %s\n", message.c_str());
  printUsage(stderr);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace passlab;
  BatchOptions batch;
  bool batchMode = false;
  std::string script, reproduce;
  bool keepGoing = false, markdown = false, passesDoc = false, remarksDoc = false;
  const std::vector<std::string> args(argv + 1, argv + argc);
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    auto value = [&](const std::string& prefix) { return arg.substr(prefix.size()); };
    auto starts = [&](const std::string& prefix) { return arg.rfind(prefix, 0) == 0; };
    std::string error;
    switch (parseSessionOption(args, i, batch, &error)) {
      case OptionParse::Taken: continue;
      case OptionParse::Error: return usageError(error);
      case OptionParse::NotMine: break;
    }
    if (arg == "-h" || arg == "--help") {
      printUsage(stdout);
      return 0;
    } else if (arg == "--help-commands-markdown") {
      markdown = true;
    } else if (arg == "--help-passes-markdown") {
      passesDoc = true;
    } else if (arg == "--help-remarks-markdown") {
      remarksDoc = true;
    } else if (arg == "--remarks" || starts("--remarks=")) {
      batch.remarks = true, batchMode = true;
      batch.remarksFilter = arg == "--remarks" ? "" : value("--remarks=");
    } else if (starts("--remarks-json=")) {
      batch.remarksJson = value("--remarks-json="), batchMode = true;
      if (batch.remarksJson.empty()) return usageError("--remarks-json needs a file");
    } else if (arg == "--script" || arg == "--reproduce" || arg == "-o") {
      if (i + 1 >= args.size()) return usageError(arg + " needs a file name");
      (arg == "--script" ? script : arg == "--reproduce" ? reproduce : batch.output) = args[++i];
      if (arg == "-o") batchMode = batch.outputGiven = true;
    } else if (arg == "--keep-going") {
      keepGoing = true;
    } else if (arg == "--print-before-all") {
      batch.printBeforeAll = batchMode = true;
    } else if (arg == "--print-after-all") {
      batch.printAfterAll = batchMode = true;
    } else if (arg == "--print-changed" || arg == "--print-changed=diff" || arg == "--print-changed=summary") {
      batch.printChanged = batchMode = true;
      batch.printChangedDiff = arg == "--print-changed=diff";
      batch.printChangedSummary = arg == "--print-changed=summary";
    } else if (starts("--filter-print-funcs=")) {
      batch.filterPrintFuncs = splitList(value("--filter-print-funcs="));
    } else if (arg == "--time-passes") {
      batch.timePasses = batchMode = true;
    } else if (arg == "--verify-each") {
      batch.verifyEach = batchMode = true;
    } else if (starts("--trace-json=")) {
      batch.traceJson = value("--trace-json="), batchMode = true;
    } else if (starts("--expect=")) {
      batch.expect = value("--expect="), batchMode = true;
      if (batch.expect.empty()) return usageError("--expect needs a file");
    } else if (starts("--report=")) {
      batch.report = value("--report="), batchMode = true;
    } else if (starts("--graph-dir=")) {
      batch.graphDir = value("--graph-dir="), batchMode = true;
      if (batch.graphDir.empty()) return usageError("--graph-dir needs a directory");
    } else if (starts("--reduce=")) {
      batch.reduce = value("--reduce="), batchMode = true;
    } else if (starts("--reduce-repro=")) {
      batch.reduceRepro = value("--reduce-repro=");
    } else if (!arg.empty() && arg[0] == '-' && arg != "-") {
      return usageError("unknown option '" + arg + "'");
    } else if (batch.input.empty()) {
      batch.input = arg;
    } else {
      return usageError("more than one input file ('" + batch.input + "' and '" + arg + "')");
    }
  }
  if (batch.hasPipeline) batchMode = true;

  auto registry = std::make_shared<PassRegistry>();
  registerBuiltinPasses(*registry);

  if (remarksDoc) {
    std::fputs(remarksMarkdown().c_str(), stdout);
    return 0;
  }
  if (passesDoc) {
    std::fputs(passesMarkdown(*registry).c_str(), stdout);
    return 0;
  }
  if (markdown) {
    Workbench workbench(registry);
    CommandInterpreter interpreter(workbench);
    std::fputs(interpreter.commandsMarkdown().c_str(), stdout);
    return 0;
  }
  if (!reproduce.empty()) return runReproducer(reproduce, registry, stdout, stderr);
  if (batchMode && script.empty()) {
    if (batch.input.empty()) return usageError("batch mode needs an input FILE");
    if (!batch.reduce.empty()) return runBatchReduce(batch, registry, stdout, stderr);
    return runBatch(batch, *registry, stdout, stderr);
  }

  Workbench workbench(registry);
  bool interactive = script.empty() && isatty(STDIN_FILENO);
  CommandInterpreter interpreter(workbench, Style::forTerminal(STDOUT_FILENO));
  applyPrintOptions(workbench, batch);
  if (!batch.input.empty()) {
    std::string load = std::string("load ") + (batch.typeCheck ? "" : "--no-check ");
    for (const std::string& binding : batch.inputShapes) load += "--input-shape \"" + binding + "\" ";
    load += "\"" + batch.input + "\"";
    CommandResult loaded = interpreter.runLine(load);
    printResult(loaded, stdout, stderr);
    if (!loaded.ok() && !script.empty()) return 1;
  }
  // The pipeline and run settings of the command line, set (not run) for the session.
  try {
    applyRunOptions(workbench, batch);
  } catch (const DiagnosticError& e) {
    std::fprintf(stderr, "%s\n", e.renderAll().c_str());
    if (!script.empty()) return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "passlab: error: %s\n", e.what());
    if (!script.empty()) return 1;
  }
  if (!script.empty()) {
    CommandResult result = interpreter.runScriptFile(script, keepGoing, [](const CommandResult& line) { printResult(line, stdout, stderr); });
    return result.ok() ? 0 : 1;
  }
  return runSession(interpreter, interactive, stdout, stderr);
}
