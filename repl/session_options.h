// The command-line options passlab and passlab-gui share: how FILE is loaded
// (--input-shape, --no-check), what runs on it (--pass-pipeline and the run
// settings: --opt-level, --target, --config, --disabled-pass,
// --required-pass) and how modules print (--syntax, --print-constants). One
// table, parsed the same way by both executables, so a command line that
// loads a model in passlab loads it in the GUI too.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/text/constant_refs.h"
#include "core/text/tvmscript.h"
#include "core/workbench/workbench.h"

namespace passlab {

/// What the shared options say.
struct SessionOptions {
  /// --input-shape NAME=D0,D1,... bindings for an ONNX input file.
  std::vector<std::string> inputShapes;
  /// Type-check at load (off: --no-check).
  bool typeCheck = true;
  /// --pass-pipeline=SPEC (hasPipeline: given, even empty).
  std::string pipeline;
  bool hasPipeline = false;
  /// --opt-level=N (-1: the default).
  int optLevel = -1;
  /// --target=TEXT
  std::string target;
  bool hasTarget = false;
  /// --config=KEY=VALUE, repeatable.
  std::vector<std::pair<std::string, std::string>> config;
  /// --disabled-pass=A,B and --required-pass=A,B
  std::vector<std::string> disabledPasses;
  std::vector<std::string> requiredPasses;
  /// --syntax=tvmscript|relay: the syntax modules print in (unset: the file's).
  std::optional<TextSyntax> syntax;
  /// --print-constants=inline|ref: large constants by reference (default) or inline.
  ConstantStyle constants = ConstantStyle::Ref;
};

/// What parseSessionOption made of an argument.
enum class OptionParse : uint8_t {
  NotMine,  ///< not a shared option: the caller's own table goes on
  Taken,    ///< parsed (and its value, when it took the next argument)
  Error,    ///< a shared option with a bad or missing value: `error` says which
};

/// Offers `args[i]` to the shared table. Each option takes `--name=value` or
/// `--name value`; on Taken, `i` is left on the last argument used.
OptionParse parseSessionOption(const std::vector<std::string>& args, size_t& i, SessionOptions& options, std::string* error);

/// Usage lines of the shared options, two-space indented, as both
/// executables' --help prints them.
std::string sessionOptionsUsage();

/// The run settings the options give (a config value read for its key's
/// registered kind; an unknown key is left to Workbench::setRunSettings, whose
/// error names it).
RunSettings sessionRunSettings(const SessionOptions& options);

/// Applies what must be set before a load: print syntax (when given) and the
/// constant style (constants take their numbers in the order they print).
void applyPrintOptions(Workbench& wb, const SessionOptions& options);

/// Applies the run settings that were given (the rest keep the workbench's
/// own). Throws like Workbench::setRunSettings (nothing changes then).
void applyRunSettings(Workbench& wb, const SessionOptions& options);

/// Applies what follows a load: the run settings, then the pipeline when one
/// was given. Throws like the setters (WorkbenchError, DiagnosticError for a
/// bad pipeline).
void applyRunOptions(Workbench& wb, const SessionOptions& options);

}  // namespace passlab
