// Session commands: load, reproduce, pipeline, passes, restart, set, save,
// source, help, quit.
#include <fstream>
#include <sstream>

#include "core/interp/interp_limits.h"
#include "core/workbench/reduce.h"
#include "core/workbench/reproducer.h"
#include "codegen/codegen.h"
#include "repl/batch.h"
#include "repl/batch_report.h"
#include "report/html_report.h"
#include "core/workbench/value_text.h"
#include "repl/model_files.h"
#include "repl/codegen_backend.h"
#include "passes/build_pipeline.h"
#include "repl/command_util.h"
#include "repl/format.h"
#include "repl/save_graph.h"
#include "core/support/strings.h"
#include "core/workbench/setting_keys.h"

namespace passlab {
namespace {

using namespace command_util;

void writeFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw WorkbenchError("cannot write '" + path + "'");
}

std::string discardedNote(int discarded, const Workbench& wb) {
  if (discarded <= 0) return "";
  return "discarded " + std::to_string(discarded) + (discarded == 1 ? " recorded event" : " recorded events") +
         " after #" + std::to_string(wb.cursor()) + "; the next step runs with the new setting\n";
}

/// `set syntax tvmscript|relay|auto`: the print syntax. Printing only, so the
/// recorded trace stays as it is.
void runSetSyntax(CommandContext& ctx, CommandArgs& args, CommandResult& result) {
  Workbench& wb = ctx.workbench;
  if (args.size() > 2) return result.fail("unexpected argument '" + args[2] + "'; usage: set syntax tvmscript|relay|auto");
  if (args.size() == 2) {
    if (args[1] == "auto") {
      wb.setPrintSyntax(std::nullopt);
    } else if (std::optional<TextSyntax> syntax = textSyntaxFromName(args[1])) {
      wb.setPrintSyntax(syntax);
    } else {
      return result.fail("unknown syntax '" + args[1] + "'; choices: tvmscript, relay, auto (the syntax the module was loaded in)");
    }
  }
  result.out("syntax = " + formatPrintSyntax(wb) + "\n");
}

/// "4G", "512M", "1048576": a byte count with an optional binary K/M/G/T suffix.
int64_t parseByteSize(const std::string& text) {
  std::string t = text;
  while (!t.empty() && t.back() == ' ') t.pop_back();
  int shift = 0;
  if (!t.empty()) {
    switch (std::toupper(static_cast<unsigned char>(t.back()))) {
      case 'K': shift = 10; break;
      case 'M': shift = 20; break;
      case 'G': shift = 30; break;
      case 'T': shift = 40; break;
      default: break;
    }
    if (shift) t.pop_back();
  }
  const std::string range = "a byte count from 1M to 1024T (e.g. 512M, 8G)";
  if (t.empty() || t.find_first_not_of("0123456789") != std::string::npos)
    throw std::invalid_argument("expected " + range + ", got '" + text + "'");
  uint64_t n = 0;
  for (char c : t) {
    if (n > (uint64_t{1} << 50)) throw std::invalid_argument("expected " + range + ", got '" + text + "'");
    n = n * 10 + static_cast<uint64_t>(c - '0');
  }
  if (n > ((uint64_t{1} << 50) >> shift) || (n << shift) < (uint64_t{1} << 20))
    throw std::invalid_argument("expected " + range + ", got '" + text + "'");
  return static_cast<int64_t>(n << shift);
}

void runSet(CommandContext& ctx, CommandArgs& args, CommandResult& result) {
  Workbench& wb = ctx.workbench;
  if (args.empty()) return result.out(formatSettings(wb, ctx.style));
  const std::optional<SettingKey> setting = settingKeyFromName(args[0]);
  if (setting == SettingKey::NumericCheck) return runSetNumericCheck(ctx, args, result);
  if (setting == SettingKey::Syntax) return runSetSyntax(ctx, args, result);
  if (args.size() < 2) return result.fail(usage(*ctx.interpreter.find("set")));
  const std::string key = args[0];
  std::string value = args.rest(1);
  int discarded = 0;
  try {
  if (setting == SettingKey::InterpMaxBytes) {
    interp::setMaxBytes(parseByteSize(value));
    return result.out("interp-max-bytes = " + std::to_string(interp::maxBytes()) + " bytes\n");
  } else if (setting == SettingKey::OptLevel) {
    discarded = wb.setOptLevel(static_cast<int>(parseAttrValueAs(value, AttrValue::Kind::Int).asInt()));
    result.out("opt_level = " + std::to_string(wb.context().optLevel) + "\n");
  } else if (setting == SettingKey::Target) {
    std::string target = parseAttrValueAs(value, AttrValue::Kind::String).asString();
    std::string kind = target.substr(0, target.find(' '));
    // Kinds the code generators build: their -mcpu must name a processor LLVM knows.
    if (kind == "llvm" || kind == "c" || kind == "cpu" || kind == "host" || kind == "hexagon") parseTargetWord(target);
    discarded = wb.setTarget(std::move(target));
    result.out("target = " + wb.context().target + "\n");
  } else if (setting == SettingKey::Threads) {
    int64_t n = parseAttrValueAs(value, AttrValue::Kind::Int).asInt();
    if (n < 1 || n > 256) return result.fail("threads takes a count from 1 to 256");
    codegen::setThreadCount(static_cast<int>(n));
    result.out("threads = " + std::to_string(codegen::threadCount()) +
               " (host code built from now on runs its parallel loops on this many threads)\n");
  } else if (setting == SettingKey::PrintConstants) {
    auto style = constantStyleFromName(value);
    if (!style) return result.fail("print-constants takes inline or ref (large constants as meta[relay.Constant][N])");
    wb.setConstantStyle(*style);
    result.out("print-constants = " + std::string(constantStyleName(*style)) + "\n");
  } else if (setting == SettingKey::DisabledPass || setting == SettingKey::RequiredPass) {
    std::set<std::string> passes = value == "none" ? std::set<std::string>{} : splitSet(value);
    discarded = setting == SettingKey::DisabledPass ? wb.setDisabledPasses(passes) : wb.setRequiredPasses(passes);
    result.out(key + " = " + (passes.empty() ? std::string("(none)") : value) + "\n");
  } else if (key.rfind("executor.", 0) == 0 || key.rfind("runtime.", 0) == 0 || key.rfind("module.", 0) == 0) {
    size_t dot = key.find('.');
    std::string attr = key.substr(0, dot), field = key.substr(dot + 1);
    if (attr == "module") attr = field, field.clear();
    if (attr.empty()) return result.fail("expected a module attribute name after 'module.'");
    AttrValue v;
    try {
      v = parseAttrValueText(value);
    } catch (const std::invalid_argument& e) {
      return result.fail(e.what());
    }
    wb.setModuleAttr(attr, field, v);
    result.out("module attribute " + attr + " = " + wb.event(0).after->attrs.find(attr)->toString() +
               "; the input changed, so the trace restarts at #0\n");
  } else {
    try {
      discarded = wb.setConfigText(key, value);
    } catch (const std::invalid_argument& e) {
      return result.fail(e.what());
    }
    result.out(key + " = " + wb.context().explicitConfig().find(key)->toString() + "\n");
  }
  } catch (const std::invalid_argument& e) {
    // A value that does not parse as the key's type is the user's error, not an internal one.
    return result.fail("set " + key + ": " + e.what());
  }
  result.out(discardedNote(discarded, wb));
}

void runSave(CommandContext& ctx, CommandArgs& args, CommandResult& result) {
  Workbench& wb = ctx.workbench;
  bool before = args.takeFlag("--before");
  bool withIR = args.takeFlag("--ir");
  if (args.size() < 2) return result.fail(usage(*ctx.interpreter.find("save")));
  const std::string what = args[0], path = args[1];
  if (what == "graph") return runSaveGraph(ctx, args, before, result);
  if (what == "module") {
    if (tooMany(ctx, args, 2, "save", result)) return;
    writeFile(path, wb.moduleFileText(wb.cursor(), before ? Side::Before : Side::After));
    result.out("wrote the module " + std::string(before ? "before" : "after") + " #" + std::to_string(wb.cursor()) + " to " + path + "\n");
  } else if (what == "trace") {
    if (tooMany(ctx, args, 2, "save", result)) return;
    writeFile(path, wb.traceJson(withIR));
    result.out("wrote the trace (" + std::to_string(wb.trace().events().size()) + " events) to " + path + "\n");
  } else if (what == "chrome") {
    if (tooMany(ctx, args, 2, "save", result)) return;
    writeFile(path, wb.chromeTraceJson());
    result.out("wrote Chrome trace-event timing to " + path + " (open it in Perfetto or chrome://tracing)\n");
  } else if (what == "report") {
    if (tooMany(ctx, args, 2, "save", result)) return;
    ReportStats stats;
    ReportOptions options = reportOptions(wb);
    // A report of a big model takes seconds: its sections and changed events
    // show on the status line, and Ctrl-C stops it before the file is written.
    if (ctx.interpreter.statusLine) options.progress = [&ctx](const std::string& text) { ctx.interpreter.statusLine({text}); };
    wb.clearCancel();  // a Ctrl-C from before this command is not for it
    options.cancelled = [&wb] { return wb.cancelRequested(); };
    std::string page;
    try {
      page = renderHtmlReport(wb, options, &stats);
    } catch (const WorkbenchError&) {
      wb.clearCancel();
      throw;
    }
    wb.clearCancel();
    writeFile(path, page);
    result.out("wrote the report (" + std::to_string(stats.events) + " events, " + std::to_string(stats.changedEvents) +
               " changed, " + std::to_string(stats.diffs) + " function diffs, " + std::to_string((stats.bytes + 1023) / 1024) +
               " KiB) to " + path + "; open it in a browser\n");
  } else if (what == "repro") {
    if (tooMany(ctx, args, 3, "save", result)) return;
    int id = args.size() > 2 ? parseEventId(args[2]) : wb.lastFailure();
    if (id < 0) return result.fail("no failed event to write a reproducer for");
    std::string written = writeReproducer(path, wb.reproducer(id));
    result.out("wrote a reproducer of #" + std::to_string(id) + " " + wb.event(id).pass + " to " + written +
               "; replay with `passlab --reproduce " + path + "`\n");
  } else {
    result.fail("cannot save '" + what + "'; " + usage(*ctx.interpreter.find("save")));
  }
}

void runReproduce(CommandContext& ctx, CommandArgs& args, CommandResult& result) {
  if (args.size() != 1) return result.fail(usage(*ctx.interpreter.find("reproduce")));
  replayReproducer(ctx, args[0], result);
}

}  // namespace

