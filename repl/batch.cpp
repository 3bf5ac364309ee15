#include "repl/batch.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <sstream>

#include "core/ir/diagnostic_fold.h"
#include "core/analysis/type_infer.h"
#include "core/pass/instruments.h"
#include "core/text/load_text.h"
#include "core/text/parser.h"
#include "core/text/printer.h"
#include "core/trace/expect.h"
#include "core/trace/change_summary.h"
#include "core/trace/provenance_check.h"
#include "core/trace/trace.h"
#include "core/trace/trace_json.h"
#include "core/workbench/reduce.h"
#include "core/workbench/remarks.h"
#include "core/workbench/reproducer.h"
#include "repl/batch_report.h"
#include "core/workbench/value_text.h"
#include "core/workbench/workbench.h"
#include "graph/graph_export.h"
#include "repl/command.h"
#include "repl/interpreter.h"
#include "repl/model_files.h"
#include "repl/format_remarks.h"

namespace passlab {
namespace {

/// How the final module is written: a file round-trips, so references carry
/// their data: Relay text's #[metadata] section, TVMScript's metadata
/// statement (Workbench::fileOptions is the same rule).
PrintOptions fileOptions(const PrintOptions& printing) {
  PrintOptions options = printing;
  options.numbering = nullptr;
  options.metadataSection = true;
  return options;
}

void put(std::FILE* f, const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), f);
  std::fflush(f);
}

/// Prints diagnostics reported while passes run (the verifier's, warnings).
class DiagnosticPrinter : public PassInstrument {
 public:
  explicit DiagnosticPrinter(std::FILE* err) : err_(err) {}
  std::string name() const override { return "diagnostics"; }
  void onDiagnostic(const Diagnostic& d, PassContext&) override {
    if (folder_.accept(d)) put(err_, d.render() + "\n");
    if (d.severity == Severity::Error) ++errors_;
  }
  int errors() const { return errors_; }
  /// After the run: the count and places of the diagnostics folded away.
  void printFolded() const {
    if (std::string notes = folder_.summary(); !notes.empty()) put(err_, notes + "\n");
  }

 private:
  std::FILE* err_;
  int errors_ = 0;
  DiagnosticFolder folder_;
};

bool writeOutput(const std::string& path, const std::string& text, std::FILE* out, std::FILE* err) {
  if (path == "-") {
    put(out, text);
    return true;
  }
  std::ofstream file(path, std::ios::binary);
  file << text;
  if (!file) {
    put(err, "passlab: error: cannot write '" + path + "'\n");
    return false;
  }
  return true;
}

/// --graph-dir: the graph of every graph-level function each top-level pass
/// changed, after the pass, coloured by what it changed.
bool writeGraphs(const Workbench& wb, const std::string& dir, std::FILE* err) {
  const Trace& trace = wb.trace();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    put(err, "passlab: error: cannot create directory '" + dir + "': " + ec.message() + "\n");
    return false;
  }
  bool ok = true;
  for (int id : trace.topLevel()) {
    const TraceEvent& ev = trace.event(id);
    if (ev.status != EventStatus::Changed) continue;
    for (const std::string& fn : graph::changedGraphFunctions(ev.before, ev.after)) {
      char prefix[16];
      std::snprintf(prefix, sizeof prefix, "%03d-", id);
      std::string path = (std::filesystem::path(dir) / (prefix + graph::fileSafe(ev.pass) + "-" + graph::fileSafe(fn) + ".svg")).string();
      try {
        ok &= writeOutput(path, graph::graphText(graph::eventGraphs(wb, id, fn), Side::After), nullptr, err);
      } catch (const std::exception& e) {
        put(err, "passlab: error: graph of @" + fn + " after #" + std::to_string(id) + " " + ev.pass + ": " + e.what() + "\n");
        ok = false;
      }
    }
  }
  return ok;
}

/// The flags' run settings; a config value is read for its key's registered
/// kind (an unknown key is left to setConfig, whose error names it).
RunSettings batchRunSettings(const BatchOptions& o) {
  RunSettings settings = sessionRunSettings(o);
  settings.verifyEach = o.verifyEach;
  return settings;
}

/// The failed event of the last pipeline pass that ran: the innermost one, as
/// the pass that raised the error is the one to name.
const TraceEvent* innermostFailure(const Trace& trace) {
  const TraceEvent* failed = nullptr;
  for (const TraceEvent& ev : trace.events())
    if (ev.status == EventStatus::Failed && (!failed || ev.depth >= failed->depth)) failed = &ev;
  return failed;
}

