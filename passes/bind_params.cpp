// BindParams (see bind_params.h).
#include "passes/bind_params.h"

#include <cctype>
#include <map>
#include <unordered_map>

#include "core/analysis/type_infer.h"
#include "core/ir/functor.h"
#include "core/pass/registry.h"

namespace passlab {

namespace {

/// One `name=value` entry of the params option, its value not yet typed.
struct ParamText {
  std::string name, value;
};

[[noreturn]] void optionError(const std::string& message) {
  throwError({}, "BindParams: " + message, "pipeline");
}

std::vector<ParamText> splitParams(const std::string& text) {
  std::vector<ParamText> out;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find(';', at);
    if (end == std::string::npos) end = text.size();
    std::string entry = text.substr(at, end - at);
    at = end + 1;
    if (entry.find_first_not_of(" \t") == std::string::npos) continue;
    size_t eq = entry.find('=');
    if (eq == std::string::npos) optionError("params entry '" + entry + "' is not name=value");
    auto trim = [](std::string s) {
      size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
      return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
    };
    out.push_back({trim(entry.substr(0, eq)), trim(entry.substr(eq + 1))});
    if (out.back().name.empty()) optionError("params entry '" + entry + "' has no name");
  }
  return out;
}

/// Reads a number or nested list into `values`, checking its nesting against `shape`.
class ValueReader {
 public:
  ValueReader(const ParamText& p, const std::vector<int64_t>& shape) : p_(p), shape_(shape) {}

  std::vector<double> read() {
    level(0);
    skipSpace();
    if (pos_ != p_.value.size()) fail("unexpected '" + p_.value.substr(pos_) + "'");
    return std::move(values_);
  }

 private:
  void level(size_t depth) {
    skipSpace();
    if (depth == shape_.size()) {
      number();
      return;
    }
    if (!take('[')) fail("expected a list of " + std::to_string(shape_[depth]) + " at depth " + std::to_string(depth));
    int64_t n = 0;
    skipSpace();
    if (!take(']')) {
      do {
        level(depth + 1);
        ++n;
        skipSpace();
      } while (take(','));
      if (!take(']')) fail("expected ',' or ']'");
    }
    if (n != shape_[depth])
      fail("a list of " + std::to_string(n) + " where the shape needs " + std::to_string(shape_[depth]));
  }

  void number() {
    const char* begin = p_.value.c_str() + pos_;
    char* end = nullptr;
    double v = std::strtod(begin, &end);
    if (end == begin) fail("expected a number");
    pos_ += static_cast<size_t>(end - begin);
    values_.push_back(v);
  }

