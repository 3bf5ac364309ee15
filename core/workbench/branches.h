// Edit and continue (core/workbench/workbench_branches.cpp): the record of an
// edit and the branches edits fork.
#pragma once

#include <cstddef>
#include <string>

namespace passlab {

/// One edit of the IR (Workbench::edit): an `edit` event on a branch.
struct EditRecord {
  /// The edit event and the event whose module was edited.
  int event = 0;
  int editedAt = 0;
  /// The edited global function ("" = the whole module).
  std::string function;
  /// Where the text came from (a file name, "$EDITOR").
  std::string source;
  /// The edited module, printed: replaying it reproduces the edit exactly.
  std::string moduleText;
};

/// One line of history. Editing the IR forks: the recorded future after the
/// cursor stays on the branch it was recorded on, and the edit starts a new
/// branch that shares the events before it.
struct BranchInfo {
  /// Stable id (0 is the original line); the REPL names it `b<id>`.
  int id = 0;
  /// The branch it forked from (-1 for branch 0) and the last event shared with it.
  int parent = -1;
  int forkEvent = -1;
  /// Its edit event (-1 for branch 0).
  int editEvent = -1;
  /// Recorded events, its cursor and pipeline passes run.
  int events = 0;
  int cursor = 0;
  size_t passesRun = 0;
  bool active = false;
  /// "load", or "edit @main at #3 InferType" (what created it).
  std::string description;
};

}  // namespace passlab