/// --expect=FILE: compares `mod` with FILE's module; the verdict (and the
/// aligned diff) goes to `err`, the module to -o only when -o was given.
int checkExpected(const BatchOptions& o, const IRModule& mod, const PrintOptions& printing, const std::string& what,
                  std::FILE* out, std::FILE* err) {
  ExpectOutcome outcome;
  TextOrigin origin;
  try {
    IRModule expected = loadExpectedModule(o.expect, &origin);
    PrintOptions options;
    options.syntax = origin.syntax;
    options.spelling = origin.spelling;
    outcome = expectModule(mod, expected, o.input, o.expect, options);
  } catch (const DiagnosticError& e) {
    put(err, e.renderAll() + "\n");
    return 1;
  }
  if (o.outputGiven && !writeOutput(o.output, printModule(mod, fileOptions(printing)), out, err)) return 1;
  if (outcome.equal) {
    put(err, "passlab: " + what + " matches " + o.expect + "\n");
    return 0;
  }
  put(err, outcome.diff);
  put(err, "passlab: error: " + what + " does not match " + o.expect + "\n");
  return 1;
}

}  // namespace

TextSyntax batchPrintSyntax(const BatchOptions& o, const TextOrigin& loaded) {
  if (o.syntax) return *o.syntax;
  for (TextSyntax syntax : {TextSyntax::Relay, TextSyntax::TVMScript}) {
    std::string_view ext = textSyntaxExtension(syntax);
    if (o.output.size() > ext.size() && o.output.compare(o.output.size() - ext.size(), ext.size(), ext) == 0) return syntax;
  }
  return loaded.syntax;
}

/// --remarks and --remarks-json: the remarks of the run, filtered, nodes named as `printing` names them.
static bool writeBatchRemarks(const BatchOptions& o, const Trace& trace, const PrintOptions& printing, std::FILE* out, std::FILE* err) {
  std::vector<std::string> passes;
  RemarkQuery query;
  try {
    query = parseRemarkFilter(o.remarksFilter, passes);
  } catch (const WorkbenchError& e) {
    put(err, std::string("passlab: error: ") + e.what() + "\n");
    return false;
  }
  std::vector<int> order;
  for (const TraceEvent& e : trace.events()) order.push_back(e.id);
  std::vector<RemarkHit> hits;
  for (RemarkHit& h : findRemarks(trace, order, printing, query))
    if (passes.empty() || std::find(passes.begin(), passes.end(), h.remark->pass) != passes.end()) hits.push_back(std::move(h));
  const std::string source = o.input == "-" ? "<stdin>" : o.input;
  if (o.remarks)
    for (const RemarkHit& h : hits) put(err, formatRemarkLine(source, h));
  return o.remarksJson.empty() || writeOutput(o.remarksJson, remarksJson(hits), out, err);
}

