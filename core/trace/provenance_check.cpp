#include "core/trace/provenance_check.h"

#include <cctype>
#include <optional>

#include "core/pass/target.h"

namespace passlab {

namespace {

/// Lower case with '-' as '_': "link-params" and "link_params" are one name.
std::string normalized(std::string_view s) {
  std::string out;
  for (char c : s) out += c == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view lastComponent(std::string_view key) {
  size_t dot = key.rfind('.');
  return dot == std::string_view::npos ? key : key.substr(dot + 1);
}

/// Booleans and integers compare by value (link-params=1 is True).
bool sameValue(const AttrValue& a, const AttrValue& b) {
  using Kind = AttrValue::Kind;
  auto numeric = [](Kind k) { return k == Kind::Bool || k == Kind::Int; };
  if (numeric(a.kind()) && numeric(b.kind())) return a.asInt() == b.asInt();
  return a == b;
}

struct ContextOpinion {
  AttrValue value;
  std::string source;
};

/// What `context` says about the setting named `field`, if anything.
std::optional<ContextOpinion> contextOpinion(const std::string& field, const ContextSettings& context) {
  const std::string wanted = normalized(field);
  if (wanted == "target") return ContextOpinion{AttrValue::string(context.target), "that is its target"};
  for (const auto& [key, value] : context.config.entries())
    if (normalized(lastComponent(key)) == wanted) return ContextOpinion{value, key + " is set there"};
  if (!context.target.empty()) {
    try {
      if (std::optional<AttrValue> v = targetOption(parseTarget(context.target), field))
        return ContextOpinion{*v, "its target \"" + context.target + "\" has -" + field + "=" + v->toString()};
    } catch (const DiagnosticError&) {
      // A malformed target says nothing; the pass reading it reported that already.
    }
  }
  for (const ConfigKeyInfo* info : ConfigRegistry::global().all()) {
    if (normalized(lastComponent(info->key)) != wanted) continue;
    std::string how = info->key + " is not set there and ";
    how += context.target.empty() ? "it has no target" : "its target \"" + context.target + "\" has no -" + field;
    return ContextOpinion{info->defaultValue, how + ", so the default applies"};
  }
  return std::nullopt;
}

}  // namespace

std::vector<ProvenanceConflict> findProvenanceConflicts(const std::vector<ConfigRead>& reads, const ContextSettings& context) {
  std::vector<ProvenanceConflict> out;
  if (context.depth == 0) return out;
  for (const ConfigRead& read : reads) {
    if (read.source != ConfigSource::ModuleAttr) continue;
    const std::string field(lastComponent(read.key));
    std::optional<ContextOpinion> opinion = contextOpinion(field, context);
    if (!opinion || sameValue(read.value, opinion->value)) continue;
    ProvenanceConflict c;
    c.pass = read.pass;
    c.contextName = context.name;
    c.contextTarget = context.target;
    c.key = read.key;
    c.value = read.value;
    c.source = read.source;
    c.contextValue = opinion->value;
    c.contextSource = opinion->source;
    c.message = read.pass + " in nested context " + context.name + " read " + read.key + " = " + read.value.toString() +
                " from the module attribute, but its own context says " + field + " = " + opinion->value.toString() + ": " +
                opinion->source + ". The module's setting leaked into a context opened clean.";
    out.push_back(std::move(c));
  }
  return out;
}

void ProvenanceCheckInstrument::enterPass(const Pass&, const IRModule&, PassContext&) { open_.emplace_back(); }

void ProvenanceCheckInstrument::exitPass(const Pass&, PassContext&) {
  if (!open_.empty()) open_.pop_back();
}

void ProvenanceCheckInstrument::onConfigRead(const ConfigRead& read) {
  if (!open_.empty()) open_.back().push_back(read);
}

void ProvenanceCheckInstrument::afterPass(const Pass&, const IRModule&, const IRModule&, PassContext& ctx) {
  if (open_.empty() || ctx.depth() == 0) return;
  ContextSettings settings{ctx.name(), ctx.depth(), ctx.target, ctx.explicitConfig()};
  for (const ProvenanceConflict& c : findProvenanceConflicts(open_.back(), settings)) {
    Diagnostic d;
    d.severity = Severity::Warning;
    d.rule = kProvenanceLeakRule;
    d.message = c.message;
    ctx.notifyDiagnostic(d);
  }
}

std::vector<PassInstrumentPtr> defaultCheckInstruments() { return {std::make_shared<ProvenanceCheckInstrument>()}; }

}  // namespace passlab
