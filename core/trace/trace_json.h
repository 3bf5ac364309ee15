// JSON export of a trace (hand-written JSON; no JSON library dependency).
#pragma once

#include <string>
#include <string_view>

#include "core/ir/attrs.h"
#include "core/text/printer.h"
#include "core/trace/build_log.h"
#include "core/trace/change_index.h"
#include "core/trace/trace.h"

namespace passlab {

/// The whole trace as JSON: {"events":[{id, parent, children, depth, pass, options,
/// contextId, contextName, status, changedFunctions, moduleAttrsChanged, wallMs,
/// startMs, skipReason, configReads:[{key, value, source, contextId, contextName, pass}],
/// skips:[{pass, function, reason}], diagnostics:[{severity, rule, message, function,
/// location}], failure, and for builds and their stages codegen:true, builtFrom,
/// artifacts:[{function, text}]}, ...]}. Snapshots are not exported (they are IR, see the printer).
std::string traceToJson(const Trace& trace);

/// What traceToJson adds to each changed event.
struct TraceJsonOptions {
  /// "changes": {"summary", "ops":{kept,updated,inserted,deleted,moved,folded},
  /// "nodes":{...}, "functions":[{name, beforeName, kind, ops}]} from the node matcher.
  bool changes = true;
  /// Also "changes.edits": [{kind, changes:[...], node, function, beforeFunction}] for
  /// every non-kept node (can be large).
  bool editScript = false;
  /// How remarks name their nodes ("remarks": [{kind, rule, pass, function,
  /// message, context, nodes:[{name, line, column}]}], on events that have
  /// any): as this print of the event's `before` module does (null: Relay text).
  const PrintOptions* print = nullptr;
  /// Where "changes" gets its matchings (null: an index for this call only).
  const ChangeIndex* changeIndex = nullptr;
  /// The trace's builds: their events carry codegen, builtFrom and artifacts
  /// (null: no event is a build).
  const BuildLog* builds = nullptr;
};
/// traceToJson with options (traceToJson(trace) is traceToJson(trace, {})).
std::string traceToJson(const Trace& trace, const TraceJsonOptions& options);

/// Pass timing in Chrome's trace-event format, which Perfetto and chrome://tracing open:
/// {"traceEvents":[{"name","ph":"X","ts","dur","pid","tid","args"}, ...],
///  "displayTimeUnit":"ms"}. Times are microseconds since the trace began; nested
/// passes nest by time on one thread. Passes that did not run are left out; a
/// build (an event of `builds`) is one span (category "codegen"), without its stages.
std::string traceToChromeJson(const Trace& trace, const BuildLog* builds = nullptr);

/// `text` as a JSON string literal, quotes included (control characters escaped).
std::string jsonString(std::string_view text);

/// An attribute value as JSON: null, true/false, numbers, strings, arrays, objects.
/// Non-finite floats, which JSON cannot hold, become the strings "inf", "-inf", "nan".
std::string attrValueToJson(const AttrValue& value);

}  // namespace passlab