int runBatch(const BatchOptions& o, const PassRegistry& registry, std::FILE* out, std::FILE* err) {
  // Batch mode is a Workbench run plus exporters: the same driver, instruments
  // and checks as the REPL and the GUI, and the report reads the run itself.
  // The caller owns the registry and outlives this workbench.
  Workbench wb(std::shared_ptr<const PassRegistry>(&registry, [](const PassRegistry*) {}));
  std::vector<Diagnostic> notes;
  try {
    LoadModelOptions modelOptions;
    for (const std::string& binding : o.inputShapes) addInputShapeBinding(binding, modelOptions.onnx);
    LoadedText loaded;
    if (o.input == "-")
      loaded = loadModuleText(std::string(std::istreambuf_iterator<char>(std::cin), {}), "<stdin>", &notes);
    else if (isOnnxPath(o.input))
      loaded.module = loadModelFile(o.input, modelOptions);
    else
      loaded = loadModuleTextFile(o.input, &notes);
    // Syntax and constant style first: the loaded constants take their
    // meta[relay.Constant][N] numbers in the order this syntax prints them.
    wb.setPrintSyntax(batchPrintSyntax(o, loaded.origin));
    wb.setConstantStyle(o.constants);
    wb.loadModule(std::move(loaded.module), o.input == "-" ? "<stdin>" : o.input, LoadOptions{o.typeCheck}, loaded.origin);
  } catch (const DiagnosticError& e) {
    put(err, e.renderAll() + "\n");
    return 1;
  }
  // As the REPL's `load` says them: placeholders made, an expression wrapped as @main.
  for (const Diagnostic& note : notes) put(err, note.render() + "\n");
  // Dumps, diffs and remarks number constants with the session's numbering; the
  // trace JSON names nodes as before, without it.
  PrintOptions printing = wb.printOptions();
  printing.numbering = nullptr;
  if (!o.hasPipeline) {
    const IRModule& input = wb.moduleAt(0, Side::After);
    if (!o.expect.empty()) return checkExpected(o, input, printing, "the input", out, err);
    bool written = writeOutput(o.output, printModule(input, fileOptions(printing)), out, err);
    if (!o.report.empty()) written = writeBatchReport(wb, o.report, err) && written;
    return written ? 0 : 1;
  }

  const bool remarks = o.remarks || !o.remarksJson.empty();
  try {
    parsePipeline(o.pipeline, registry, "--pass-pipeline");  // a bad pipeline is located in the flag
    wb.setRunSettings(batchRunSettings(o));
    wb.setPipeline(o.pipeline);
    // Remarks cost time: only when they are asked for, or the report shows them.
    wb.setRemarks(remarks || !o.report.empty());
  } catch (const DiagnosticError& e) {
    put(err, e.renderAll() + "\n");
    return 1;
  } catch (const std::invalid_argument& e) {
    put(err, std::string("passlab: error: ") + e.what() + "\n");
    return 1;
  } catch (const WorkbenchError& e) {
    put(err, std::string("passlab: error: ") + e.what() + "\n");
    return 1;
  }

  // The face's own instruments: diagnostics, timing and IR dumps to stderr.
  auto diagnostics = std::make_shared<DiagnosticPrinter>(err);
  wb.addInstrument(diagnostics);
  std::shared_ptr<TimingInstrument> timing;
  if (o.timePasses) {
    timing = std::make_shared<TimingInstrument>();
    wb.addInstrument(timing);
  }
  if (o.printBeforeAll || o.printAfterAll || o.printChanged) {
    PrintInstrumentOptions print;
    print.text = wb.printOptions();
    print.printBeforeAll = o.printBeforeAll;
    print.printAfterAll = o.printAfterAll;
    print.printChanged = o.printChanged;
    print.changedAsDiff = o.printChangedDiff;
    print.functions = o.filterPrintFuncs;
    // Renumbered %N are not changes: matched nodes print under their old names.
    // Dumps match through the workbench's index: the report and the trace
    // JSON then reuse each matching instead of computing it again.
    const ChangeIndex* changes = &wb.changeIndex();
    if (o.printChangedDiff)
      print.diffText = [functions = o.filterPrintFuncs, text = print.text, changes](
                           const IRModule& before, const IRModule& after, const std::string& oldName,
                           const std::string& newName) {
        auto edits = changes->edits(before, after);
        if (functions.empty()) return alignedDiff(*edits, oldName, newName, "", 3, text);
        std::string out;
        for (const std::string& f : functions) out += alignedDiff(*edits, oldName + " @" + f, newName + " @" + f, f, 3, text);
        return out;
      };
    if (o.printChangedSummary)
      print.changeLine = [changes](const IRModule& before, const IRModule& after) {
        return changes->summary(before, after);
      };
    wb.addInstrument(std::make_shared<PrintInstrument>(print, [err](std::string_view text) {
      std::fwrite(text.data(), 1, text.size(), err);
    }));
  }

  int status = 0;
  // Every pipeline pass runs, out-of-phase ones too (their phase error is a
  // diagnostic, counted below), until one fails.
  if (!wb.pipelinePasses().empty()) wb.forceStep(static_cast<int>(wb.pipelinePasses().size()));
  diagnostics->printFolded();
  if (wb.halted()) {
    const TraceEvent* failed = innermostFailure(wb.trace());
    put(err, "passlab: error: pass " + (failed ? failed->pass : std::string("?")) + " failed\n" +
                 (failed ? failed->failure : std::string()) + "\n");
    status = 1;
  }
  std::fflush(err);
  if (timing) put(err, timing->report());
  const Trace& trace = wb.trace();
  if (!o.traceJson.empty()) {
    TraceJsonOptions traceOptions;
    traceOptions.print = &printing;
    traceOptions.changeIndex = &wb.changeIndex();
    traceOptions.builds = &wb.builds();
    if (!writeOutput(o.traceJson, traceToJson(trace, traceOptions), out, err)) status = 1;
  }
  if (remarks && !writeBatchRemarks(o, trace, printing, out, err)) status = 1;
  if (!o.graphDir.empty() && !writeGraphs(wb, o.graphDir, err)) status = 1;
  if (!o.report.empty() && !writeBatchReport(wb, o.report, err)) status = 1;
  if (diagnostics->errors() > 0 && status == 0) {
    put(err, "passlab: error: " + std::to_string(diagnostics->errors()) + " verifier error(s)\n");
    status = 1;
  }
  const IRModule& result = wb.moduleAt(wb.cursor(), Side::After);
  if (status == 0 && !o.expect.empty()) return checkExpected(o, result, printing, "the module after the pipeline", out, err);
  if (status == 0 && !writeOutput(o.output, printModule(result, fileOptions(printing)), out, err)) status = 1;
  return status;
}

