#include "core/trace/numeric_check.h"
#include "core/ir/file_io.h"

#include "core/text/metadata.h"

#include <cmath>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>

#include "core/interp/interp_limits.h"
#include "core/interp/interpreter.h"
#include "core/text/parser.h"
#include "core/support/strings.h"

namespace passlab {

namespace {

[[noreturn]] void numericError(std::string message) { throwError({}, std::move(message), "numeric-check"); }

const TensorTypeNode* paramType(const VarNode& param) {
  const TensorTypeNode* t = as<TensorTypeNode>(param.annotation);
  if (!t) t = as<TensorTypeNode>(param.checkedType);
  return t;
}

void flatten(const Value& v, std::vector<NDArray>& out) {
  if (v.isTensor()) {
    out.push_back(v.tensor());
    return;
  }
  for (const Value& f : v.fields()) flatten(f, out);
}

NDArray convertTo(const NDArray& a, DataType dtype) {
  NDArray out(dtype, a.shape());
  for (int64_t i = 0; i < a.numElements(); ++i) out.setFromDouble(i, a.getAsDouble(i));
  return out;
}

}  // namespace

std::string describeNumericCheck(const NumericCheckOptions& options) {
  std::string out = "seed " + std::to_string(options.seed);
  if (!options.inputsFile.empty()) out = "inputs " + options.inputsFile + " (others: " + out + ")";
  if (options.function != "main") out += ", @" + options.function;
  return out;
}

std::vector<NDArray> randomInputs(const FunctionNode& fn, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int> small(0, 3);
  std::vector<NDArray> inputs;
  for (const Var& p : fn.params) {
    const TensorTypeNode* t = paramType(*p);
    if (!t || t->hasDynamicDim())
      numericError("cannot make inputs for parameter %" + p->name + ": it needs a tensor type with a static shape");
    NDArray a(t->dtype, t->shape);
    for (int64_t i = 0; i < a.numElements(); ++i) {
      if (t->dtype.isFloat())
        a.setFromDouble(i, real(rng));
      else if (t->dtype.isBool())
        a.setFromDouble(i, small(rng) & 1);
      else
        a.setFromDouble(i, small(rng));
    }
    inputs.push_back(std::move(a));
  }
  return inputs;
}

std::unordered_map<std::string, NDArray> readNumericInputs(const std::string& path) {
  // Through readRegularFile: `inputs /dev/zero` read forever.
  std::string contents;
  try {
    contents = readRegularFile(path);
  } catch (const DiagnosticError& e) {
    numericError("cannot read inputs file '" + path + "': " + e.diagnostics().front().message);
  }
  std::istringstream in(contents);
  std::unordered_map<std::string, NDArray> out;
  std::string line;
  for (int lineNo = 1; std::getline(in, line); ++lineNo) {
    std::string text(trim(line));
    if (text.empty() || text[0] == '#') continue;
    const std::string where = path + ":" + std::to_string(lineNo) + ": ";
    size_t eq = text.find('=');
    if (text[0] != '%' || eq == std::string::npos) numericError(where + "expected `%name = constant expression`");
    std::string name(trim(text.substr(1, eq - 1)));
    if (name.empty()) numericError(where + "missing parameter name before '='");
    Value v;
    try {
      v = evaluateExpr(parseExpr(text.substr(eq + 1), path));
    } catch (const DiagnosticError& e) {
      numericError(where + "%" + name + ": " + e.diagnostics().front().message);
    }
    if (!v.isTensor()) numericError(where + "%" + name + " is not a tensor");
    out[name] = v.tensor();
  }
  return out;
}

NumericCheckResult compareValues(const Value& reference, const Value& actual) {
  NumericCheckResult r;
  std::vector<NDArray> ref, act;
  flatten(reference, ref);
  flatten(actual, act);
  if (ref.size() != act.size()) {
    r.note = "the function returns " + std::to_string(act.size()) + " outputs, the reference " + std::to_string(ref.size());
    return r;
  }
  for (size_t o = 0; o < ref.size(); ++o) {
    if (ref[o].shape() != act[o].shape()) {
      r.note = "output " + std::to_string(o) + " changed shape";
      return r;
    }
    double maxAbs = 0, maxRef = 0;
    for (int64_t i = 0; i < ref[o].numElements(); ++i) {
      double a = ref[o].getAsDouble(i), b = act[o].getAsDouble(i);
      double err;
      if (std::isnan(a) || std::isnan(b))
        err = std::isnan(a) && std::isnan(b) ? 0 : std::numeric_limits<double>::infinity();
      else if (a == b)
        err = 0;  // also equal infinities
      else
        err = std::fabs(a - b);
      maxAbs = std::max(maxAbs, err);
      if (std::isfinite(a)) maxRef = std::max(maxRef, std::fabs(a));
    }
    r.maxAbsError = std::max(r.maxAbsError, maxAbs);
    if (maxAbs > 0) r.maxRelError = std::max(r.maxRelError, maxAbs / std::max(maxRef, 1e-30));
  }
  r.outputs = static_cast<int>(ref.size());
  r.compared = true;
  return r;
}

// ---- NumericReference ---------------------------------------------------------

NumericReference::NumericReference(const IRModule& reference, NumericCheckOptions options) : options_(std::move(options)) {
  const FunctionNode* fn = reference ? reference->lookupFunction(options_.function) : nullptr;
  if (!fn) numericError("the module has no graph-level function @" + options_.function + " to check");
  inputs_ = randomInputs(*fn, options_.seed);
  placeholderData_ = summarizePlaceholders(reference).any();
  if (!options_.inputsFile.empty()) {
    std::unordered_map<std::string, NDArray> given = readNumericInputs(options_.inputsFile);
    for (size_t i = 0; i < fn->params.size(); ++i) {
      auto it = given.find(fn->params[i]->name);
      if (it == given.end()) continue;
      if (it->second.shape() != inputs_[i].shape())
        numericError(options_.inputsFile + ": %" + fn->params[i]->name + " has the wrong shape for its parameter");
      inputs_[i] = it->second.dtype() == inputs_[i].dtype() ? it->second : convertTo(it->second, inputs_[i].dtype());
      given.erase(it);
    }
    if (!given.empty()) numericError(options_.inputsFile + ": @" + options_.function + " has no parameter %" + given.begin()->first);
  }
  std::vector<Value> args(inputs_.begin(), inputs_.end());
  outputs_ = evaluate(reference, options_.function, args);
}

NumericCheckResult NumericReference::check(const IRModule& mod) const {
  NumericCheckResult r;
  const FunctionNode* fn = mod->lookupFunction(options_.function);
  if (!fn) {
    r.note = "no function @" + options_.function;
    return r;
  }
  if (fn->params.size() != inputs_.size()) {
    r.note = "@" + options_.function + " now takes " + std::to_string(fn->params.size()) + " parameters";
    return r;
  }
  std::vector<Value> args;
  for (size_t i = 0; i < inputs_.size(); ++i) {
    const TensorTypeNode* t = paramType(*fn->params[i]);
    if (t && t->shape != inputs_[i].shape()) {
      r.note = "parameter %" + fn->params[i]->name + " changed shape";
      return r;
    }
    args.push_back(t && t->dtype != inputs_[i].dtype() ? convertTo(inputs_[i], t->dtype) : inputs_[i]);
  }
  try {
    NumericCheckResult compared = compareValues(outputs_, evaluate(mod, options_.function, args));
    if (placeholderData_) {
      // The numbers are only as meaningful as the made-up weights they came from.
      std::string label = "computed from placeholder constants (made-up data)";
      compared.note = compared.note.empty() ? label : compared.note + ", " + label;
    }
    return compared;
  } catch (const DiagnosticError& e) {
    r.note = "evaluation failed: " + (e.diagnostics().empty() ? std::string(e.what()) : e.diagnostics().front().message);
  } catch (const std::exception& e) {
    r.note = std::string("evaluation failed: ") + e.what();
  }
  return r;
}

// ---- NumericCheckInstrument -----------------------------------------------------

NumericCheckInstrument::NumericCheckInstrument(std::shared_ptr<Trace> trace, NumericCheckOptions options)
    : trace_(std::move(trace)), options_(std::move(options)) {}

NumericCheckResult NumericCheckInstrument::check(const IRModule& mod) {
  if (mod && mod == lastModule_) return lastResult_;
  if (!referenceTried_) {
    referenceTried_ = true;
    try {
      reference_.emplace(trace_->event(0).after, options_);
      NumericCheckResult self = reference_->check(trace_->event(0).after);
      self.note = "the reference";
      trace_->mutableEvent(0).numeric = self;
    } catch (const DiagnosticError& e) {
      referenceError_ = e.diagnostics().empty() ? e.what() : e.diagnostics().front().message;
      // An interrupted reference is not a failed one: the next check tries again.
      if (interp::interruptRequested()) referenceTried_ = false;
    }
  }
  NumericCheckResult r;
  if (!reference_) {
    r.note = "no reference: " + referenceError_;
  } else {
    r = reference_->check(mod);
  }
  // Nor is an interrupted evaluation this module's result.
  if (interp::interruptRequested()) return r;
  lastModule_ = mod;
  lastResult_ = r;
  return r;
}

void NumericCheckInstrument::annotate(int event) {
  if (event < 0 || event >= static_cast<int>(trace_->events().size())) return;
  NumericCheckResult r = check(trace_->event(event).after);
  if (event != 0) trace_->mutableEvent(event).numeric = r;
}

void NumericCheckInstrument::enterPass(const Pass& pass, const IRModule& mod, PassContext& ctx) {
  int id = -1;
  if (ctx.depth() == 0 && !trace_->events().empty()) {
    const TraceEvent& last = trace_->events().back();
    // The recorder opened this pass's event just before (it is installed first).
    if (last.pass == pass.info().name && last.before == mod) id = last.id;
  }
  open_.push_back(id);
}

void NumericCheckInstrument::exitPass(const Pass&, PassContext&) {
  if (!open_.empty()) open_.pop_back();
}

void NumericCheckInstrument::afterPass(const Pass&, const IRModule&, const IRModule& after, PassContext&) {
  if (open_.empty() || open_.back() < 0) return;
  NumericCheckResult r = check(after);
  trace_->mutableEvent(open_.back()).numeric = r;
}

}  // namespace passlab
