#include "core/trace/trace_json.h"

#include "core/trace/change_summary.h"
#include "core/ir/severity_names.h"
#include "core/trace/remark_nodes.h"

#include <cmath>
#include <cstdio>

namespace passlab {


std::string jsonString(std::string_view text) {
  std::string out = "\"";
  out.reserve(text.size() + 2);
  for (char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buffer[8];
          std::snprintf(buffer, sizeof buffer, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          out += buffer;
        } else {
          out += c;  // UTF-8 passes through unchanged
        }
    }
  }
  return out + "\"";
}

static std::string jsonNumber(double v) {
  if (!std::isfinite(v)) return std::isnan(v) ? "\"nan\"" : (v > 0 ? "\"inf\"" : "\"-inf\"");
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", v);
  // Prefer the shorter form when it reads back identically.
  char shorter[40];
  std::snprintf(shorter, sizeof shorter, "%.6g", v);
  return std::stod(shorter) == v ? shorter : buffer;
}

/// Fixed-precision number for times (microsecond resolution is what profilers show).
static std::string jsonTime(double v) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.3f", std::isfinite(v) ? v : 0.0);
  return buffer;
}

std::string attrValueToJson(const AttrValue& value) {
  switch (value.kind()) {
    case AttrValue::Kind::None: return "null";
    case AttrValue::Kind::Bool: return value.asBool() ? "true" : "false";
    case AttrValue::Kind::Int: return std::to_string(value.asInt());
    case AttrValue::Kind::Float: return jsonNumber(value.asFloat());
    case AttrValue::Kind::String: return jsonString(value.asString());
    case AttrValue::Kind::Array: {
      std::string out = "[";
      for (const AttrValue& item : value.asArray()) out += (out.size() > 1 ? "," : "") + attrValueToJson(item);
      return out + "]";
    }
    case AttrValue::Kind::Dict: {
      std::string out = "{";
      for (const auto& [key, item] : value.asDict().entries())
        out += (out.size() > 1 ? "," : "") + jsonString(key) + ":" + attrValueToJson(item);
      return out + "}";
    }
    case AttrValue::Kind::MetaRef: return jsonString(value.toString());
  }
  return "null";
}

namespace {

/// Appends `"key":value` pairs with commas handled.
class JsonObject {
 public:
  JsonObject& field(std::string_view key, const std::string& rawJson) {
    text_ += (text_.size() > 1 ? "," : "") + jsonString(key) + ":" + rawJson;
    return *this;
  }
  JsonObject& str(std::string_view key, std::string_view value) { return field(key, jsonString(value)); }
  JsonObject& num(std::string_view key, int64_t value) { return field(key, std::to_string(value)); }
  JsonObject& boolean(std::string_view key, bool value) { return field(key, value ? "true" : "false"); }
  std::string done() { return text_ + "}"; }