int runBatchReduce(const BatchOptions& o, std::shared_ptr<const PassRegistry> registry, std::FILE* out, std::FILE* err) {
  try {
    LoadModelOptions modelOptions;
    for (const std::string& binding : o.inputShapes) addInputShapeBinding(binding, modelOptions.onnx);
    ReduceJob job;
    LoadedText loaded;
    if (o.input == "-")
      loaded = loadModuleText(std::string(std::istreambuf_iterator<char>(std::cin), {}), "<stdin>");
    else if (isOnnxPath(o.input))
      loaded.module = loadModelFile(o.input, modelOptions);
    else
      loaded = loadModuleTextFile(o.input);
    job.module = std::move(loaded.module);
    job.print.syntax = batchPrintSyntax(o, loaded.origin);
    job.print.spelling = loaded.origin.spelling;
    job.source = o.input;
    if (!o.hasPipeline) {
      put(err, "passlab: error: --reduce needs --pass-pipeline: the reducer runs the pipeline on every candidate\n");
      return 1;
    }
    job.pipeline = o.pipeline;
    parsePipeline(o.pipeline, *registry, "--pass-pipeline");  // a bad pipeline is reported with its column here
    job.settings = batchRunSettings(o);
    auto ctx = PassContext::create("root");
    job.settings.applyTo(*ctx);  // an unknown config key is reported here, before any run
    std::vector<std::string> words;
    std::stringstream in(o.reduce);
    for (std::string w; in >> w;) words.push_back(w);
    BisectPredicate predicate = parseBisectPredicate(words);
    ReduceResult r = reduceModule(registry, job, predicate);
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.1f", r.seconds);
    put(err, "passlab: reduced " + std::to_string(r.opsBefore) + " -> " + std::to_string(r.opsAfter) + " ops (" +
                 std::to_string(r.functionsBefore) + " -> " + std::to_string(r.functionsAfter) + " functions) in " +
                 std::to_string(r.runs) + " pipeline runs, " + seconds + " s; still holds: " + r.detail + "\n");
    if (!o.reduceRepro.empty()) put(err, "passlab: wrote a reproducer to " + writeReproducer(o.reduceRepro, r.reproducer) + "\n");
    return writeOutput(o.output, r.text, out, err) ? 0 : 1;
  } catch (const DiagnosticError& e) {
    put(err, e.renderAll() + "\n");
  } catch (const WorkbenchError& e) {
    put(err, std::string("passlab: error: ") + e.what() + "\n");
  } catch (const std::invalid_argument& e) {
    put(err, std::string("passlab: error: ") + e.what() + "\n");
  }
  return 1;
}

int runReproducer(const std::string& path, std::shared_ptr<const PassRegistry> registry, std::FILE* out, std::FILE* err) {
  Workbench workbench(std::move(registry));
  CommandInterpreter interpreter(workbench);
  // The REPL's `reproduce` command does the work, so both paths print the same.
  CommandResult result;
  bool reproduced = false;
  CommandContext ctx{workbench, interpreter, interpreter.style()};
  try {
    reproduced = replayReproducer(ctx, path, result);
  } catch (const DiagnosticError& e) {
    result.fail(e.renderAll());
  } catch (const std::exception& e) {
    result.fail(e.what());
  }
  for (const CommandResult::Chunk& chunk : result.chunks) put(chunk.error ? err : out, chunk.text);
  return result.ok() && reproduced ? 0 : 1;
}

}  // namespace passlab
