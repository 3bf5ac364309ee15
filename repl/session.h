// The interactive REPL session: a prompt with libedit line editing, history
// and TAB completion on a terminal; plain line-by-line reading otherwise (so
// tests can pipe commands). Ctrl-C during a long move stops it between passes
// and returns to the prompt with the trace intact.
#pragma once

#include <cstdio>
#include <string>

#include "repl/interpreter.h"

namespace passlab {

/// The history file: $PASSLAB_HISTORY, else ~/.passlab_history ("" when neither
/// is available, e.g. no HOME).
std::string historyFilePath();

/// Writes a command result's chunks in order: output to `out`, errors to `err`,
/// flushing both so the two streams interleave correctly in a shared pipe.
void printResult(const CommandResult& result, std::FILE* out, std::FILE* err);

/// Runs the REPL until `quit` or end of input. With `interactive` (stdin is a
/// terminal) it uses libedit; otherwise it reads stdin line by line and echoes
/// each line as a script would. Returns the exit status: 0, or 1 when reading
/// non-interactively and a command failed.
int runSession(CommandInterpreter& interpreter, bool interactive, std::FILE* out, std::FILE* err);

}  // namespace passlab