  bool take(char c) {
    skipSpace();
    if (pos_ < p_.value.size() && p_.value[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void skipSpace() {
    while (pos_ < p_.value.size() && std::isspace(static_cast<unsigned char>(p_.value[pos_]))) ++pos_;
  }
  [[noreturn]] void fail(const std::string& what) const {
    optionError("value of '" + p_.name + "' at column " + std::to_string(pos_ + 1) + ": " + what);
  }

  const ParamText& p_;
  const std::vector<int64_t>& shape_;
  size_t pos_ = 0;
  std::vector<double> values_;
};

/// Replaces bound parameters by their constants.
class ParamSubstitution final : public ExprMutator {
 public:
  explicit ParamSubstitution(const std::unordered_map<const ExprNode*, Expr>& values) : values_(values) {}

 protected:
  std::optional<Expr> preVisit(const Expr& e) override {
    auto it = values_.find(e.get());
    if (it == values_.end()) return std::nullopt;
    return it->second;
  }

 private:
  const std::unordered_map<const ExprNode*, Expr>& values_;
};

/// What BindParams is: name, phases, options, config keys and docs (its entry in
/// the registry and in docs/passes.md).
const PassRegistration& bindParamsDeclaration() {
  static const PassRegistration declaration = [] {
    using Kind = AttrValue::Kind;
    PassRegistration r;
    r.info.name = "BindParams";
    r.info.optLevel = 0;
    r.info.acceptedPhases = {Phase::Ingestion, Phase::Optimization, Phase::Lowering};
    r.info.description =
        "Binds named parameters of one function to constants: they leave its signature and their uses read the "
        "constant. Values are given inline, as `BindParams{func_name=main,params=\"w=[[1,2],[3,4]];b=0.5\"}`: "
        "`name=value` entries separated by `;`, each value a number or nested list whose nesting is the parameter's "
        "static shape, stored in the parameter's dtype.";
    r.info.guarantees = "The bound parameters are gone from the function; every use reads its constant.";
    r.options = {
        {"func_name", Kind::String, AttrValue::string(BindParamsOptions{}.funcName), "the function whose parameters are bound"},
        {"params", Kind::String, AttrValue::string(""), "name=value entries separated by ';' (values: numbers or nested lists)"},
    };
    r.create = [](const AttrDict& options) {
      BindParamsOptions o;
      o.funcName = options.getString("func_name", o.funcName);
      o.params = options.getString("params", o.params);
      return createBindParamsPass(o);
    };
    return r;
  }();
  return declaration;
}

const PassRegistrar kBindParamsRegistrar(bindParamsDeclaration);

class BindParamsPass final : public Pass {
 public:
  explicit BindParamsPass(BindParamsOptions o) : o_(std::move(o)), entries_(splitParams(o_.params)) {
    std::map<std::string, int> seen;
    for (const ParamText& p : entries_)
      if (seen[p.name]++) optionError("parameter '" + p.name + "' is given twice");
    if (o_.funcName != BindParamsOptions{}.funcName) options_.set("func_name", AttrValue::string(o_.funcName));
    if (!o_.params.empty()) options_.set("params", AttrValue::string(o_.params));
  }

  const PassInfo& info() const override { return bindParamsDeclaration().info; }

  IRModule run(const IRModule& mod, PassContext&) const override {
    auto found = mod->functions.find(o_.funcName);
    if (found == mod->functions.end()) optionError("the module has no function '" + o_.funcName + "'");
    const auto* f = as<FunctionNode>(found->second);
    if (!f) optionError("'" + o_.funcName + "' is not a Relax function");
    if (entries_.empty()) return mod;
    std::unordered_map<const ExprNode*, Expr> values;
    std::vector<Var> kept;
    for (const Var& param : f->params) {
      auto e = std::find_if(entries_.begin(), entries_.end(), [&](const ParamText& p) { return p.name == param->name; });
      if (e == entries_.end()) {
        kept.push_back(param);
        continue;
      }
      values[param.get()] = constantFor(*e, *param);
    }
    for (const ParamText& p : entries_) {
      bool known = std::any_of(f->params.begin(), f->params.end(), [&](const Var& v) { return v->name == p.name; });
      if (!known) throwError(f->span, "BindParams: " + o_.funcName + " has no parameter '" + p.name + "'", "pipeline");
    }
    ParamSubstitution subst(values);
    Expr body = subst.mutate(f->body);
    Expr fn = makeFunction(std::move(kept), body, f->retType, f->attrs, f->span);
    return inferTypes(withFunction(mod, o_.funcName, fn));
  }

 private:
  Expr constantFor(const ParamText& p, const VarNode& param) const {
    const auto* tt = as<TensorTypeNode>(param.annotation ? param.annotation : param.checkedType);
    if (!tt || tt->hasDynamicDim())
      throwError(param.span, "BindParams: parameter '" + p.name + "' needs a tensor type of static shape to be bound",
                 "pipeline");
    std::vector<double> values = ValueReader(p, tt->shape).read();
    NDArray data(tt->dtype, tt->shape);
    for (size_t i = 0; i < values.size(); ++i) data.setFromDouble(static_cast<int64_t>(i), values[i]);
    Expr c = makeConstant(std::move(data), param.span);
    c->checkedType = param.annotation ? param.annotation : param.checkedType;
    return c;
  }

  BindParamsOptions o_;
  std::vector<ParamText> entries_;
};

}  // namespace

PassPtr createBindParamsPass(const BindParamsOptions& options) { return std::make_shared<BindParamsPass>(options); }

}  // namespace passlab
