// IRModule: global functions of both kinds plus module attributes.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/ir/attrs.h"
#include "core/ir/expr.h"
#include "core/ir/tir.h"

namespace passlab {

/// Names of module attributes, as TVM spells them.
namespace module_attr {
inline constexpr const char* kExecutor = "executor";  ///< dict: {"kind": "graph", "link-params": 1}
inline constexpr const char* kRuntime = "runtime";    ///< dict: {"kind": "cpp"}
inline constexpr const char* kTarget = "target";      ///< string: "llvm", "hexagon -mcpu=..."
inline constexpr const char* kPhase = "phase";        ///< int: 0 ingestion .. 3 build
}  // namespace module_attr

/// Names of function attributes, as TVM spells them.
namespace fn_attr {
inline constexpr const char* kPrimitive = "Primitive";
inline constexpr const char* kCompiler = "Compiler";
inline constexpr const char* kInline = "Inline";
inline constexpr const char* kExtern = "Extern";
inline constexpr const char* kGlobalSymbol = "global_symbol";
inline constexpr const char* kComposite = "Composite";
inline constexpr const char* kSkipOptimization = "SkipOptimization";
inline constexpr const char* kTarget = "target";
}  // namespace fn_attr

struct IRModuleNode;
/// An immutable, shared module.
using IRModule = std::shared_ptr<const IRModuleNode>;

/// The module. Functions are kept sorted by name so printing is deterministic.
/// Updating one function copies the map of pointers, never the functions.
struct IRModuleNode {
  /// Global name (without '@') → Function or PrimFunc.
  std::map<std::string, Expr> functions;
  /// Module attributes (executor, runtime, target, phase, ...).
  AttrDict attrs;

  /// The function named `name`, or null.
  Expr lookup(const std::string& name) const;
  /// The graph-level function named `name`, or null.
  const FunctionNode* lookupFunction(const std::string& name) const;
  /// The phase attribute (0 when absent).
  int64_t phase() const { return attrs.getInt(module_attr::kPhase, 0); }
};

/// Builds a module.
IRModule makeModule(std::map<std::string, Expr> functions, AttrDict attrs = {});
/// A copy with `name` set to `fn` (shares all other functions).
IRModule withFunction(const IRModule& mod, const std::string& name, Expr fn);
/// A copy without `name`.
IRModule withoutFunction(const IRModule& mod, const std::string& name);
/// A copy with different module attributes.
IRModule withModuleAttrs(const IRModule& mod, AttrDict attrs);
/// A function's attribute dictionary (graph-level or PrimFunc); empty for others.
const AttrDict& functionAttrs(const Expr& fn);

}  // namespace passlab
