// Helpers shared by the optimization-pass tests: parse Relay text, run a
// pipeline under a recorded context, run @main with the interpreter and
// compare outputs.
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/interp/interpreter.h"
#include "core/ir/functor.h"
#include "core/pass/registry.h"
#include "core/text/parser.h"
#include "core/text/printer.h"
#include "core/trace/numeric_check.h"
#include "core/trace/provenance_check.h"
#include "core/trace/trace.h"
#include "passes/registry.h"
#include "tests/test_util.h"

namespace passlab::testing {

/// Runs pipeline text on a module in a root context recorded by a trace.
struct PipelineRun {
  PassContextPtr ctx = PassContext::create();
  std::shared_ptr<Trace> trace;

  explicit PipelineRun(int optLevel = 3) {
    // The passes register their config keys; a test may set one before running.
    builtinRegistry();
    ctx->optLevel = optLevel;
  }
  /// Runs `spec` on `mod` (the trace starts at `mod`); rethrows failures.
  IRModule run(const std::string& spec, const IRModule& mod) {
    trace = std::make_shared<Trace>(mod);
    ctx->instruments().clear();
    ctx->instruments().push_back(std::make_shared<TraceInstrument>(trace));
    ctx->instruments().push_back(std::make_shared<ProvenanceCheckInstrument>());
    PassPtr pipeline = parsePipeline(spec, builtinRegistry());
    IRModule out = mod;
    for (const PassPtr& pass : pipeline->subPasses()) out = runPass(*pass, out, *ctx);
    return out;
  }
  /// Events of pass `name` (any depth), in order.
  std::vector<const TraceEvent*> events(const std::string& name) const {
    std::vector<const TraceEvent*> out;
    for (const TraceEvent& e : trace->events())
      if (e.pass == name) out.push_back(&e);
    return out;
  }
};

/// Parses module text.
inline IRModule parse(const std::string& text) { return parseModule(text, "test.relay"); }

/// The example model at `relative` under the source tree.
inline IRModule exampleModel(const std::string& relative) { return parseModuleFile(std::string(PASSLAB_SOURCE_DIR) + "/" + relative); }

/// Numeric check of `after` against `before` on seeded random inputs.
inline NumericCheckResult compareModules(const IRModule& before, const IRModule& after, uint32_t seed = 1) {
  NumericReference reference(before, NumericCheckOptions{seed, "", "main"});
  return reference.check(after);
}

/// Number of call nodes to op `id` in `fn`, fused functions included.
inline size_t countCalls(const Expr& fn, OpId id) {
  size_t n = 0;
  postOrderVisit(fn, [&](const Expr& e) {
    const CallNode* c = as<CallNode>(e);
    n += c && c->op() && c->op()->id == id;
  });
  return n;
}

/// The Primitive function literals called in `fn`.
inline std::vector<const FunctionNode*> fusedFunctions(const Expr& fn) {
  std::vector<const FunctionNode*> out;
  postOrderVisit(fn, [&](const Expr& e) {
    const CallNode* c = as<CallNode>(e);
    const FunctionNode* f = c ? as<FunctionNode>(c->callee) : nullptr;
    if (f && f->attrs.getInt("Primitive", 0) == 1) out.push_back(f);
  });
  return out;
}

/// The graph-level function @main.
inline Expr mainOf(const IRModule& mod) { return mod->lookup("main"); }

/// The config reads of an event as "key=value(source)" strings.
inline std::vector<std::string> readsOf(const TraceEvent& e) {
  std::vector<std::string> out;
  for (const ConfigRead& r : e.configReads) out.push_back(r.key + "=" + r.value.toString() + "(" + std::string(configSourceName(r.source)) + ")");
  return out;
}

}  // namespace passlab::testing
