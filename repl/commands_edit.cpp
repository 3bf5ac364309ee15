// Edit and continue: edit (through $VISUAL/$EDITOR or --from FILE), branches,
// and `diff --branch`.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/text/load_text.h"
#include "repl/command_util.h"

namespace passlab {
namespace {

using namespace command_util;

std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw WorkbenchError("cannot read '" + path + "'");
  std::stringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

/// A shell word: the text in single quotes.
std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

/// What an edit did, for the user.
std::string describeEdit(const Workbench& wb, int id, int branchesBefore) {
  const TraceEvent& ev = wb.event(id);
  const EditRecord& rec = wb.editRecords().back();
  std::string changed;
  for (const std::string& f : ev.changedFunctions) changed += (changed.empty() ? "@" : ", @") + f;
  if (ev.moduleAttrsChanged) changed += std::string(changed.empty() ? "" : ", ") + "module attributes";
  std::string out = "edit #" + std::to_string(id) + " after #" + std::to_string(rec.editedAt) + " " + wb.event(rec.editedAt).pass + ": " +
                    (changed.empty() ? std::string("nothing changed") : changed + " changed") + "\n";
  const std::vector<BranchInfo> all = wb.branches();
  if (static_cast<int>(all.size()) > branchesBefore) {
    const BranchInfo& now = all[static_cast<size_t>(wb.activeBranch())];
    out += "the recorded future stays on branch b" + std::to_string(now.parent) + "; now on branch b" + std::to_string(now.id) +
           " (`branches` lists them, `goto b" + std::to_string(now.parent) + ":N` goes back)\n";
  }
  if (wb.passesExecuted() < wb.pipelinePasses().size())
    out += "the pipeline continues from here: next is " + pipelineText(*wb.pipelinePasses()[wb.passesExecuted()]) + "\n";
  return out;
}

/// Opens `path` in the user's editor, at `line` when known (vi, vim, nano, emacs
/// and most others take `+LINE`). Returns the editor's exit status.
int openEditor(const std::string& editor, const std::string& path, uint32_t line) {
  std::string command = editor + (line > 0 ? " +" + std::to_string(line) : "") + " " + quoted(path);
  return std::system(command.c_str());
}

void runEdit(CommandContext& ctx, CommandArgs& args, CommandResult& result) {
  Workbench& wb = ctx.workbench;
  if (!wb.loaded()) return result.fail("no module loaded");
  const std::string function = args.takeFunction();
  std::string from;
  if (!args.empty()) {
    if (args[0] != "--from" || args.size() != 2) return result.fail(usage(*ctx.interpreter.find("edit")));
    from = args[1];
  }
  const int branchesBefore = static_cast<int>(wb.branches().size());
  if (!from.empty()) {
    int id = wb.edit(readFile(from), function, from);
    return result.out(describeEdit(wb, id, branchesBefore));
  }

  const char* visual = std::getenv("VISUAL");
  const char* editorEnv = visual && *visual ? visual : std::getenv("EDITOR");
  if (!editorEnv || !*editorEnv) return result.fail("set $VISUAL or $EDITOR to edit interactively, or give the text with `edit --from FILE`");
  const std::string editor = editorEnv;
  const std::string original = wb.moduleText(wb.cursor(), Side::After, function);
  std::string path = (std::filesystem::temp_directory_path() /
                      ("passlab-edit-" + std::to_string(::getpid()) + "-" + std::to_string(wb.cursor()) +
                       (function.empty() ? "" : "-" + function) + std::string(textSyntaxExtension(wb.printSyntax()))))
                         .string();
  {
    std::ofstream out(path, std::ios::binary);
    out << original;
    if (!out) throw WorkbenchError("cannot write '" + path + "'");
  }
  uint32_t line = 0;
  std::string lastBad;
  for (int attempt = 1;; ++attempt) {
    int status = openEditor(editor, path, line);
    if (status != 0) return result.fail("the editor (" + editor + ") exited with status " + std::to_string(status) + "; nothing changed, the text is kept in " + path);
    std::string text = readFile(path);
    if (text == original) {
      std::filesystem::remove(path);
      return result.out("edit: no change; nothing done\n");
    }
    try {
      int id = wb.edit(text, function, path);
      std::filesystem::remove(path);
      return result.out(describeEdit(wb, id, branchesBefore));
    } catch (const DiagnosticError& e) {
      result.err(e.renderAll() + "\n");
      // Back to the editor at the first error, unless it cannot be fixed there:
      // no terminal (a script's editor), or the same broken text saved twice.
      if (text == lastBad || attempt >= 5 || !isatty(STDIN_FILENO))
        return result.fail("the edit does not parse or type-check; nothing changed, the edited text is kept in " + path);
      lastBad = text;
      line = e.diagnostics().empty() ? 0 : e.diagnostics().front().span.line;
    }
  }
}

void runBranches(CommandContext& ctx, CommandArgs& args, CommandResult& result) {
  if (tooMany(ctx, args, 0, "branches", result)) return;
  Workbench& wb = ctx.workbench;
  if (!wb.loaded()) return result.fail("no module loaded");
  std::string out;
  for (const BranchInfo& b : wb.branches()) {
    std::string line = std::string(b.active ? "* " : "  ") + "b" + std::to_string(b.id) + "  " + b.description;
    if (b.parent >= 0) line += " (forked from b" + std::to_string(b.parent) + " at #" + std::to_string(b.forkEvent) + ")";
    line += ": " + std::to_string(b.events) + " events, " + std::to_string(b.passesRun) + "/" + std::to_string(wb.pipelinePasses().size()) +
            " passes run, cursor #" + std::to_string(b.cursor);
    out += (b.active ? ctx.style.bold(line) : line) + "\n";
  }
  if (wb.branches().size() == 1) out += "(one branch: `edit` at an event with a recorded future forks a new one)\n";
  result.out(out);
}

}  // namespace

void runDiffBranch(CommandContext& ctx, CommandArgs& args, CommandResult& result) {
  Workbench& wb = ctx.workbench;
  const std::string function = args.takeFunction();
  const bool text = args.takeFlag("--text");
  int branch = -1, id = wb.cursor();
  for (const std::string& w : args.words()) {
    if (isBranchRef(w) && branch < 0) {
      auto [b, ev] = parseBranchRef(w);
      if (ev >= 0) return result.fail("`diff --branch` takes a branch (b1) and optionally an event of the active branch, got '" + w + "'");
      branch = b;
    } else {
      id = parseEventId(w);
    }
  }
  if (branch < 0) {
    // Default: the branch this one forked from (or the first fork of branch 0).
    for (const BranchInfo& b : wb.branches())
      if (b.active && b.parent >= 0) branch = b.parent;
    if (branch < 0)
      for (const BranchInfo& b : wb.branches())
        if (b.parent == wb.activeBranch()) {
          branch = b.id;
          break;
        }
    if (branch < 0) return result.fail("there is only one branch: `edit` forks one");
  }
  std::string diff = wb.diffBranch(branch, id, function, !text);
  result.out(diff.empty() ? "no differences between b" + std::to_string(branch) + " and b" + std::to_string(wb.activeBranch()) + " at " +
                                wb.event(id).pass + "\n"
                          : diff);
}

void addEditCommands(std::vector<Command>& out) {
  {
    Command c;
    c.name = "edit";
    c.syntax = {"edit [@<function>]", "edit [@<function>] --from <file>"};
    c.summary = "Edit the IR at the cursor and continue the pipeline from the edit";
    c.help = "Opens the module at the cursor (or one function) in $VISUAL or $EDITOR, printed in the print syntax "
             "(`set syntax`); `--from FILE` takes the text from a file instead (scripts). Either syntax is read back, "
             "Relay or TVMScript, whichever the text is in. The text is parsed and type-checked: an error changes nothing, and the editor "
             "reopens at the error's line with the text as you left it. A successful edit becomes an `edit` event "
             "after the cursor's last completed top-level event (at a failed pass: before it, so that pass runs again "
             "on the edit), and `step`/`run` continue the pipeline from there. Events recorded after that point are "
             "not thrown away: they stay on their branch and the edit starts a new one (`branches`, `goto b0:7`, "
             "`diff --branch b0`). The trace JSON and reproducers record edits.";
    c.run = runEdit;
    out.push_back(std::move(c));
  }
  {
    Command c;
    c.name = "branches";
    c.syntax = {"branches"};
    c.summary = "List the branches edits forked: what made each, events recorded, cursor";
    c.help = "b0 is the loaded module's line; each `edit` that had a recorded future after it forks a new branch that "
             "shares the events before the edit. `*` marks the active branch. `goto bN:EVENT` moves to any event of "
             "any branch; `diff --branch bN` compares the cursor's pass with the same pass on bN.";
    c.run = runBranches;
    out.push_back(std::move(c));
  }
}

}  // namespace passlab
