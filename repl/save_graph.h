// `save graph`: the dataflow graph of a function at an event, as SVG or DOT
// (graph/graph_export.h), for the REPL's save command.
#pragma once

#include "repl/command.h"

namespace passlab {

/// Runs `save graph [@function] [--event N] [--before] [--whole] FILE` (args without the
/// word "graph"; `before` already taken from them).
void runSaveGraph(CommandContext& ctx, CommandArgs& args, bool before, CommandResult& result);

}  // namespace passlab
