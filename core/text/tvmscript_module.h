// The module frame and the Relax half of the TVMScript reader (internal to
// core/text): ModuleParser extends ScriptParser with the module being built
// (tvmscript_module.cpp) and Relax functions, statements, expressions and
// types (tvmscript_relax_parse.cpp, tvmscript_relax_expr.cpp).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "core/ir/expr.h"
#include "core/ir/module.h"
#include "core/ir/shape_expr.h"
#include "core/ir/virtual_device.h"
#include "core/text/metadata_graph.h"
#include "core/text/tvmscript_parser.h"

namespace passlab::tvmscript {

/// An argument of a call as written: a Relax value or an attribute literal
/// (numbers, strings, lists of them, None, `R.shape([...])`, `R.prim_value(..)`).
struct ScriptArg {
  /// Keyword, empty for a positional argument.
  std::string keyword;
  Expr value;
  AttrValue literal;
  bool isLiteral = false;
  /// The R.<form> a literal was written in ("str", "dtype", "prim_value",
  /// "shape"), empty for a bare one: R.call_packed keeps R.dtype and R.str apart.
  std::string literalForm;
  /// A type argument (`out_sinfo=R.Tensor(...)`, positional `R.Tensor(...)`).
  Type type;
  bool isType = false;
  /// `sinfo_args=(T0, T1)`: `type` is the tuple of the listed types.
  bool typeList = false;
  PyToken at;
};

class ModuleParser : public ScriptParser {
 public:
  ModuleParser(std::string text, std::string fileName) : ScriptParser(std::move(text), std::move(fileName)) {}
  /// Parses the whole text into a module.
  IRModule parseModule();

  // ---- Frame (tvmscript_module.cpp) -------------------------------------------
  /// `from tvm.script import ir as I, relax as R` (and `import tvm`); refuses other imports.
  void parseImport();
  /// One decorated item at top level or in the class body.
  void parseDecoratedFunction();
  /// `@I.ir_module class Name:` and its body.
  void parseModuleClass();
  /// `metadata = tvm.ir.load_json("""...""")` (TVM's show_meta=True): the
  /// constants `metadata["relax.expr.Constant"][N]` then refers to.
  void parseMetadataStatement();
  /// Module-level statements in the class: I.module_attrs, I.module_global_infos.
  void parseClassStatement();
  /// Resolves `cls.f` / `Module.f` / a bare global name at the cursor, or null.
  Expr tryGlobalReference();
  /// Skips the whole function at the cursor (used to pre-scan globals).
  void scanGlobals();
  /// Adds `fn` named `name`.
  void addFunction(const PyToken& at, const std::string& name, Expr fn);

  // ---- Relax (tvmscript_relax_parse.cpp) ----------------------------------------
  /// Parses `def name(params) -> T:` and the body, at the cursor on `def`.
  Function parseRelaxFunction(const PyToken& decorator, bool isPrivate, bool isPure, std::string* name);
  /// Parses the statements of a block up to its Dedent; returns the body expression.
  Expr parseRelaxBody(bool functionBody);
  Type parseRelaxType();
  Expr parseRelaxExpr();
  Expr parseRelaxPrimary();
  Expr parseRelaxCall(const std::string& callee, const PyToken& at);
  /// R.shape / R.prim_value / R.null_value as values, R.call_packed, and the
  /// R.builtin / R.memory / R.vm ops of the VM lowering
  /// (tvmscript_relax_vm.cpp), at the cursor after `(`; null when `name` is
  /// none of them (nothing consumed).
  Expr parseRelaxVmCall(std::string_view name, const PyToken& at);
  std::vector<ScriptArg> parseCallArgs();
  ScriptArg parseOneArg();
  AttrValue parseLiteral();
  /// At `(`: whether it opens a symbolic dimension (`(n + 1) * 2`), not a tuple.
  bool parenthesizedDim() const;
  bool startsLiteral() const;
  AttrDict parseDictLiteral();

  // ---- Symbolic shapes (tvmscript_shape.cpp) -------------------------------------
  /// One dimension of a shape at the cursor: an int, an expression over shape
  /// variables, or a string holding one (which may define its variables).
  shape::Dim parseShapeDim();
  /// The shape variable `name` of the function; `define` creates it when new,
  /// otherwise an unknown name is a located error.
  shape::Dim shapeVar(const PyToken& at, const std::string& name, bool define);
  /// Consumes `n = T.int64()` at the cursor (defining n) and returns true, or
  /// leaves the cursor alone and returns false.
  bool tryShapeVarDeclaration();
  /// The type of the last R.match_cast read: its binding's annotation.
  Type matchCastType_;
  /// The annotation of a binding of `value`: `ann`, or R.match_cast's type
  /// when `value` is one (a located error when both are given and differ).
  Type bindingAnnotation(const PyToken& at, const Type& ann, const Expr& value);
  /// The shape variables of the function being read, by name.
  std::map<std::string, tir::Var> shapeVars_;

  // ---- Scopes -------------------------------------------------------------------
  struct Scoped {
    std::string name;
    Expr value;
  };
  std::vector<Scoped> scope_;
  const Expr* lookupLocal(std::string_view name) const;
  Var defineVar(const PyToken& at, const std::string& name, Type annotation, bool isDataflow);

  // ---- State ----------------------------------------------------------------------
  std::map<std::string, Expr> functions_;
  std::map<std::string, uint32_t> functionLines_;
  std::set<std::string> globalNames_;
  std::string className_ = "Module";
  /// Names a function body binds to the module (`cls = Module`).
  std::set<std::string> moduleAliases_;
  AttrDict moduleAttrs_;
  /// The module's virtual devices (core/ir/virtual_device.h): those of
  /// I.module_global_infos first, then the devices R.hint_on_device names.
  std::vector<VirtualDevice> vdevices_;
  /// `I.module_global_infos({"vdevice": [I.vdevice(...), ...]})`.
  void parseGlobalInfos();
  /// R.to_vdevice(x, dst_vdevice="llvm:0") and R.hint_on_device(x,
  /// R.device(device_type=1, index=0), "global"): device_copy and on_device
  /// of a device of the table; null for any other name.
  Expr parseDeviceCall(std::string_view name, const PyToken& at);
  /// Names of the dataflow block being parsed that R.output lists.
  std::set<std::string> dataflowOutputs_;
  bool inDataflow_ = false;
  /// The annotation of the binding being parsed (types a metadata constant).
  Type expectedType_;
  /// The annotation of the binding being parsed, also inside its call's arguments.
  Type bindingType_;
  /// `metadata[...]` references whose type their use must tell: stand-in
  /// variables until the op call they are an argument of resolves them.
  struct PendingMeta {
    int64_t index = 0;
    Span span;
  };
  std::map<const ExprNode*, PendingMeta> pendingMeta_;
  /// Replaces the stand-ins among `values` by placeholders of the type op `id` requires there.
  void resolvePendingMeta(OpId id, std::vector<Expr>& values, const AttrDict& attrs);
  bool metaNoted_ = false;
  /// The metadata statement's table, when the text has one.
  std::optional<ScriptMetadata> metadata_;
  /// The constant `metadata["relax.expr.Constant"][index]` names in the
  /// statement's table (checked against `annotation` when it is a static
  /// tensor type), or undefined when there is no table or the entry has no data.
  NDArray metadataConstant(const PyToken& at, int64_t index, const Type& annotation);
  int fresh_ = 0;
};

}  // namespace passlab::tvmscript
