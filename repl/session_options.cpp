#include "repl/session_options.h"

#include <charconv>

#include "core/pass/pass.h"
#include "core/workbench/value_text.h"
#include "core/support/strings.h"

namespace passlab {

namespace {

/// One row of the table: the option, its value's placeholder ("" for a flag)
/// and its help text.
struct OptionRow {
  const char* name;
  const char* value;
  const char* help;
};

constexpr OptionRow kRows[] = {
    {"--input-shape", "NAME=D0,D1,...", "bind the dynamic dimensions of an ONNX graph input (repeatable)"},
    {"--no-check", "", "load FILE without type inference"},
    {"--pass-pipeline", "SPEC", "the pipeline, e.g. InferType,SimplifyExpr,FuseOps or relay.default"},
    {"--opt-level", "N", "the pass context's opt level"},
    {"--target", "TEXT", "the target, e.g. llvm -mcpu=skylake-avx512"},
    {"--config", "KEY=VALUE", "a pass config value (repeatable)"},
    {"--disabled-pass", "A,B", "passes the pipeline skips"},
    {"--required-pass", "A,B", "passes that run whatever the opt level"},
    {"--syntax", "tvmscript|relay", "print every module in this syntax (default: the syntax FILE is in)"},
    {"--print-constants", "ref|inline", "large constants as meta[relay.Constant][N] (default) or written out inline"},
};

}  // namespace

OptionParse parseSessionOption(const std::vector<std::string>& args, size_t& i, SessionOptions& o, std::string* error) {
  const std::string& arg = args[i];
  const OptionRow* row = nullptr;
  for (const OptionRow& r : kRows) {
    std::string name = r.name;
    if (arg == name || (*r.value && arg.rfind(name + "=", 0) == 0)) row = &r;
  }
  if (!row) return OptionParse::NotMine;
  auto fail = [&](std::string message) {
    if (error) *error = std::move(message);
    return OptionParse::Error;
  };
  const std::string name = row->name;
  if (!*row->value) {
    if (name == "--no-check") o.typeCheck = false;
    return OptionParse::Taken;
  }
  std::string v;
  if (arg == name) {
    if (i + 1 >= args.size()) return fail(name + " needs " + row->value);
    v = args[++i];
  } else {
    v = arg.substr(name.size() + 1);
  }
  if (name == "--input-shape") {
    if (v.empty()) return fail("--input-shape needs NAME=D0,D1,...");
    o.inputShapes.push_back(v);
  } else if (name == "--pass-pipeline") {
    o.pipeline = v, o.hasPipeline = true;
  } else if (name == "--opt-level") {
    int level = 0;
    auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), level);
    if (ec != std::errc() || end != v.data() + v.size()) return fail("--opt-level needs a number, got '" + v + "'");
    o.optLevel = level;
  } else if (name == "--target") {
    o.target = v, o.hasTarget = true;
  } else if (name == "--config") {
    size_t eq = v.find('=');
    if (eq == std::string::npos) return fail("--config needs KEY=VALUE, got '" + v + "'");
    o.config.emplace_back(v.substr(0, eq), v.substr(eq + 1));
  } else if (name == "--disabled-pass") {
    o.disabledPasses = splitList(v);
  } else if (name == "--required-pass") {
    o.requiredPasses = splitList(v);
  } else if (name == "--syntax") {
    o.syntax = textSyntaxFromName(v);
    if (!o.syntax) return fail("--syntax takes tvmscript or relay, got '" + v + "'");
  } else if (name == "--print-constants") {
    auto style = constantStyleFromName(v);
    if (!style) return fail("--print-constants takes inline or ref, got '" + v + "'");
    o.constants = *style;
  }
  return OptionParse::Taken;
}

std::string sessionOptionsUsage() {
  std::string out;
  for (const OptionRow& r : kRows) {
    std::string left = std::string("  ") + r.name + (*r.value ? std::string("=") + r.value : std::string());
    if (left.size() < 33) left.resize(33, ' ');
    else left += "\n" + std::string(33, ' ');
    out += left + r.help + "\n";
  }
  return out;
}

RunSettings sessionRunSettings(const SessionOptions& o) {
  RunSettings settings;
  if (o.optLevel >= 0) settings.optLevel = o.optLevel;
  if (o.hasTarget) settings.target = o.target;
  settings.disabledPasses = {o.disabledPasses.begin(), o.disabledPasses.end()};
  settings.requiredPasses = {o.requiredPasses.begin(), o.requiredPasses.end()};
  for (const auto& [key, text] : o.config) {
    const ConfigKeyInfo* info = ConfigRegistry::global().find(key);
    settings.config.emplace_back(key, info ? parseAttrValueAs(text, info->kind) : parseAttrValueText(text));
  }
  return settings;
}

void applyPrintOptions(Workbench& wb, const SessionOptions& o) {
  if (o.syntax) wb.setPrintSyntax(o.syntax);
  wb.setConstantStyle(o.constants);
}

void applyRunSettings(Workbench& wb, const SessionOptions& o) {
  RunSettings settings = wb.runSettings();
  if (o.optLevel >= 0) settings.optLevel = o.optLevel;
  if (o.hasTarget) settings.target = o.target;
  if (!o.disabledPasses.empty()) settings.disabledPasses = {o.disabledPasses.begin(), o.disabledPasses.end()};
  if (!o.requiredPasses.empty()) settings.requiredPasses = {o.requiredPasses.begin(), o.requiredPasses.end()};
  RunSettings given = sessionRunSettings(o);
  settings.config.insert(settings.config.end(), given.config.begin(), given.config.end());
  if (o.optLevel >= 0 || o.hasTarget || !o.config.empty() || !o.disabledPasses.empty() || !o.requiredPasses.empty())
    wb.setRunSettings(settings);
}

void applyRunOptions(Workbench& wb, const SessionOptions& o) {
  applyRunSettings(wb, o);
  if (o.hasPipeline) wb.setPipeline(o.pipeline);
}

}  // namespace passlab
