// Graph-level (Relay-like) expressions. Nodes are immutable and shared through
// std::shared_ptr<const ...>; a rewrite rebuilds only the nodes whose children
// changed, so unchanged subtrees stay pointer-identical (see functor.h).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/ir/attrs.h"
#include "core/ir/diagnostic.h"
#include "core/ir/ndarray.h"
#include "core/ir/op.h"
#include "core/ir/type.h"

namespace passlab {

/// Which kind of expression an ExprNode is. PrimFunc is a function kind so a
/// module can hold both kinds under one handle type.
enum class ExprKind : uint8_t {
  Var,
  GlobalVar,
  Constant,
  Op,
  Call,
  Tuple,
  TupleGetItem,
  Let,
  If,
  Function,
  Dataflow,
  PrimFunc,
};

/// How each expression kind is named to the user, indexed by its value: change
/// summaries and remark texts read it ("2 tuple items updated", "fn").
inline constexpr const char* kExprKindNames[] = {"var", "global var", "constant", "op",  "call",     "tuple",
                                                 "tuple item", "let", "if", "fn", "dataflow", "prim func"};
static_assert(sizeof(kExprKindNames) / sizeof(kExprKindNames[0]) == static_cast<size_t>(ExprKind::PrimFunc) + 1,
              "an ExprKind without a name");
/// "var", "constant", "tuple item", "fn", ... (kExprKindNames).
constexpr const char* exprKindName(ExprKind kind) { return kExprKindNames[static_cast<size_t>(kind)]; }

struct ExprNode;
/// An immutable, shared expression.
using Expr = std::shared_ptr<const ExprNode>;

/// Base of all expressions. Nodes that own children release them through a
/// per-thread queue (expr_release.cpp), so dropping a deep chain never recurses.
struct ExprNode {
  const ExprKind kind;
  /// Where the node came from in the input text (unknown for pass-built nodes).
  Span span;
  /// Filled by type inference. Written at most once, from null to the type the
  /// node's contents determine, so sharing a node between modules stays sound
  /// (the same scheme as TVM's checked_type_).
  mutable Type checkedType;