bool replayReproducer(CommandContext& ctx, const std::string& path, CommandResult& result) {
  Workbench& wb = ctx.workbench;
  Reproducer repro = readReproducer(path);
  wb.loadReproducer(repro);
  if (!repro.predicate.empty()) {
    // A reducer's reproducer: the pipeline runs, then its predicate is checked.
    std::vector<std::string> words;
    std::stringstream in(repro.predicate);
    for (std::string w; in >> w;) words.push_back(w);
    BisectPredicate predicate = parseBisectPredicate(words);
    result.out("loaded reproducer " + path + ": pipeline " + wb.pipelineSpec() + ", predicate " + describeBisectPredicate(predicate) + "\n");
    result.out(formatMove(wb, wb.run(), ctx.style));
    BisectProbe probe = evaluatePredicateAtEnd(wb, predicate);
    result.out(std::string(probe.holds ? "reproduced: " : "did not reproduce: ") + probe.detail + "\n");
    return probe.holds;
  }
  result.out("loaded reproducer " + path + ": pipeline " + wb.pipelineSpec() + ", recorded failure of " + repro.failedPass +
             (repro.failureRule.empty() ? "" : " (" + repro.failureRule + ")") + "\n");
  result.out(formatMove(wb, wb.run(), ctx.style));
  int failed = wb.lastFailure();
  if (failed >= 0 && sameFailure(repro, wb.event(failed))) {
    result.out("reproduced: " + repro.failedPass + " failed as recorded\n");
    return true;
  }
  if (failed >= 0) {
    result.out("did not reproduce: #" + std::to_string(failed) + " " + wb.event(failed).pass + " failed differently\n");
  } else {
    result.out("did not reproduce: the pipeline ran without a failure\n");
  }
  return false;
}

