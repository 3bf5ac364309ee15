// Inspection commands: show, info, where, trace, diff, attrs, why, config.
#include <charconv>

#include "core/text/constant_refs.h"
#include "repl/command_util.h"
#include "repl/format_remarks.h"
#include "repl/format.h"

namespace passlab {
namespace {

using namespace command_util;

/// Takes a trailing `before`/`after` word; After by default.
Side takeSide(CommandArgs& args) {
  if (args.takeFlag("before")) return Side::Before;
  args.takeFlag("after");
  return Side::After;
}

}  // namespace

void addViewCommands(std::vector<Command>& out) {
  {
    Command c;
    c.name = "show";
    c.aliases = {"p"};
    c.syntax = {"show [before|after] [@<function>]", "show event <event> [before|after] [@<function>]",
                "show --remarks [@<function>]", "show event <event> --remarks [@<function>]",
                "show llvm|llvm-opt|asm|c [@<function>]", "show const <N> [--all]"};
    c.summary = "Print the IR at the cursor (or at any event), whole or one function";
    c.help = "Prints the module after the cursor's event (`before`: the module the pass was given). "
             "`@NAME` prints one global function. `show event N` looks at another event without moving the cursor. "
             "`show llvm|llvm-opt|asm|c [@NAME]` prints the generated code of the cursor's `build`, else the most "
             "recent one (LLVM IR before and after optimization, target assembly, C of a ccompiler function). At a "
             "build event `show` prints its summary; at one of its stages, the stage's code (`@NAME`: one function's). "
             "`show const N` describes the constant printed as meta[relay.Constant][N]: type, first values (`--all`: "
             "every value), min/max/mean. `show --remarks` prints the module the event's pass was given with the pass's remarks "
             "(`remarks`) as comments under the lines of the nodes they name.";
    c.run = [](CommandContext& ctx, CommandArgs& args, CommandResult& result) {
      if (!args.empty() && isCodegenView(args[0])) return runCodegenShow(ctx, args, result);
      if (!args.empty() && args[0] == "const") {
        bool all = args.takeFlag("--all");
        if (args.size() != 2) return result.fail(usage(*ctx.interpreter.find("show")));
        int n = -1;
        const std::string& word = args[1];
        auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), n);
        if (word.empty() || ec != std::errc() || end != word.data() + word.size() || n < 0)
          return result.fail("expected a constant number N (as in meta[relay.Constant][N]), got '" + word + "'");
        // Named as `show` prints the reference in the session's syntax.
        std::string reference = constantReferenceText(ctx.workbench.printSyntax(), n);
        return result.out(reference + ": " + describeConstant(ctx.workbench.numberedConstant(n), all));
      }
      std::string function = args.takeFunction();
      bool remarks = args.takeFlag("--remarks");
      Side side = takeSide(args);
      int id = ctx.workbench.cursor();
      if (!args.empty() && args[0] == "event") {
        if (args.size() != 2) return result.fail(usage(*ctx.interpreter.find("show")));
        id = parseEventId(args[1]);
      } else if (!args.empty()) {
        return result.fail("unexpected argument '" + args[0] + "'; " + usage(*ctx.interpreter.find("show")));
      }
      if (ctx.workbench.builds().isCodegen(id)) return showCodegenEvent(ctx, id, function, result);
      if (remarks) return result.out(formatRemarkedModule(ctx.workbench, id, function, ctx.style));
      result.out(ctx.workbench.moduleText(id, side, function));
    };
    out.push_back(std::move(c));
  }
  {
    Command c;
    c.name = "info";
    c.syntax = {"info [<event>] [--no-time] [--all]"};
    c.summary = "Everything recorded about an event (default: the cursor's)";
    c.help = "Status, nesting, context, changed functions, config reads with their sources, skipped functions "
             "with reasons, diagnostics, attribute changes and the failure message. `--no-time` leaves out the "
             "wall time (for reproducible transcripts). Lists that grow with the model stop at 20 items with a "
             "count, and an attribute change made to several functions is one line (\"global_symbol added on 81 "
             "functions\"); `--all` lists everything.";
    c.run = [](CommandContext& ctx, CommandArgs& args, CommandResult& result) {
      bool showTime = !args.takeFlag("--no-time");
      bool all = args.takeFlag("--all");
      if (tooMany(ctx, args, 1, "info", result)) return;
      int id = args.empty() ? ctx.workbench.cursor() : parseEventId(args[0]);
      result.out(formatEventInfo(ctx.workbench, id, ctx.style, showTime, all));
    };
    out.push_back(std::move(c));
  }
  {
    Command c;
    c.name = "where";
    c.syntax = {"where"};
    c.summary = "Where the cursor is: event, enclosing passes, pipeline position";
    c.run = [](CommandContext& ctx, CommandArgs& args, CommandResult& result) {
      if (tooMany(ctx, args, 0, "where", result)) return;
      ctx.workbench.trace();  // "no module loaded" before anything else
      result.out(formatWhere(ctx.workbench, ctx.style));
    };
    out.push_back(std::move(c));
  }
  {
    Command c;
    c.name = "trace";
    c.aliases = {"t"};
    c.syntax = {"trace [--no-time]"};
    c.summary = "The trace tree: every event, nested passes indented, status markers, timing";
    c.help = "Markers: [*] changed, [=] unchanged, [-] skipped, [!] failed (on a terminal: ● ○ ⊘ ✗ in colour). "
             "`>` marks the cursor. Functions a pass left alone (e.g. Compiler=\"ccompiler\") are listed as skipped. "
             "`--no-time` leaves out wall times.";
    c.run = [](CommandContext& ctx, CommandArgs& args, CommandResult& result) {
      bool showTime = !args.takeFlag("--no-time");
      if (tooMany(ctx, args, 0, "trace", result)) return;
      result.out(formatTraceTree(ctx.workbench, ctx.style, showTime));
    };
    out.push_back(std::move(c));
  }
  {
    Command c;
    c.name = "diff";
    c.syntax = {"diff [<event>] [<event>] [@<function>] [--text | --summary [--all]]", "diff --branch <branch> [<event>] [@<function>] [--text]"};
    c.summary = "What changed: aligned diff of the IR (default), plain text diff, or the edit script";
    c.help = "Without events: the cursor's event, before vs after. With one: that event, before vs after. "
             "With two: the module after the first vs after the second. `@NAME` restricts it to one function. "
             "By default the diff is aligned: the node matcher pairs the nodes of both sides and prints the "
             "second side with the first side's names, so a line is marked only when its node was inserted, "
             "deleted or updated, never because %N numbers shifted. Functions are paired by name. A line whose "
             "ops a pass only moved (FuseOps grouping them into a function, LambdaLifting lifting one) is "
             "marked `<` where it left and `>` where it arrived, not `-`/`+`, and a last line counts both "
             "kinds. `--text` diffs the canonical printouts instead (moves marked too). `--summary` prints the edit script per function (same as `changes`), `--all` with "
             "every node, kept ones included. `--branch bN [EVENT]` compares the cursor's event (or EVENT) with the "
             "same pipeline pass on branch bN (see `edit` and `branches`), aligned unless `--text`.";
    c.run = [](CommandContext& ctx, CommandArgs& args, CommandResult& result) {
      if (args.takeFlag("--branch")) return runDiffBranch(ctx, args, result);
      std::string function = args.takeFunction();
      bool text = args.takeFlag("--text");
      bool summary = args.takeFlag("--summary");
      bool all = args.takeFlag("--all");
      if (tooMany(ctx, args, 2, "diff", result)) return;
      if (text && (summary || all)) return result.fail("diff: --text cannot be combined with --summary or --all");
      if (all && !summary) return result.fail("diff: --all goes with --summary (or use `changes --all`)");
      Workbench& wb = ctx.workbench;
      int a, b;
      Side sa = Side::After, sb = Side::After;
      if (args.size() == 2) {
        a = parseEventId(args[0]);
        b = parseEventId(args[1]);
      } else {
        a = b = args.empty() ? wb.cursor() : parseEventId(args[0]);
        sa = Side::Before;
      }
      if (summary) {
        result.out(formatChangeHeader(wb, a, sa, b, sb) + wb.editScript(a, sa, b, sb, all, function, all ? 0 : kChangesCap));
        return;
      }
      std::string out = text ? wb.diff(a, sa, b, sb, function) : wb.alignedDiff(a, sa, b, sb, function);
      result.out(formatOneSidedNote(wb, a, sa, b, sb, function) + (out.empty() ? "no differences\n" : out));
    };
    out.push_back(std::move(c));
  }
  {
    Command c;
    c.name = "changes";
    c.syntax = {"changes [<event>] [<event>] [@<function>] [--all]"};
    c.summary = "The edit script of an event (or between two events), grouped per function";
    c.help = "What the node matcher found: per function, each node that was updated (which attributes, inputs "
             "or type changed), inserted, deleted, moved (from which function) or folded into a constant, "
             "under the names `diff` prints. The first line is the event's one-line summary. The list stops after "
             "40 lines with a count of the rest by kind; `--all` lists every line, kept nodes and unchanged functions "
             "too. Events as for `diff`.";
    c.run = [](CommandContext& ctx, CommandArgs& args, CommandResult& result) {
      std::string function = args.takeFunction();
      bool all = args.takeFlag("--all");
      if (tooMany(ctx, args, 2, "changes", result)) return;
      Workbench& wb = ctx.workbench;
      int a, b;
      Side sa = Side::After, sb = Side::After;
      if (args.size() == 2) {
        a = parseEventId(args[0]);
        b = parseEventId(args[1]);
      } else {
        a = b = args.empty() ? wb.cursor() : parseEventId(args[0]);
        sa = Side::Before;
      }
      result.out(formatChangeHeader(wb, a, sa, b, sb) + wb.editScript(a, sa, b, sb, all, function, all ? 0 : kChangesCap));
    };
    out.push_back(std::move(c));
  }
  {
    Command c;
    c.name = "attrs";
    c.syntax = {"attrs [@<function>] [<attr>...] [--all] [--nested] [--changed]"};
    c.summary = "Attribute timeline: each function's attributes after every top-level event";
    c.help = "A table of functions × events; a `*` marks a value that changed at that event, `-` an absent key. "
             "Only events where something changed are shown, rows that tell the same story on several functions fold "
             "into one (\"81 functions\"), and the table stops at 40 rows, unless `--all`; `--nested` adds nested events; "
             "`--changed` keeps only rows that change; naming attributes keeps only those (`attrs Compiler Extern`). "
             "Module attributes appear as <module>.";
    c.run = [](CommandContext& ctx, CommandArgs& args, CommandResult& result) {
      AttrTimelineQuery query;
      query.function = args.takeFunction();
      bool all = args.takeFlag("--all");
      query.nested = args.takeFlag("--nested");
      query.changedOnly = args.takeFlag("--changed");
      query.keys = args.words();
      result.out(formatAttrTimeline(ctx.workbench, ctx.workbench.attrTimeline(query), ctx.style, all));
    };
    out.push_back(std::move(c));
  }
  {
    Command c;
    c.name = "why";
    c.syntax = {"why <key>"};
    c.summary = "Config provenance: every read of a key with value, source, context, pass and event";
    c.help = "Lists each recorded read of KEY (PassContext config, pass option, module attribute, target or "
             "default) in event order, nested reads indented under their context. Without an exact match, every "
             "key containing KEY matches (`why link_params` finds relay.FuseOps.link_params and executor.link-params).";
    c.run = [](CommandContext& ctx, CommandArgs& args, CommandResult& result) {
      if (args.size() != 1) return result.fail(usage(*ctx.interpreter.find("why")));
      result.out(formatProvenance(ctx.workbench, ctx.workbench.provenance(args[0]), ctx.style));
    };
    out.push_back(std::move(c));
  }
  {
    Command c;
    c.name = "config";
    c.syntax = {"config"};
    c.summary = "List registered config keys with kinds, defaults, values and descriptions";
    c.help = "Keys are registered by the passes that read them. Change one with `set KEY VALUE`.";
    c.run = [](CommandContext& ctx, CommandArgs& args, CommandResult& result) {
      if (tooMany(ctx, args, 0, "config", result)) return;
      result.out(formatConfigKeys(ctx.workbench, ctx.style));
    };
    out.push_back(std::move(c));
  }
}

}  // namespace passlab
