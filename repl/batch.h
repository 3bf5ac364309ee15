// Non-interactive modes of the passlab executable: batch pipelines in the
// LLVM/MLIR `opt` style and reproducer replay. Output goes to the given
// streams, so tests can capture it.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/pass/registry.h"
#include "core/text/tvmscript.h"
#include "repl/session_options.h"

namespace passlab {

/// `passlab FILE --pass-pipeline=SPEC [...]`. The options shared with the GUI
/// (load, pipeline, run settings, print syntax and constants) come from
/// SessionOptions: with no pipeline batch mode parses, type-checks and prints
/// only; `syntax` unset means the output file's (`.py` TVMScript, `.relay`
/// Relay), else the input's; with constants by reference, -o writes TVM's
/// #[metadata] section.
struct BatchOptions : SessionOptions {
  /// Input file ("-" for stdin).
  std::string input;
  /// Output file ("-" for stdout).
  std::string output = "-";
  /// -o was given (with --expect the module is written only then).
  bool outputGiven = false;
  /// --expect=FILE: the final module must be structurally equal to FILE's (exit 1 and the aligned diff otherwise).
  std::string expect;
  bool printBeforeAll = false;
  bool printAfterAll = false;
  bool printChanged = false;
  /// --print-changed=diff (aligned by the node matcher)
  bool printChangedDiff = false;
  /// --print-changed=summary: one change-summary line per pass
  bool printChangedSummary = false;
  /// --filter-print-funcs=NAME,...
  std::vector<std::string> filterPrintFuncs;
  bool timePasses = false;
  bool verifyEach = false;
  /// --trace-json=F
  std::string traceJson;
  /// --remarks[=[KIND:]PASS,...]: print remarks to stderr (repl/format_remarks.h).
  bool remarks = false;
  std::string remarksFilter;
  /// --remarks-json=F: the remarks (filtered like --remarks) as JSON.
  std::string remarksJson;
  /// --report=F: the run as an HTML report (repl/batch_report.h).
  std::string report;
  /// --graph-dir=DIR: one SVG per graph-level function each top-level pass
  /// changed, DIR/NNN-Pass-function.svg (NNN the event id), coloured by the change.
  std::string graphDir;
  /// --reduce='WHEN': reduce the input instead of printing the pipeline's output.
  std::string reduce;
  /// --reduce-repro=FILE: where the reducer's reproducer goes ("" = nowhere).
  std::string reduceRepro;
};

/// The syntax batch mode prints in: --syntax, else the output file's
/// extension (`.py`, `.relay`), else the syntax the input was loaded in.
TextSyntax batchPrintSyntax(const BatchOptions& options, const TextOrigin& loaded);

/// Runs a batch pipeline: IR dumps, timing and verifier reports go to `err`
/// (like LLVM's), the final module to `options.output`. Returns the exit status:
/// 0 success; 1 bad input, a failed pass or verifier violations.
int runBatch(const BatchOptions& options, const PassRegistry& registry, std::FILE* out, std::FILE* err);

/// `passlab FILE --pass-pipeline=SPEC --reduce='WHEN' [-o OUT]`: reduces FILE
/// (core/workbench/reduce.h) and writes the reduced module to `options.output`,
/// the summary to `err`. Returns 0 when reduced, 1 on bad input or when WHEN
/// does not hold for FILE.
int runBatchReduce(const BatchOptions& options, std::shared_ptr<const PassRegistry> registry, std::FILE* out, std::FILE* err);

struct CommandContext;
struct CommandResult;

/// The `reproduce` command's work: loads the reproducer at `path` into the
/// context's workbench, runs it, writes the outcome to `result`; true when
/// it reproduced. Throws like a command does for an unreadable file.
bool replayReproducer(CommandContext& ctx, const std::string& path, CommandResult& result);

/// `passlab --reproduce FILE`: loads the reproducer (single file or directory),
/// runs it and reports whether the recorded failure (or a reducer's
/// predicate) happened again. Returns 0 when it reproduced, 1 when it did not
/// or could not run: like a test, success means "the replay did what the
/// reproducer records", so scripts and reducers can use it directly.
int runReproducer(const std::string& path, std::shared_ptr<const PassRegistry> registry, std::FILE* out, std::FILE* err);

}  // namespace passlab