void addSessionCommands(std::vector<Command>& out) {
  {
    Command c;
    c.name = "load";
    c.syntax = {"load [--no-check] <file>", "load [--no-check] --input-shape <name=dims> <file>"};
    c.summary = "Load a Relay text or TVMScript module, or an ONNX model (the trace restarts at #0)";
    c.help = "Parses FILE (or imports it, when it ends in .onnx) and infers types. FILE is TVMScript when it ends in "
             ".py or its first statements are (`# from tvm.script import ...`, `@I.ir_module`, `@R.function`, "
             "`@T.prim_func`), else Relay text; `load` says which, and IR then prints in that syntax unless `set "
             "syntax` chose one; a parse, import or type error "
             "fails the load and leaves the session as it was. `--no-check` skips type inference, to load an "
             "ill-typed module on purpose and watch a pass meet it. `--input-shape data=1,3,224,224` binds the "
             "dynamic dimensions of an ONNX graph input (repeatable). The pipeline, configuration and breakpoints "
             "are kept.";
    c.run = [](CommandContext& ctx, CommandArgs& args, CommandResult& result) {
      LoadOptions options;
      options.typeCheck = !args.takeFlag("--no-check");
      LoadModelOptions modelOptions;
      std::vector<std::string> files;
      for (size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--input-shape") {
          if (i + 1 == args.size()) return result.fail("--input-shape needs NAME=D0,D1,...");
          addInputShapeBinding(args[++i], modelOptions.onnx);
        } else if (args[i].rfind("--input-shape=", 0) == 0) {
          addInputShapeBinding(std::string_view(args[i]).substr(14), modelOptions.onnx);
        } else {
          files.push_back(args[i]);
        }
      }
      if (files.size() != 1) return result.fail(usage(*ctx.interpreter.find("load")));
      const std::string& file = files.front();
      loadModelInto(ctx.workbench, file, options, modelOptions);
      // An imported model has no syntax of its own to report.
      result.out(formatLoaded(ctx.workbench, file, !isOnnxPath(file)));
    };
    out.push_back(std::move(c));
  }
  {
    Command c;
    c.name = "reproduce";
    c.syntax = {"reproduce <file>"};
    c.summary = "Load a reproducer written by `save repro` and run it";
    c.help = "Replaces the configuration, module and pipeline with the reproducer's, runs it, and says whether "
             "the recorded failure happened again (same pass, rule and message). Same as `passlab --reproduce FILE`, "
             "which exits 0 when it reproduced and 1 when it did not (or could not run).";
    c.run = runReproduce;
    out.push_back(std::move(c));
  }
  {
    Command c;
    c.name = "pipeline";
    c.syntax = {"pipeline [show]", "pipeline <spec>"};
    c.summary = "Set or show the pass pipeline";
    c.help = "SPEC is the textual pipeline syntax (docs/pipelines.md), e.g. "
             "`InferType,SimplifyExpr,FuseOps{max_depth=4}`. Setting a pipeline restarts the trace at #0; errors "
             "point at the column. A named pipeline stands for its passes anywhere in SPEC "
             "(`pipeline relay.default`, `pipeline SimplifyExpr,relax.default`); the named pipelines are:\n";
    for (const NamedPipeline& p : builtinNamedPipelines())
      c.help += "\n- `" + p.name + "` = `" + p.spec + "`: " + p.description;
    c.run = [](CommandContext& ctx, CommandArgs& args, CommandResult& result) {
      Workbench& wb = ctx.workbench;
      if (args.empty() || (args.size() == 1 && args[0] == "show")) {
        const auto& passes = wb.pipelinePasses();
        if (passes.empty()) return result.out("no pipeline set\n");
        for (size_t i = 0; i < passes.size(); ++i) {
          int ev = wb.eventOfPass(i);
          std::string state = i < wb.passesExecuted() ? (ev >= 0 ? "#" + std::to_string(ev) : "not run") : "pending";
          result.out(std::to_string(i + 1) + ". " + pipelineText(*passes[i]) + "  " + state + "\n");
        }
        return;
      }
      wb.setPipeline(args.rest(0));
      size_t n = wb.pipelinePasses().size();
      result.out("pipeline: " + wb.pipelineSpec() + " (" + std::to_string(n) + (n == 1 ? " pass)\n" : " passes)\n"));
    };
    out.push_back(std::move(c));
  }
  {
    Command c;
    c.name = "passes";
    c.syntax = {"passes"};
    c.summary = "List the registered passes";
    c.run = [](CommandContext& ctx, CommandArgs& args, CommandResult& result) {
      if (tooMany(ctx, args, 0, "passes", result)) return;
      for (const PassRegistration* r : ctx.workbench.registry().all()) {
        std::string line = ctx.style.bold(r->info.name) + " (opt_level " + std::to_string(r->info.optLevel) + ")";
        if (!r->options.empty()) {
          line += " options:";
          for (const PassOptionInfo& o : r->options) line += " " + o.name + "=" + o.defaultValue.toString();
        }
        result.out(line + "\n    " + r->info.description + "\n");
      }
    };
    out.push_back(std::move(c));
  }
  {
    Command c;
    c.name = "restart";
    c.syntax = {"restart"};
    c.summary = "Discard the trace and start the pipeline again at #0";
    c.run = [](CommandContext& ctx, CommandArgs& args, CommandResult& result) {
      if (tooMany(ctx, args, 0, "restart", result)) return;
      ctx.workbench.restart();
      result.out("restarted at #0\n");
    };
    out.push_back(std::move(c));
  }
  {
    Command c;
    c.name = "set";
    c.syntax = {"set", "set <key> <value>", "set syntax tvmscript|relay|auto", "set numeric-check on|off [seed|inputs] [<value>]"};
    c.summary = "Set a PassContext config key or a setting (opt_level, target, syntax, executor.*)";
    c.help = "KEY is a registered config key (see `config`; the value is checked against its kind), or one of: "
             "opt_level N; target TEXT (e.g. `llvm`, `hexagon -mcpu=hexagonv68`); disabled_pass A,B; "
             "required_pass A,B; syntax tvmscript|relay|auto, the syntax all IR prints in (show, diff, changes, save "
             "module/repro/report, edit; `auto`, the default, is the syntax the module was loaded in; printing only, "
             "nothing recorded is discarded); print-constants inline|ref (ref, the default: a non-scalar constant of "
             "more than 16 elements prints as meta[relay.Constant][N], N stable for the session, see `show const N`); "
             "executor.FIELD / runtime.FIELD / module.ATTR VALUE, which change a module "
             "attribute of the loaded module (and so restart the trace); numeric-check on [seed N | inputs FILE] / off, "
             "which compares @main with the loaded module after every pass (see `numeric`); interp-max-bytes SIZE (e.g. 8G), "
             "the memory budget of one interpreter evaluation (default a quarter of physical memory); threads N, the size of "
             "the process's thread pool that host code built from then on runs its outer parallel loops on (default 1, "
             "reproducible profiles). Changing a setting rewrites the future: "
             "events recorded after the cursor are discarded. Without arguments, shows the settings.";
    c.run = runSet;
    out.push_back(std::move(c));
  }
  {
    Command c;
    c.name = "save";
    c.syntax = {"save module <file> [--before]", "save trace <file> [--ir]", "save chrome <file>", "save report <file.html>",
                "save repro <file> [<event>]", "save graph [@<function>] [--event <event>] [--before] [--whole] <file>"};
    c.summary = "Write the IR, the trace JSON, Chrome timing, an HTML report, a reproducer or a graph picture";
    c.help = "`module`: the IR at the cursor (after, or `--before`). `trace`: the trace as JSON, builds and their "
             "stages included with their code (`--ir` adds the printed module after each changed event). `chrome`: "
             "pass and build timing in Chrome's trace-event format for Perfetto. `report`: one self-contained HTML page of "
             "the run as recorded (header, trace tree with change summaries, side-by-side diffs and dataflow graphs per changed "
             "function, attribute timeline, config provenance, diagnostics, numeric check, builds) to open in any browser. "
             "`repro`: a reproducer of a failed event (default: the last failure) — a single file, or a "
             "directory when FILE ends with '/' or is one; replay it with `passlab --reproduce FILE`. `graph`: the dataflow graph of a function (default @main) at the cursor "
             "or `--event N`, after the event (or `--before`), coloured by what the event changed, as SVG (FILE.svg, laid "
             "out by Graphviz) or DOT (FILE.dot). A graph taller than about 4,000 px (2,900 pt) is cut between rows of nodes into pages "
             "set side by side, read down one page and on at the top of the next; `--whole` keeps it one tall page.";
    c.run = runSave;
    out.push_back(std::move(c));
  }
  {
    Command c;
    c.name = "source";
    c.syntax = {"source <file> [--keep-going]"};
    c.summary = "Run the commands in a file";
    c.help = "Each line is echoed and run; `#` starts a comment. Stops at the first error unless `--keep-going`.";
    c.run = [](CommandContext& ctx, CommandArgs& args, CommandResult& result) {
      bool keepGoing = args.takeFlag("--keep-going");
      if (args.size() != 1) return result.fail(usage(*ctx.interpreter.find("source")));
      result.append(ctx.interpreter.runScriptFile(args[0], keepGoing));
      if (result.status == CommandStatus::Quit) result.status = CommandStatus::Ok;  // a script's quit ends the script
    };
    out.push_back(std::move(c));
  }
  {
    Command c;
    c.name = "help";
    c.aliases = {"h", "?"};
    c.syntax = {"help [<command>]"};
    c.summary = "List commands, or show one command's usage and help";
    c.run = [](CommandContext& ctx, CommandArgs& args, CommandResult& result) {
      if (tooMany(ctx, args, 1, "help", result)) return;
      if (args.empty()) return result.out(ctx.interpreter.helpIndex());
      const Command* command = ctx.interpreter.find(args[0]);
      if (!command) return result.fail("no command '" + args[0] + "' (`help` lists commands)");
      result.out(ctx.interpreter.helpFor(*command));
    };
    out.push_back(std::move(c));
  }
  {
    Command c;
    c.name = "quit";
    c.aliases = {"q", "exit"};
    c.syntax = {"quit"};
    c.summary = "Leave passlab";
    c.run = [](CommandContext&, CommandArgs&, CommandResult& result) { result.status = CommandStatus::Quit; };
    out.push_back(std::move(c));
  }
}

}  // namespace passlab
