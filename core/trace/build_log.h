// The builds of a session: which trace events are code generation, what each
// build compiled, and the text each produced.
//
// A build (Workbench::build) is recorded in the trace as a top-level event
// (pass "build") with one child event per stage (`llvm`, `asm`, `run`, ...), so
// stepping visits it like a pass with nested passes. What makes those events
// code generation rather than passes lives here, not on TraceEvent: the trace
// stays a record of passes, and every question about builds has one place to
// ask. The vocabulary:
//
// * a **codegen event** is a build event or one of its stage events;
// * the **build of** an event is its build event (itself, or a stage's parent);
// * a build **built from** a pass event: the event whose module it compiled;
// * a build's **stage** by name is one of its children;
// * the **current build** for a cursor is the cursor's own build, else the
//   most recently recorded one.
//
// The log is keyed by event id, so it follows its trace: truncate it wherever
// the trace is truncated, copy it wherever the trace is copied.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace passlab {

/// One text artifact of a code-generation event.
struct CodegenArtifact {
  /// The PrimFunc or ccompiler function it belongs to ("" = the whole module).
  std::string function;
  std::string text;
};

/// The code-generation events of one trace, by event id.
class BuildLog {
 public:
  /// Records build event `build`, which compiled the module after event
  /// `builtFrom`, with its summary text.
  void addBuild(int build, int builtFrom, std::string summary);
  /// Records event `stage`, stage `name` of build `build`, with its artifacts
  /// (the whole module's text first, then one per function).
  void addStage(int build, int stage, std::string name, std::vector<CodegenArtifact> artifacts);

  /// True for a build event or one of its stages.
  bool isCodegen(int event) const { return entries_.count(event) != 0; }
  /// True for a build event (not a stage).
  bool isBuild(int event) const;
  /// The build event of codegen event `event` (itself, or a stage's build; -1 for a pass event).
  int buildOf(int event) const;
  /// The pass event whose module codegen event `event` compiled (`event` itself for a pass event).
  int builtFrom(int event) const;
  /// The stage event of build `build` named `name` (-1: the build has no such stage).
  int stage(int build, std::string_view name) const;
  /// The build views of generated code show at `cursor`: its own build, else
  /// the most recently recorded one (-1: nothing built).
  int current(int cursor) const;
  /// The most recently recorded build (-1: none).
  int latest() const { return builds_.empty() ? -1 : builds_.back(); }
  /// Build events in the order they were recorded.
  const std::vector<int>& builds() const { return builds_; }
  /// The builds that compiled the module of pass event `event`, in recorded order.
  std::vector<int> buildsFrom(int event) const;
  /// The text of codegen event `event`: a build's summary, a stage's code per
  /// function (empty for a pass event).
  const std::vector<CodegenArtifact>& artifacts(int event) const;

  /// Forgets every event with id >= `firstRemoved` (with Trace::truncate).
  void truncate(int firstRemoved);
  /// Forgets everything (a new trace).
  void clear();

 private:
  struct Entry {
    /// The build event (the entry's own id for a build).
    int build = -1;
    /// Builds: the event whose module was compiled (-1 for stages).
    int builtFrom = -1;
    /// Stages: the stage name ("" for builds).
    std::string stage;
    std::vector<CodegenArtifact> artifacts;
  };
  std::map<int, Entry> entries_;
  std::vector<int> builds_;
};

}  // namespace passlab