  explicit ExprNode(ExprKind k, Span s = {}) : kind(k), span(std::move(s)) {}
  virtual ~ExprNode() = default;
  ExprNode(const ExprNode&) = delete;
  ExprNode& operator=(const ExprNode&) = delete;
};

/// Downcast: the node as T, or null when it is another kind (or null).
template <class T>
const T* as(const Expr& e) {
  return e && e->kind == T::kKind ? static_cast<const T*>(e.get()) : nullptr;
}
/// Downcast of a raw node pointer.
template <class T>
const T* as(const ExprNode* e) {
  return e && e->kind == T::kKind ? static_cast<const T*>(e) : nullptr;
}

/// A local variable (`%x`). Identity is the node pointer, never the name.
struct VarNode final : ExprNode {
  static constexpr ExprKind kKind = ExprKind::Var;
  /// Name as written; the printer may add a suffix to keep names unique.
  std::string name;
  /// Declared type (may be null when the text omitted it).
  Type annotation;
  /// Dataflow variables (`lv` in Relax) live only inside a dataflow block.
  bool isDataflow = false;
  /// Where a parameter's value lives (`%x {virtual_device=meta[VirtualDevice][0]}: T`),
  /// as TVM's PlanDevices annotates parameters; None when unconstrained.
  AttrValue virtualDevice;
  VarNode(std::string n, Type t, bool dataflow, Span s) : ExprNode(kKind, std::move(s)), name(std::move(n)), annotation(std::move(t)), isDataflow(dataflow) {}
};
using Var = std::shared_ptr<const VarNode>;

/// A reference to a module-level function (`@name`). Identity is the name.
struct GlobalVarNode final : ExprNode {
  static constexpr ExprKind kKind = ExprKind::GlobalVar;
  std::string name;
  GlobalVarNode(std::string n, Span s) : ExprNode(kKind, std::move(s)), name(std::move(n)) {}
};

/// A constant tensor.
struct ConstantNode final : ExprNode {
  static constexpr ExprKind kKind = ExprKind::Constant;
  NDArray data;
  ConstantNode(NDArray d, Span s) : ExprNode(kKind, std::move(s)), data(std::move(d)) {}
};

/// A reference to an op of the table, used as the callee of a Call.
struct OpNode final : ExprNode {
  static constexpr ExprKind kKind = ExprKind::Op;
  const OpDef* def;
  explicit OpNode(const OpDef* d) : ExprNode(kKind), def(d) {}
};

/// callee(args..., attrs...). The callee is an op, a global, a variable or a function.
struct CallNode final : ExprNode {
  static constexpr ExprKind kKind = ExprKind::Call;
  Expr callee;
  std::vector<Expr> args;
  /// For op calls: canonical attributes (schema order, defaults removed).
  AttrDict attrs;
  CallNode(Expr c, std::vector<Expr> a, AttrDict at, Span s) : ExprNode(kKind, std::move(s)), callee(std::move(c)), args(std::move(a)), attrs(std::move(at)) {}
  ~CallNode() override;
  /// The op when the callee is an op, else null.
  const OpDef* op() const;
};

/// (a, b, ...).
struct TupleNode final : ExprNode {
  static constexpr ExprKind kKind = ExprKind::Tuple;
  std::vector<Expr> fields;
  TupleNode(std::vector<Expr> f, Span s) : ExprNode(kKind, std::move(s)), fields(std::move(f)) {}
  ~TupleNode() override;
};

/// t.N
struct TupleGetItemNode final : ExprNode {
  static constexpr ExprKind kKind = ExprKind::TupleGetItem;
  Expr tuple;
  int index;
  TupleGetItemNode(Expr t, int i, Span s) : ExprNode(kKind, std::move(s)), tuple(std::move(t)), index(i) {}
  ~TupleGetItemNode() override;
};

/// let %var = value; body
struct LetNode final : ExprNode {
  static constexpr ExprKind kKind = ExprKind::Let;
  Var var;
  Expr value;
  Expr body;
  LetNode(Var v, Expr val, Expr b, Span s) : ExprNode(kKind, std::move(s)), var(std::move(v)), value(std::move(val)), body(std::move(b)) {}
  ~LetNode() override;
};

/// if (cond) { then } else { else }
struct IfNode final : ExprNode {
  static constexpr ExprKind kKind = ExprKind::If;
  Expr cond;
  Expr thenBranch;
  Expr elseBranch;
  IfNode(Expr c, Expr t, Expr e, Span s) : ExprNode(kKind, std::move(s)), cond(std::move(c)), thenBranch(std::move(t)), elseBranch(std::move(e)) {}
  ~IfNode() override;
};

/// fn (%params) -> ret { body }, with attributes (Primitive, Compiler, ...).
struct FunctionNode final : ExprNode {
  static constexpr ExprKind kKind = ExprKind::Function;
  std::vector<Var> params;
  Expr body;
  /// Declared return type (may be null).
  Type retType;
  AttrDict attrs;
  FunctionNode(std::vector<Var> p, Expr b, Type r, AttrDict a, Span s)
      : ExprNode(kKind, std::move(s)), params(std::move(p)), body(std::move(b)), retType(std::move(r)), attrs(std::move(a)) {}
  ~FunctionNode() override;
};
using Function = std::shared_ptr<const FunctionNode>;

/// One `%v = value;` binding inside a dataflow block.
struct Binding {
  Var var;
  Expr value;
};

/// A dataflow block followed by the expression it feeds:
///   dataflow { %lv = ...; output %gv = ...; } body
/// Variables marked isDataflow are local to the block; the others are its outputs.
struct DataflowNode final : ExprNode {
  static constexpr ExprKind kKind = ExprKind::Dataflow;
  std::vector<Binding> bindings;
  Expr body;
  DataflowNode(std::vector<Binding> b, Expr body_, Span s) : ExprNode(kKind, std::move(s)), bindings(std::move(b)), body(std::move(body_)) {}
  ~DataflowNode() override;
};

// ---- Constructors --------------------------------------------------------

/// A fresh variable.
Var makeVar(std::string name, Type annotation = nullptr, bool isDataflow = false, Span span = {});
/// A parameter with a virtual device (a `meta[VirtualDevice][N]` reference or None).
Var makeVarOnDevice(std::string name, Type annotation, AttrValue virtualDevice, Span span = {});
/// A global reference.
Expr makeGlobalVar(std::string name, Span span = {});
/// A constant.
Expr makeConstant(NDArray data, Span span = {});
/// The shared OpNode of an op.
Expr opExpr(OpId id);
/// A call to an op; attributes are checked and canonicalized against the schema
/// (throws DiagnosticError at `span` for an unknown key or a wrong kind).
Expr makeOpCall(OpId id, std::vector<Expr> args, const AttrDict& attrs = {}, Span span = {});
/// A call to any callee (for op callees prefer makeOpCall).
Expr makeCall(Expr callee, std::vector<Expr> args, AttrDict attrs = {}, Span span = {});
Expr makeTuple(std::vector<Expr> fields, Span span = {});
Expr makeTupleGetItem(Expr tuple, int index, Span span = {});
Expr makeLet(Var var, Expr value, Expr body, Span span = {});
Expr makeIf(Expr cond, Expr thenBranch, Expr elseBranch, Span span = {});
Function makeFunction(std::vector<Var> params, Expr body, Type retType = nullptr, AttrDict attrs = {}, Span span = {});
Expr makeDataflow(std::vector<Binding> bindings, Expr body, Span span = {});

/// The same function with different attributes (shares params and body).
Function withAttrs(const FunctionNode& fn, AttrDict attrs);

}  // namespace passlab
