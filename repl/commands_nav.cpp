// Navigation commands: step, next, stepin, finish, back, goto, run, and breakpoints.
#include "core/workbench/break_kind.h"
#include "repl/command_util.h"
#include "repl/format.h"

namespace passlab {
namespace {

using namespace command_util;

/// A move command taking an optional count.
Command countedMove(std::string name, std::vector<std::string> aliases, std::string summary, std::string help,
                    MoveResult (Workbench::*move)(int)) {
  Command c;
  c.name = name;
  c.aliases = std::move(aliases);
  c.syntax = {name + " [<N>]"};
  c.summary = std::move(summary);
  c.help = std::move(help);
  c.run = [move, name](CommandContext& ctx, CommandArgs& args, CommandResult& result) {
    if (tooMany(ctx, args, 1, name.c_str(), result)) return;
    int n = args.empty() ? 1 : parseCount(args[0]);
    result.out(formatMove(ctx.workbench, (ctx.workbench.*move)(n), ctx.style));
  };
  return c;
}

BreakKind breakKind(const std::string& word) {
  if (std::optional<BreakKind> kind = breakKindFromName(word)) return *kind;
  throw WorkbenchError("unknown breakpoint kind '" + word + "' (" + breakKindList() + ")");
}

}  // namespace

void addNavigationCommands(std::vector<Command>& out) {
  out.push_back(countedMove(
      "step", {}, "Run (or replay) the next N top-level passes",
      "Moves the cursor N top-level events forward. At the end of the recorded trace the next pipeline pass runs; "
      "its nested passes are recorded as child events. Stops early at a breakpoint hit or a failed pass. "
      "From inside a nested pipeline, `step` goes to the end of the enclosing top-level pass. A pipeline pass "
      "whose accepted phases exclude the module's phase is refused (every move stops in front of it); "
      "`--force` runs it anyway, and its event carries a phase.out-of-phase error.",
      &Workbench::step));
  {
    // `--force` is step's own: the other moves never run out-of-phase passes.
    Command& step = out.back();
    step.syntax = {"step [<N>] [--force]"};
    step.run = [](CommandContext& ctx, CommandArgs& args, CommandResult& result) {
      bool force = args.takeFlag("--force");
      if (tooMany(ctx, args, 1, "step", result)) return;
      int n = args.empty() ? 1 : parseCount(args[0]);
      result.out(formatMove(ctx.workbench, force ? ctx.workbench.forceStep(n) : ctx.workbench.step(n), ctx.style));
    };
  }
  out.push_back(countedMove(
      "next", {"n"}, "Step over: the next event at the cursor's depth",
      "Moves to the next event at the cursor's nesting depth or shallower, skipping the nested passes of the one "
      "in between; after the last nested pass of a pipeline it returns to the enclosing pass, like gdb's `next` at "
      "the end of a function. At top level it is `step`.",
      &Workbench::next));
  out.push_back(countedMove(
      "stepin", {"s"}, "Step into: the next event at any depth",
      "Moves to the next event in completion order at any depth. From a top-level event this enters the next "
      "pass's nested pipeline (a nested pass completes before the pass that ran it), so FoldConstant's "
      "evaluation passes can be examined one by one. Runs the next pipeline pass when the recording ends.",
      &Workbench::stepIn));
  {
    Command c;
    c.name = "finish";
    c.aliases = {"stepout"};
    c.syntax = {"finish"};
    c.summary = "Step out: to the end of the pass that contains the cursor";
    c.help = "Moves to the event that ran the cursor's nested pipeline, i.e. the state after that pass completed. "
             "An error at a top-level event.";
    c.run = [](CommandContext& ctx, CommandArgs& args, CommandResult& result) {
      if (tooMany(ctx, args, 0, "finish", result)) return;
      result.out(formatMove(ctx.workbench, ctx.workbench.stepOut(), ctx.style));
    };
    out.push_back(std::move(c));
  }
  out.push_back(countedMove(
      "back", {}, "Go back N events at the cursor's depth (time travel, nothing re-runs)",
      "The reverse of `next`: moves to the previous event at the cursor's depth or shallower. Nothing is undone "
      "or re-run: every module state is kept in the trace, and moving forward again replays the recording.",
      &Workbench::back));
  {
    Command c;
    c.name = "goto";
    c.syntax = {"goto <event>"};
    c.summary = "Move the cursor to any recorded event, on any branch";
    c.help = "Accepts `5` or `#5`. Event #0 is the loaded module. `goto b1:5` is event 5 of branch b1 (an `edit` forks "
             "branches; `branches` lists them), `b1` that branch's own cursor; the branch becomes the active one.";
    c.run = [](CommandContext& ctx, CommandArgs& args, CommandResult& result) {
      if (args.size() != 1) return result.fail(usage(*ctx.interpreter.find("goto")));
      if (isBranchRef(args[0])) {
        auto [branch, event] = parseBranchRef(args[0]);
        return result.out(formatMove(ctx.workbench, ctx.workbench.gotoBranch(branch, event), ctx.style));
      }
      result.out(formatMove(ctx.workbench, ctx.workbench.gotoEvent(parseEventId(args[0])), ctx.style));
    };
    out.push_back(std::move(c));
  }
  {
    Command c;
    c.name = "run";
    c.aliases = {"continue", "c"};
    c.syntax = {"run", "run --host|--hexagon [--tir-reference] [--seed <n>] [--repeat <n>] [--profile] [--threads <n>] [--bind <name=n,...>] [--all] [@<function>]"};
    c.summary = "Run to the end of the pipeline or the next breakpoint";
    c.help = "Replays recorded events after the cursor, then runs the remaining passes, stopping at the first "
             "breakpoint hit, the first failed pass, or an interrupt (Ctrl-C stops between passes and keeps the trace). "
             "`run --host` JIT-compiles the module at the cursor and runs its entry (default @main), `run --hexagon` "
             "builds it for Hexagon and runs it under qemu-hexagon; both on seeded random inputs (`--seed`, default 0), "
             "compared output by output with a reference (PASS/FAIL): the graph-level interpreter on the last snapshot "
             "in the trace whose entry reaches no PrimFunc (before lowering), or the cached outputs of an earlier "
             "run of the same reference and seed; `--tir-reference` (or a module loaded already lowered) interprets the "
             "module's own PrimFuncs instead, a slower check of the same code. The output names the reference; a reference "
             "run over a second shows a status line, and Ctrl-C abandons the run (when the interpreter returns: it does not poll "
             "the interrupt yet). On the host, `--repeat N` then times N runs "
             "after a warm-up (median and min latency) and `--profile` adds a table of the entry's kernels by total "
             "time (calls, ms per run, share, GFLOP/s, output shape), measured by timestamps around each call in the compiled entry; "
             "`build --profile` records the same as a stage of a build (`profile --compare` compares two). `--threads N` sizes "
             "the process's thread pool first, as `set threads N`: the code then runs its outer parallel loops on N threads "
             "and the profile adds each thread's time in them. The JIT compiles for the session's host target, so after "
             "`set target llvm -mattr=-avx512f` it runs AVX2 code. Compiled code needs static shapes: when the entry has "
             "shape variables (`R.Tensor((n, 3))`, an ONNX `batch_size`), the run compiles a copy with them bound "
             "(BindSymbolicVars): `--bind n=4` (or `n=4,m=2`) chooses the values, an unnamed one is 1, and the output "
             "says which were bound.";
    c.run = [](CommandContext& ctx, CommandArgs& args, CommandResult& result) {
      if (isCodegenRun(args)) return runCodegenRun(ctx, args, result);
      if (tooMany(ctx, args, 0, "run", result)) return;
      result.out(formatMove(ctx.workbench, ctx.workbench.run(), ctx.style));
    };
    out.push_back(std::move(c));
  }
  {
    Command c;
    c.name = "break";
    c.aliases = {"b"};
    c.syntax = {"break", "break pass <pass>", "break func @<function>", "break attr <attr>", "break diag [<rule>]",
                "break numeric <threshold> [abs|rel]", "break remark <remark-rule>"};
    c.summary = "Set a breakpoint on a pass, a function change, an attribute change or a diagnostic";
    c.help = "`pass NAME` stops after any event of that pass (nested ones too); `func @NAME` when the function is "
             "added, removed or rewritten; `attr KEY` when the attribute changes on any function or on the module; "
             "`diag [RULE]` when a diagnostic with that rule id is reported (any diagnostic or failure without a "
             "rule); `numeric THRESHOLD [abs|rel]` at the first event whose numeric-check error (relative by default) "
             "exceeds THRESHOLD or that cannot be compared (needs `set numeric-check on`); `remark RULE` at an event "
             "that emits a remark with that rule id (docs/remarks.md; needs `set remarks on`, the default). Moves forward stop at "
             "hits, replayed or newly run. Without arguments, lists breakpoints.";
    c.run = [](CommandContext& ctx, CommandArgs& args, CommandResult& result) {
      if (args.empty()) return result.out(formatBreakpoints(ctx.workbench, ctx.style));
      BreakKind kind = breakKind(args[0]);
      if (kind == BreakKind::Numeric && args.size() >= 2 && args.size() <= 3) {
        int id = ctx.workbench.addBreakpoint(kind, args.rest(1));
        for (const Breakpoint& bp : ctx.workbench.breakpoints())
          if (bp.id == id) result.out("breakpoint " + std::to_string(id) + ": " + describeBreakpoint(bp) + "\n");
        return;
      }
      if (args.size() > 2 || (kind != BreakKind::Diagnostic && args.size() != 2))
        return result.fail(usage(*ctx.interpreter.find("break")));
      int id = ctx.workbench.addBreakpoint(kind, args.size() > 1 ? args[1] : "");
      for (const Breakpoint& bp : ctx.workbench.breakpoints())
        if (bp.id == id) result.out("breakpoint " + std::to_string(id) + ": " + describeBreakpoint(bp) + "\n");
    };
    out.push_back(std::move(c));
  }
  {
    Command c;
    c.name = "delete";
    c.syntax = {"delete [<breakpoint>]"};
    c.summary = "Delete one breakpoint, or all of them";
    c.run = [](CommandContext& ctx, CommandArgs& args, CommandResult& result) {
      if (tooMany(ctx, args, 1, "delete", result)) return;
      if (args.empty()) {
        size_t n = ctx.workbench.breakpoints().size();
        ctx.workbench.clearBreakpoints();
        return result.out("deleted " + std::to_string(n) + (n == 1 ? " breakpoint\n" : " breakpoints\n"));
      }
      int id = parseCount(args[0]);
      if (!ctx.workbench.removeBreakpoint(id)) return result.fail("no breakpoint " + args[0]);
      result.out("deleted breakpoint " + args[0] + "\n");
    };
    out.push_back(std::move(c));
  }
  for (bool enable : {true, false}) {
    Command c;
    c.name = enable ? "enable" : "disable";
    c.syntax = {c.name + " <breakpoint>"};
    c.summary = enable ? "Enable a breakpoint" : "Disable a breakpoint without deleting it";
    c.run = [enable](CommandContext& ctx, CommandArgs& args, CommandResult& result) {
      if (args.size() != 1) return result.fail(usage(*ctx.interpreter.find(enable ? "enable" : "disable")));
      if (!ctx.workbench.enableBreakpoint(parseCount(args[0]), enable)) return result.fail("no breakpoint " + args[0]);
      result.out(std::string(enable ? "enabled" : "disabled") + " breakpoint " + args[0] + "\n");
    };
    out.push_back(std::move(c));
  }
}

}  // namespace passlab
