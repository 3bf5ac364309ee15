#include "core/pass/registry.h"

#include <algorithm>
#include <stdexcept>

#include "core/pass/option_check.h"
#include "core/pass/scoped_pass.h"
#include "core/pass/util.h"

namespace passlab {

using pass_detail::closestName;
using pass_detail::coerceToKind;
using pass_detail::kindName;

namespace pass_detail {

OptionCheck checkOption(const PassRegistration& registration, const std::string& key, const AttrValue& value) {
  OptionCheck result;
  const std::string& pass = registration.info.name;
  auto it = std::find_if(registration.options.begin(), registration.options.end(),
                         [&](const PassOptionInfo& o) { return o.name == key; });
  if (it == registration.options.end()) {
    result.status = OptionCheck::Status::UnknownKey;
    result.message = "pass '" + pass + "' has no option '" + key + "'";
    std::vector<std::string> names;
    for (const PassOptionInfo& o : registration.options) names.push_back(o.name);
    if (names.empty()) {
      result.message += "; it takes no options";
    } else if (auto suggestion = closestName(key, names)) {
      result.message += "; did you mean '" + *suggestion + "'?";
    } else {
      std::string list;
      for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
      result.message += "; options: " + list;
    }
    return result;
  }
  std::optional<AttrValue> coerced = coerceToKind(value, it->kind);
  if (!coerced) {
    result.status = OptionCheck::Status::BadValue;
    result.message = "option '" + key + "' of pass '" + pass + "' expects " + std::string(kindName(it->kind)) + ", got " +
                     std::string(kindName(value.kind())) + " " + formatOptionValue(value);
    return result;
  }
  if (coerced->kind() == AttrValue::Kind::Int && (coerced->asInt() < it->minInt || coerced->asInt() > it->maxInt)) {
    result.status = OptionCheck::Status::BadValue;
    result.message = "option '" + key + "' of pass '" + pass + "' must be from " + std::to_string(it->minInt) + " to " +
                     std::to_string(it->maxInt) + ", got " + std::to_string(coerced->asInt());
    return result;
  }
  result.value = *coerced;
  return result;
}

AttrDict completeOptions(const PassRegistration& registration, const AttrDict& given) {
  AttrDict full;
  for (const PassOptionInfo& option : registration.options) {
    const AttrValue* v = given.find(option.name);
    full.set(option.name, v ? *v : option.defaultValue);
  }
  return full;
}

std::string unknownPassMessage(std::string_view name, const PassRegistry& registry) {
  // `default` or `zero`: the last part of named pipelines' names, not a typo of a pass.
  std::vector<std::string> byLastPart, pipelineNames;
  for (const NamedPipeline& p : registry.pipelines()) {
    pipelineNames.push_back(p.name);
    size_t dot = p.name.rfind('.');
    if (dot != std::string::npos && p.name.compare(dot + 1, std::string::npos, name) == 0) byLastPart.push_back(p.name);
  }
  auto list = [](const std::vector<std::string>& items, const char* joiner) {
    std::string out;
    for (size_t i = 0; i < items.size(); ++i)
      out += (i == 0 ? "" : i + 1 == items.size() ? joiner : ", ") + ("'" + items[i] + "'");
    return out;
  };
  if (!byLastPart.empty())
    return "'" + std::string(name) + "' is not a pass or a named pipeline; did you mean " + list(byLastPart, " or ") +
           "? (named pipelines: " + list(pipelineNames, ", ") + ")";
  std::vector<std::string> names = pipelineNames;
  for (const PassRegistration* r : registry.all()) names.push_back(r->info.name);
  std::string message = "unknown pass '" + std::string(name) + "'";
  if (auto suggestion = closestName(name, names)) message += "; did you mean '" + *suggestion + "'?";
  return message;
}

}  // namespace pass_detail

namespace {

/// The declarations recorded by PassRegistrars (a function-local static: registrars
/// in other translation units may run before any namespace-scope object here).
std::vector<PassDeclaration>& declarationList() {
  static std::vector<PassDeclaration> list;
  return list;
}

/// Gives a function-level pass the `compiler` option (docs/pipelines.md,
/// "Scoped passes"): set, the pass runs only on that codegen's functions.
void addCompilerScope(PassRegistration& r) {
  r.options.insert(r.options.begin(), PassOptionInfo{"compiler", AttrValue::Kind::String, AttrValue::string(""),
                                                     "run only on the functions with this Compiler attribute (empty: "
                                                     "every function but Compiler ones, which are skipped)"});
  r.create = [inner = std::move(r.create)](const AttrDict& options) {
    std::string compiler = options.getString("compiler", "");
    AttrDict rest;
    for (const auto& [key, value] : options.entries())
      if (key != "compiler") rest.set(key, value);
    PassPtr pass = inner(rest);
    return compiler.empty() ? pass : scopeToCompiler(std::move(pass), std::move(compiler));
  };
}

}  // namespace

PassRegistrar::PassRegistrar(PassDeclaration declaration) { declarationList().push_back(declaration); }

std::vector<const PassRegistration*> declaredPasses() {
  std::vector<const PassRegistration*> out;
  for (PassDeclaration declaration : declarationList()) out.push_back(&declaration());
  std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->info.name < b->info.name; });
  return out;
}

