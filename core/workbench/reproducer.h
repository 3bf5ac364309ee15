// Reproducers for failed passes: the module text before the failing top-level
// pass, that pass as a pipeline, and the configuration it ran under.
//
// Single-file form (a Relay text file with a comment header, so the module
// part stays readable and can be loaded by hand):
//
//   // passlab reproducer: replay with `passlab --reproduce FILE`
//   // failed: InferType
//   // failure: type.shape-mismatch: add: ...
//   // pipeline: InferType
//   // opt_level: 2
//   // target: llvm
//   // config: relay.FuseOps.max_depth = 4
//   // load: no-check
//   // source: examples/ill_typed.relay
//   #[version = "0.0.5"]
//   def @main(...) { ... }
//
// A reducer's reproducer (core/workbench/reduce.h) carries a `// predicate:
// fails LegalizeOps legalize.unsupported-op` line instead of failed/failure:
// replaying it runs the pipeline and evaluates that predicate.
//
// A reproducer made while printing TVMScript (`set syntax`) holds the module
// in TVMScript, with `# ` header lines instead of `// `, so it stays a Python file.
//
// Directory form: DIR/module.relay or DIR/module.py (the module text),
// DIR/pipeline.txt (one line) and DIR/config.txt (the header lines above
// without the `// `).
#pragma once

#include <string>

#include "core/text/tvmscript.h"
#include "core/trace/trace.h"
#include "core/workbench/run_settings.h"
#include "core/workbench/workbench.h"

namespace passlab {

/// Everything needed to replay a failed pass: written by `Workbench::reproducer`,
/// read by `passlab --reproduce` and the REPL's `reproduce` (core/workbench/reproducer.h).
struct Reproducer {
  /// Module text before the failing top-level pass, in `syntax`.
  std::string moduleText;
  /// The syntax of `moduleText` (the print syntax when it was made); a
  /// TVMScript reproducer's header lines are `# ` comments instead of `// `.
  TextSyntax syntax = TextSyntax::Relay;
  /// Pipeline text of that pass.
  std::string pipeline;
  /// What the run was configured with.
  RunSettings settings;
  /// Whether the module must be type-checked at load (false when it was loaded unchecked).
  bool typeCheck = true;
  /// The failure as recorded: pass (possibly nested) and its first diagnostic.
  std::string failedPass;
  std::string failureRule;
  std::string failureMessage;
  /// Where the module originally came from.
  std::string source;
  /// The file `moduleText` was read from, for diagnostics ("" for a reproducer
  /// made in memory).
  std::string moduleName;
  /// Edits (Workbench::edit) made before the failing pass, one line each; the
  /// module text already includes them, so replay needs nothing more.
  std::vector<std::string> edits;
  /// A reducer's reproducer: the predicate (bisectPredicateText) that must hold
  /// after the pipeline; "" for a failure reproducer.
  std::string predicate;
};

/// The single-file text of a reproducer.
std::string formatReproducer(const Reproducer& repro);

/// Reads the single-file form. `name` is used in error messages and becomes the
/// reproducer's source name. Throws WorkbenchError on a malformed header.
Reproducer parseReproducer(const std::string& text, const std::string& name);

/// Writes `repro` to `path`: the directory form when `path` is an existing
/// directory or ends with '/', otherwise the single-file form. Returns a short
/// description of what was written ("repro.relay" or "dir/ (module.relay,
/// pipeline.txt, config.txt)"). Throws WorkbenchError when writing fails.
std::string writeReproducer(const std::string& path, const Reproducer& repro);

/// Reads either form from `path`.
Reproducer readReproducer(const std::string& path);

/// The rule and first line of the message of an event's first error (from its
/// diagnostics, else its failure text).
std::pair<std::string, std::string> eventFailure(const TraceEvent& event);

/// True when `event` failed the way `repro` recorded: same pass, rule and message.
bool sameFailure(const Reproducer& repro, const TraceEvent& event);

}  // namespace passlab
