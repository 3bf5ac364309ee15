// Small IR builders and instruments shared by the pass-manager, trace and pass tests.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/ir/functor.h"
#include "core/ir/module.h"
#include "core/pass/pass.h"
#include "core/pass/registry.h"

namespace passlab::testing {

/// Tensor[(shape), float32].
inline Type f32(std::vector<int64_t> shape) { return tensorType(std::move(shape), DTypeCode::Float32); }

/// A float32 constant of `shape` filled with `value`.
inline Expr filled(std::vector<int64_t> shape, double value, DataType dtype = DTypeCode::Float32) {
  NDArray data(dtype, std::move(shape));
  for (int64_t i = 0; i < data.numElements(); ++i) data.setFromDouble(i, value);
  return makeConstant(std::move(data));
}

/// fn (%x: Tensor[(2, 3), float32]) { nn.relu(add(%x, %x)) } with attributes.
inline Function reluAddFunction(AttrDict attrs = {}) {
  Var x = makeVar("x", f32({2, 3}));
  return makeFunction({x}, makeOpCall(OpId::Relu, {makeOpCall(OpId::Add, {x, x})}), nullptr, std::move(attrs));
}

/// A module with @main, @helper and three functions FunctionPass must skip:
/// @byoc (Compiler), @noopt (SkipOptimization=1), @stub (Extern=1).
inline IRModule moduleWithExternalFunctions() {
  std::map<std::string, Expr> fns;
  fns["main"] = reluAddFunction();
  fns["helper"] = reluAddFunction();
  fns["byoc"] = reluAddFunction({{"Compiler", AttrValue::string("ccompiler")}});
  fns["noopt"] = reluAddFunction({{"SkipOptimization", AttrValue::integer(1)}});
  fns["stub"] = reluAddFunction({{"Extern", AttrValue::integer(1)}});
  return makeModule(std::move(fns));
}

/// A module pass built from a lambda.
inline PassPtr lambdaPass(std::string name, ModulePass::Body body, int optLevel = 0, std::vector<Phase> phases = {}) {
  PassInfo info;
  info.name = std::move(name);
  info.optLevel = optLevel;
  info.acceptedPhases = std::move(phases);
  return std::make_shared<ModulePass>(std::move(info), std::move(body));
}

/// A pass that returns its input.
inline PassPtr identityPass(std::string name, int optLevel = 0) {
  return lambdaPass(std::move(name), [](const IRModule& m, PassContext&) { return m; }, optLevel);
}

/// A pass that sets module attribute `key` to `value`.
inline PassPtr setModuleAttrPass(std::string name, std::string key, int64_t value) {
  return lambdaPass(std::move(name), [key, value](const IRModule& m, PassContext&) {
    AttrDict attrs = m->attrs;
    attrs.set(key, AttrValue::integer(value));
    return withModuleAttrs(m, attrs);
  });
}

/// A function pass that wraps every function body in negative(...).
class NegateBodies final : public FunctionPass {
 public:
  NegateBodies() { info_.name = "NegateBodies"; }
  const PassInfo& info() const override { return info_; }
  Function runOnFunction(const Function& fn, const std::string&, const IRModule&, PassContext&) const override {
    return makeFunction(fn->params, makeOpCall(OpId::Negative, {fn->body}), fn->retType, fn->attrs, fn->span);
  }

 private:
  PassInfo info_;
};

/// Records every hook call as text ("enter P", "before P", "skip P: reason", ...).
class RecordingInstrument final : public PassInstrument {
 public:
  explicit RecordingInstrument(std::string tag = "") : tag_(std::move(tag)) {}
  std::string name() const override { return "recording"; }
  void enterPass(const Pass& p, const IRModule&, PassContext&) override { log("enter " + p.info().name); }
  void exitPass(const Pass& p, PassContext&) override { log("exit " + p.info().name); }
  void onPassSkipped(const Pass& p, const IRModule&, PassContext&, const std::string& reason) override {
    log("skip " + p.info().name + ": " + reason);
  }
  bool shouldRun(const Pass& p, const IRModule&, PassContext&) override { return !vetoed.count(p.info().name); }
  void beforePass(const Pass& p, const IRModule&, PassContext&) override { log("before " + p.info().name); }
  void afterPass(const Pass& p, const IRModule&, const IRModule&, PassContext&) override { log("after " + p.info().name); }
  void afterFailure(const Pass& p, const IRModule&, const std::vector<Diagnostic>& errors, PassContext&) override {
    log("failure " + p.info().name + ": " + (errors.empty() ? "" : errors.front().message));
  }
  void onConfigRead(const ConfigRead& read) override { reads.push_back(read); }
  void onFunctionSkipped(const FunctionSkip& skip) override { skips.push_back(skip); }
  void onDiagnostic(const Diagnostic& d, PassContext&) override { diagnostics.push_back(d); }

  std::vector<std::string> events;
  std::vector<ConfigRead> reads;
  std::vector<FunctionSkip> skips;
  std::vector<Diagnostic> diagnostics;
  std::set<std::string> vetoed;

 private:
  void log(std::string s) { events.push_back(tag_.empty() ? s : tag_ + ":" + s); }
  std::string tag_;
};

}  // namespace passlab::testing