std::vector<std::string> optionStrings(const AttrDict& options, std::string_view name) {
  std::vector<std::string> out;
  const AttrValue* array = options.find(name);
  if (!array) return out;
  for (const AttrValue& v : array->asArray())
    out.push_back(v.kind() == AttrValue::Kind::String ? v.asString() : v.toString());
  return out;
}

AttrValue stringArrayValue(const std::vector<std::string>& items) {
  std::vector<AttrValue> out;
  for (const std::string& s : items) out.push_back(AttrValue::string(s));
  return AttrValue::array(std::move(out));
}

void PassRegistry::add(PassRegistration registration) {
  if (registration.info.name.empty()) throw std::invalid_argument("PassRegistry::add: a pass needs a name");
  if (find(registration.info.name)) throw std::invalid_argument("pass '" + registration.info.name + "' is registered twice");
  for (const std::string& alias : registration.aliases)
    if (find(alias)) throw std::invalid_argument("alias '" + alias + "' of pass '" + registration.info.name + "' is taken");
  if (!registration.create) throw std::invalid_argument("pass '" + registration.info.name + "' has no factory");
  // A registration taken from another registry is scoped already.
  const bool scoped = std::any_of(registration.options.begin(), registration.options.end(),
                                  [](const PassOptionInfo& o) { return o.name == "compiler"; });
  if (registration.level == PassLevel::Function && !scoped) addCompilerScope(registration);
  for (PassOptionInfo& option : registration.options) {
    // Defaults are stored in the option's own kind so printing and comparison agree.
    std::optional<AttrValue> coerced = coerceToKind(option.defaultValue, option.kind);
    if (!coerced)
      throw std::invalid_argument("option '" + option.name + "' of pass '" + registration.info.name + "' has a default of kind " +
                                  std::string(kindName(option.defaultValue.kind())) + ", expected " +
                                  std::string(kindName(option.kind)));
    option.defaultValue = *coerced;
  }
  for (const ConfigKeyInfo& key : registration.configKeys) ConfigRegistry::global().add(key);
  passes_.push_back(std::move(registration));
}

const PassRegistration* PassRegistry::find(std::string_view name) const {
  for (const PassRegistration& r : passes_)
    if (r.info.name == name || std::find(r.aliases.begin(), r.aliases.end(), name) != r.aliases.end()) return &r;
  return nullptr;
}

void PassRegistry::addPipeline(NamedPipeline pipeline) {
  if (pipeline.name.empty()) throw std::invalid_argument("PassRegistry::addPipeline: a pipeline needs a name");
  if (find(pipeline.name)) throw std::invalid_argument("named pipeline '" + pipeline.name + "' has the name of a pass");
  if (findPipeline(pipeline.name)) throw std::invalid_argument("named pipeline '" + pipeline.name + "' is registered twice");
  pipelines_.push_back(std::move(pipeline));
}

const NamedPipeline* PassRegistry::findPipeline(std::string_view name) const {
  for (const NamedPipeline& p : pipelines_)
    if (p.name == name) return &p;
  return nullptr;
}

std::vector<const PassRegistration*> PassRegistry::all() const {
  std::vector<const PassRegistration*> out;
  for (const PassRegistration& r : passes_) out.push_back(&r);
  std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->info.name < b->info.name; });
  return out;
}

PassPtr PassRegistry::create(std::string_view name, const AttrDict& options) const {
  const PassRegistration* registration = find(name);
  auto fail = [](std::string message) {
    Diagnostic d;
    d.message = std::move(message);
    d.rule = "pipeline";
    throw DiagnosticError(std::move(d));
  };
  if (!registration) fail(pass_detail::unknownPassMessage(name, *this));
  AttrDict validated;
  for (const auto& [key, value] : options.entries()) {
    pass_detail::OptionCheck check = pass_detail::checkOption(*registration, key, value);
    if (check.status != pass_detail::OptionCheck::Status::Ok) fail(check.message);
    validated.set(key, check.value);
  }
  PassPtr pass = registration->create(pass_detail::completeOptions(*registration, validated));
  if (!pass) throw std::logic_error("the factory of pass '" + registration->info.name + "' returned null");
  return pass;
}

}  // namespace passlab
