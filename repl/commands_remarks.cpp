// Remark commands: `remarks` (what each pass did or did not rewrite, and why)
// and `why-not` (why two nodes are not in one group or not folded together).
#include "core/workbench/remarks.h"
#include "repl/command_util.h"
#include "repl/format_remarks.h"

namespace passlab {

using namespace command_util;

void addRemarkCommands(std::vector<Command>& out) {
  {
    Command c;
    c.name = "remarks";
    c.syntax = {"remarks [<pass>] [--missed|--applied|--analysis] [<rule>] [%<node>|@<function>] [--event <event>] [--all]",
                "remarks on|off"};
    c.summary = "Pass remarks: why each pass did, or did not, rewrite each node, counted by rule";
    c.help = "Lists the remarks recorded in the trace (docs/remarks.md has every rule id), per event: first a line "
             "counting them by rule, missed first (\"#4 FuseOps: 13 remarks — missed: 4 × fuse.pattern-boundary; "
             "applied: 8 × fuse.group\"), then the remarks themselves, three per rule unless `--all`. Filters: a pass "
             "name, a kind, a rule id (or a prefix such as `fuse.`), a function (`@NAME` also finds LegalizeOps' remarks "
             "on the kernel NAME it made: the schedule a profile row names), a node as `show --before` prints it "
             "at the remark's event, `--event N` for one event and its nested events. Remarks are on by default; "
             "`remarks off` stops recording them (and `remarks on` starts again), discarding the recorded future "
             "like a configuration change.";
    c.run = [](CommandContext& ctx, CommandArgs& args, CommandResult& result) {
      Workbench& wb = ctx.workbench;
      if (args.size() == 1 && (args[0] == "on" || args[0] == "off")) {
        int discarded = wb.setRemarks(args[0] == "on");
        std::string out = "remarks " + args[0];
        if (discarded > 0) out += " (" + std::to_string(discarded) + " later events discarded)";
        return result.out(out + "\n");
      }
      RemarkQuery query;
      bool all = args.takeFlag("--all");
      int kinds = 0;
      for (const char* kind : {"missed", "applied", "analysis"})
        if (args.takeFlag(std::string("--") + kind)) {
          query.kind = parseRemarkKind(kind);
          ++kinds;
        }
      if (kinds > 1) return result.fail("remarks takes one of --missed, --applied and --analysis");
      query.function = args.takeFunction();
      std::vector<std::string> words = args.words();
      for (size_t i = 0; i < words.size(); ++i) {
        const std::string& w = words[i];
        if (w == "--event") {
          if (i + 1 >= words.size()) return result.fail("--event needs an event id");
          query.event = parseEventId(words[++i]);
          wb.event(query.event);  // a clear error for an unknown event
        } else if (!w.empty() && w[0] == '%') {
          query.node = w;
        } else if (wb.registry().find(w)) {
          query.pass = w;
        } else if (findRemarkRule(w) || (w.back() == '.' && w.size() > 1)) {
          query.rule = w;
        } else {
          return result.fail("'" + w + "' is neither a pass nor a remark rule id (see docs/remarks.md)\n" + usage(*ctx.interpreter.find("remarks")));
        }
      }
      if (!wb.loaded()) return result.fail("no module loaded");
      result.out(formatRemarks(wb, findRemarks(wb, query), ctx.style, all));
    };
    out.push_back(std::move(c));
  }
  {
    Command c;
    c.name = "why-not";
    c.syntax = {"why-not %<node> %<node> [<event>]"};
    c.summary = "Why two nodes are not in one group, or not folded together, from the passes' remarks";
    c.help = "Answers from the remarks of the event at the cursor (or EVENT) and its nested events, or of the whole "
             "trace when that event has none: the remarks naming both nodes (the boundary that kept them apart with "
             "its rule and patterns, or the group that holds both), else the remarks naming each. Nodes are named as "
             "`show --before` prints them at that event.";
    c.run = [](CommandContext& ctx, CommandArgs& args, CommandResult& result) {
      if (args.size() < 2 || args.size() > 3) return result.fail(usage(*ctx.interpreter.find("why-not")));
      Workbench& wb = ctx.workbench;
      if (!wb.loaded()) return result.fail("no module loaded");
      int event = args.size() == 3 ? parseEventId(args[2]) : -1;
      if (event >= 0) wb.event(event);
      result.out(formatWhyNot(wb, args[0], args[1], whyNot(wb, args[0], args[1], event), ctx.style));
    };
    out.push_back(std::move(c));
  }
}

}  // namespace passlab
