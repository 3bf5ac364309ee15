// The registry of passes by name and the textual pipeline syntax
// (docs/pipelines.md): `InferType,FoldConstant,FuseOps{max_depth=4}`.
#pragma once

#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "core/pass/pass.h"

namespace passlab {

/// One option a pass accepts in pipeline text (`FuseOps{max_depth=4}`).
struct PassOptionInfo {
  std::string name;
  AttrValue::Kind kind = AttrValue::Kind::Int;
  AttrValue defaultValue;
  std::string description;
  /// The accepted range of an Int option (inclusive; TVM's range): values outside are errors naming it.
  int64_t minInt = std::numeric_limits<int64_t>::min();
  int64_t maxInt = std::numeric_limits<int64_t>::max();
};

/// What a pass runs over.
enum class PassLevel : uint8_t {
  /// The module as a whole (TVM's CreateModulePass).
  Module,
  /// Each graph-level function on its own, skipping external-codegen ones (TVM's
  /// CreateFunctionPass): the registry gives it the `compiler` option that scopes it
  /// to one codegen's functions instead (core/pass/scoped_pass.h).
  Function,
};

/// Everything the registry knows about one pass: what a pass declares in its
/// own file (docs/architecture.md, "Adding a pass").
struct PassRegistration {
  PassInfo info;
  /// Module or function level; Function adds the `compiler` option (PassRegistry::add).
  PassLevel level = PassLevel::Module;
  /// Other names pipeline text accepts for this pass (TVM's spelling of it: LambdaLift).
  std::vector<std::string> aliases;
  std::vector<PassOptionInfo> options;
  /// Config keys the pass reads (registered in ConfigRegistry::global() by PassRegistry::add).
  std::vector<ConfigKeyInfo> configKeys;
  /// Builds an instance from validated options (schema order, defaults filled).
  std::function<PassPtr(const AttrDict& options)> create;
};

/// A pipeline known by name (`relay.default`, `relax.default`): wherever a
/// pass name is accepted in pipeline text, the name stands for its passes,
/// spliced in place (docs/pipelines.md, "Named pipelines").
struct NamedPipeline {
  std::string name;
  /// Pipeline text (parsePipeline syntax).
  std::string spec;
  /// One line for `help pipeline` and docs/pipelines.md.
  std::string description;
};

/// Passes by name. The faces fill one with registerBuiltinPasses (passes/registry.h).
class PassRegistry {
 public:
  /// Adds a pass (and registers its config keys). A duplicate name throws.
  void add(PassRegistration registration);
  /// The registration named `name` (or aliased so), or null.
  const PassRegistration* find(std::string_view name) const;
  /// All registrations, sorted by name.
  std::vector<const PassRegistration*> all() const;
  /// Builds `name` with `options` (unknown option or wrong kind: DiagnosticError naming it).
  PassPtr create(std::string_view name, const AttrDict& options = {}) const;
  /// Adds a named pipeline. A duplicate name, or the name of a pass, throws.
  void addPipeline(NamedPipeline pipeline);
  /// The named pipeline `name`, or null.
  const NamedPipeline* findPipeline(std::string_view name) const;
  /// All named pipelines, in the order they were added.
  const std::vector<NamedPipeline>& pipelines() const { return pipelines_; }

 private:
  std::vector<PassRegistration> passes_;
  std::vector<NamedPipeline> pipelines_;
};

/// A pass's declaration: returns the same registration every call (a
/// function-local static, built on first use).
using PassDeclaration = const PassRegistration& (*)();

/// Declares a pass where it is defined, as TVM's CreateFunctionPass does: each
/// pass file holds one `const PassRegistrar kMyPassRegistrar(myPassDeclaration);`
/// at namespace scope, both named after the pass (a unity build compiles
/// several pass files as one translation unit). The registrar only records
/// the function (the declaration is built when first asked for, after static
/// initialization), into a function-local list, so neither static-initialization order nor the
/// sanitizers' init-order checks matter.
class PassRegistrar {
 public:
  /// Records `declaration` in declaredPasses().
  explicit PassRegistrar(PassDeclaration declaration);
};

/// Every pass declared with a PassRegistrar in the process, sorted by name
/// (registerBuiltinPasses in passes/registry.h adds them to a registry).
std::vector<const PassRegistration*> declaredPasses();

/// The strings of the array option `name` (empty when absent); non-string
/// items in their text form.
std::vector<std::string> optionStrings(const AttrDict& options, std::string_view name);

/// An array AttrValue of strings (an array option's default).
AttrValue stringArrayValue(const std::vector<std::string>& items);

/// Parses a pipeline spec into a Sequential named "pipeline". Errors (unknown
/// pass with a "did you mean" suggestion, unknown option, bad value, syntax) are
/// DiagnosticErrors located at the column in `spec` (file name `sourceName`).
PassPtr parsePipeline(std::string_view spec, const PassRegistry& registry, std::string sourceName = "<pipeline>");

/// The canonical text of a pass or pipeline (parsePipeline(pipelineText(p)) rebuilds p).
/// A top-level Sequential named "pipeline" prints as its comma-separated list;
/// other Sequentials print as `name(A,B)`; a pass prints as `Name{k=v,...}` with
/// the options it stores (passes store only options that differ from the default).
std::string pipelineText(const Pass& pass);

/// Options as pipeline text without braces: `max_depth=4,mode="a b"` ("" when empty).
std::string optionsText(const AttrDict& options);

/// docs/passes.md: every registered pass with its accepted phases, phase after,
/// required passes, description, guarantees, options and config keys
/// (core/pass/registry_docs.cpp; `passlab --help-passes-markdown` prints it).
std::string passesMarkdown(const PassRegistry& registry);

/// One option value as pipeline text: 4, 0.5, true, word, "quoted text", [1,2].
std::string formatOptionValue(const AttrValue& value);

}  // namespace passlab