 private:
  std::string text_ = "{";
};

template <class T, class F>
std::string jsonArray(const std::vector<T>& items, F&& toJson) {
  std::string out = "[";
  for (const T& item : items) out += (out.size() > 1 ? "," : "") + toJson(item);
  return out + "]";
}


std::string diagnosticJson(const Diagnostic& d) {
  return JsonObject()
      .str("severity", severityName(d.severity))
      .str("rule", d.rule)
      .str("message", d.message)
      .str("function", d.function)
      .str("location", d.span.location())
      .done();
}

std::string countsJson(const EditCounts& c) {
  return JsonObject()
      .num("kept", c.kept)
      .num("updated", c.updated)
      .num("inserted", c.inserted)
      .num("deleted", c.deleted)
      .num("moved", c.moved)
      .num("folded", c.folded)
      .done();
}

std::string_view functionEditKindName(FunctionEdit::Kind k) {
  switch (k) {
    case FunctionEdit::Kind::Kept: return "kept";
    case FunctionEdit::Kind::Changed: return "changed";
    case FunctionEdit::Kind::Added: return "added";
    case FunctionEdit::Kind::Removed: return "removed";
    case FunctionEdit::Kind::Renamed: return "renamed";
  }
  return "?";
}

std::string changesJson(const ModuleEdits& m, bool script) {
  JsonObject o;
  o.str("summary", changeSummary(m));
  o.field("ops", countsJson(m.ops)).field("nodes", countsJson(m.nodes));
  std::vector<const FunctionEdit*> changed;
  for (const FunctionEdit& f : m.functions)
    if (f.kind != FunctionEdit::Kind::Kept) changed.push_back(&f);
  o.field("functions", jsonArray(changed, [](const FunctionEdit* f) {
    return JsonObject()
        .str("name", f->name)
        .str("beforeName", f->beforeName)
        .str("kind", functionEditKindName(f->kind))
        .field("ops", countsJson(f->ops))
        .field("nodes", countsJson(f->nodes))
        .done();
  }));
  if (script) {
    std::vector<const NodeEdit*> edits;
    for (const NodeEdit& e : m.edits)
      if (e.kind != EditKind::Kept) edits.push_back(&e);
    o.field("edits", jsonArray(edits, [&](const NodeEdit* e) {
      std::vector<std::string> bits;
      if (e->changes & kAttrsChanged) bits.push_back("attrs");
      if (e->changes & kInputsRewired) bits.push_back("inputs");
      if (e->changes & kTypeChanged) bits.push_back("type");
      if (e->changes & kDataChanged) bits.push_back("data");
      if (e->changes & kArityChanged) bits.push_back("arity");
      const ExprNode* n = e->after && e->kind != EditKind::Folded ? e->after : e->before;
      std::string what;
      if (auto* c = as<CallNode>(n)) what = c->op() ? std::string(c->op()->name) : "call";
      else what = n->kind == ExprKind::Constant ? "constant" : n->kind == ExprKind::Function ? "function" : n->kind == ExprKind::Var ? "var" : "node";
      return JsonObject()
          .str("kind", editKindName(e->kind))
          .field("changes", jsonArray(bits, [](const std::string& b) { return jsonString(b); }))
          .str("node", what)
          .str("function", m.functionName(e->afterFunction))
          .str("beforeFunction", m.functionName(e->beforeFunction))
          .done();
    }));
  }
  return o.done();
}

std::string eventJson(const TraceEvent& e, const TraceJsonOptions& options, const ChangeIndex& changes) {
  JsonObject o;
  o.num("id", e.id).num("parent", e.parent);
  o.field("children", jsonArray(e.children, [](int c) { return std::to_string(c); }));
  o.num("depth", e.depth).str("pass", e.pass).str("options", e.options);
  o.num("contextId", e.contextId).str("contextName", e.contextName);
  o.str("status", eventStatusName(e.status));
  o.field("changedFunctions", jsonArray(e.changedFunctions, [](const std::string& f) { return jsonString(f); }));
  o.boolean("moduleAttrsChanged", e.moduleAttrsChanged);
  o.field("wallMs", jsonTime(e.wallMs)).field("startMs", jsonTime(e.startMs));
  o.str("skipReason", e.skipReason);
  o.field("configReads", jsonArray(e.configReads, [](const ConfigRead& r) {
    return JsonObject()
        .str("key", r.key)
        .field("value", attrValueToJson(r.value))
        .str("source", configSourceName(r.source))
        .num("contextId", r.contextId)
        .str("contextName", r.contextName)
        .str("pass", r.pass)
        .done();
  }));
  o.field("skips", jsonArray(e.skips, [](const FunctionSkip& s) {
    return JsonObject().str("pass", s.pass).str("function", s.function).str("reason", s.reason).done();
  }));
  o.field("diagnostics", jsonArray(e.diagnostics, diagnosticJson));
  if (!e.remarks.empty()) {
    // Nodes are named as the printer names them in the event's `before` module.
    RemarkNodeIndex index(e.before, options.print ? *options.print : PrintOptions{});
    o.field("remarks", jsonArray(e.remarks, [&](const Remark& r) { return remarkToJson(r, &index); }));
  }
  o.str("failure", e.failure);
  o.num("contextDepth", e.contextDepth).str("contextTarget", e.contextTarget);
  const bool codegen = options.builds && options.builds->isCodegen(e.id);
  if (codegen) {
    // A build or one of its stages: the code itself is what a reader wants.
    const BuildLog& builds = *options.builds;
    o.boolean("codegen", true).num("builtFrom", builds.isBuild(e.id) ? builds.builtFrom(e.id) : -1);
    o.field("artifacts", jsonArray(builds.artifacts(e.id), [](const CodegenArtifact& a) {
      return JsonObject().str("function", a.function).str("text", a.text).done();
    }));
  }
  if (options.changes && e.status == EventStatus::Changed && !codegen && e.before && e.after)
    o.field("changes", changesJson(*changes.edits(e.before, e.after), options.editScript));
  if (e.numeric)
    o.field("numeric", JsonObject()
                           .boolean("compared", e.numeric->compared)
                           .field("maxAbsError", jsonNumber(e.numeric->maxAbsError))
                           .field("maxRelError", jsonNumber(e.numeric->maxRelError))
                           .num("outputs", e.numeric->outputs)
                           .str("note", e.numeric->note)
                           .done());
  return o.done();
}

}  // namespace

std::string traceToJson(const Trace& trace) { return traceToJson(trace, TraceJsonOptions{}); }

std::string traceToJson(const Trace& trace, const TraceJsonOptions& options) {
  ChangeIndex ownIndex(1);
  const ChangeIndex& changes = options.changeIndex ? *options.changeIndex : ownIndex;
  std::string out = "{\"events\":[\n";
  bool first = true;
  for (const TraceEvent& e : trace.events()) {
    if (!first) out += ",\n";
    first = false;
    out += eventJson(e, options, changes);
  }
  return out + "\n]}\n";
}

std::string traceToChromeJson(const Trace& trace, const BuildLog* builds) {
  std::string out = "{\"traceEvents\":[\n";
  out += JsonObject()
             .str("name", "process_name")
             .str("ph", "M")
             .num("pid", 1)
             .num("tid", 1)
             .field("args", JsonObject().str("name", "passlab").done())
             .done();
  for (const TraceEvent& e : trace.events()) {
    // A build's stages are not timed on their own: the build's span covers them.
    const bool codegen = builds && builds->isCodegen(e.id);
    if (e.id == 0 || e.status == EventStatus::Skipped || (codegen && e.parent >= 0)) continue;
    JsonObject args;
    args.str("status", eventStatusName(e.status)).str("context", e.contextName).num("event", e.id);
    if (!e.options.empty()) args.str("options", e.options);
    if (!e.changedFunctions.empty())
      args.field("changedFunctions", jsonArray(e.changedFunctions, [](const std::string& f) { return jsonString(f); }));
    if (!e.failure.empty()) args.str("failure", e.failure);
    out += ",\n";
    out += JsonObject()
               .str("name", e.pass)
               .str("cat", codegen ? "codegen" : "pass")
               .str("ph", "X")
               .field("ts", jsonTime(e.startMs * 1000.0))
               .field("dur", jsonTime(e.wallMs * 1000.0))
               .num("pid", 1)
               .num("tid", 1)
               .field("args", args.done())
               .done();
  }
  return out + "\n],\"displayTimeUnit\":\"ms\"}\n";
}

}  // namespace passlab
