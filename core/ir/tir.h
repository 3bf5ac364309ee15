// Low-level functions (PrimFuncs): loop nests over buffers, as TVM's TIR.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/ir/attrs.h"
#include "core/ir/dtype.h"
#include "core/ir/expr.h"
#include "core/ir/ndarray.h"

namespace passlab {
namespace tir {

/// Kinds of scalar TIR expressions.
enum class PrimExprKind : uint8_t { IntImm, FloatImm, Var, Binary, Not, Select, Cast, Call, Load, Let };

struct PrimExprNode;
/// An immutable scalar expression.
using PrimExpr = std::shared_ptr<const PrimExprNode>;

/// Base of scalar expressions; every one has a dtype.
struct PrimExprNode {
  const PrimExprKind kind;
  DataType dtype;
  PrimExprNode(PrimExprKind k, DataType d) : kind(k), dtype(d) {}
  virtual ~PrimExprNode() = default;
};

/// Downcast helper.
template <class T>
const T* as(const PrimExpr& e) {
  return e && e->kind == T::kKind ? static_cast<const T*>(e.get()) : nullptr;
}

/// An integer or bool literal.
struct IntImmNode final : PrimExprNode {
  static constexpr PrimExprKind kKind = PrimExprKind::IntImm;
  int64_t value;
  IntImmNode(DataType d, int64_t v) : PrimExprNode(kKind, d), value(v) {}
};

/// A float literal. For float16 the value is already rounded to half, so it is
/// exactly representable (embedded float16 constants are first-class).
struct FloatImmNode final : PrimExprNode {
  static constexpr PrimExprKind kKind = PrimExprKind::FloatImm;
  double value;
  FloatImmNode(DataType d, double v) : PrimExprNode(kKind, d), value(v) {}
};

/// A scalar variable (loop index, let-bound value, scalar parameter). Identity is the pointer.
struct VarNode final : PrimExprNode {
  static constexpr PrimExprKind kKind = PrimExprKind::Var;
  std::string name;
  VarNode(std::string n, DataType d) : PrimExprNode(kKind, d), name(std::move(n)) {}
};
using Var = std::shared_ptr<const VarNode>;

/// Binary operators.
enum class BinaryOp : uint8_t { Add, Sub, Mul, Div, Mod, FloorDiv, FloorMod, Min, Max, EQ, NE, LT, LE, GT, GE, And, Or };
/// Spelling used by the printer: "+", "-", "min", "floordiv", ...
std::string_view binaryOpName(BinaryOp op);

/// a op b. Comparison results are bool.
struct BinaryNode final : PrimExprNode {
  static constexpr PrimExprKind kKind = PrimExprKind::Binary;
  BinaryOp op;
  PrimExpr a, b;
  BinaryNode(BinaryOp o, PrimExpr x, PrimExpr y, DataType d) : PrimExprNode(kKind, d), op(o), a(std::move(x)), b(std::move(y)) {}
};

/// !a
struct NotNode final : PrimExprNode {
  static constexpr PrimExprKind kKind = PrimExprKind::Not;
  PrimExpr a;
  explicit NotNode(PrimExpr x) : PrimExprNode(kKind, DTypeCode::Bool), a(std::move(x)) {}
};

/// select(cond, t, f)
struct SelectNode final : PrimExprNode {
  static constexpr PrimExprKind kKind = PrimExprKind::Select;
  PrimExpr cond, trueValue, falseValue;
  SelectNode(PrimExpr c, PrimExpr t, PrimExpr f) : PrimExprNode(kKind, t->dtype), cond(std::move(c)), trueValue(std::move(t)), falseValue(std::move(f)) {}
};

/// dtype(value)
struct CastNode final : PrimExprNode {
  static constexpr PrimExprKind kKind = PrimExprKind::Cast;
  PrimExpr value;
  CastNode(DataType d, PrimExpr v) : PrimExprNode(kKind, d), value(std::move(v)) {}
};

/// A call to an intrinsic (`exp`, `sqrt`, `tanh`, `erf`, `fabs`, `pow`, `round`,
/// `floor`, `ceil`, `sigmoid`) or, when `isGlobal`, to another PrimFunc of the
/// module (`@name(args)`; buffers are passed by their data variable).
struct CallNode final : PrimExprNode {
  static constexpr PrimExprKind kKind = PrimExprKind::Call;
  std::string callee;
  bool isGlobal;
  std::vector<PrimExpr> args;
  CallNode(DataType d, std::string c, bool global, std::vector<PrimExpr> a)
      : PrimExprNode(kKind, d), callee(std::move(c)), isGlobal(global), args(std::move(a)) {}
};

/// A buffer: a named, typed, statically shaped region of memory.
struct BufferNode {
  std::string name;
  DataType dtype;
  std::vector<int64_t> shape;
  BufferNode(std::string n, DataType d, std::vector<int64_t> s) : name(std::move(n)), dtype(d), shape(std::move(s)) {}
};
using Buffer = std::shared_ptr<const BufferNode>;

/// buffer[i, j, ...]
struct LoadNode final : PrimExprNode {
  static constexpr PrimExprKind kKind = PrimExprKind::Load;
  Buffer buffer;
  std::vector<PrimExpr> indices;
  LoadNode(Buffer b, std::vector<PrimExpr> i) : PrimExprNode(kKind, b->dtype), buffer(std::move(b)), indices(std::move(i)) {}
};

/// `let var = value in body` as an expression (TVMScript's `T.Let(body,
/// where={x: value})`, the older `T.let(x, value, body)`): `var` is bound to
/// `value` (evaluated once) while `body` is evaluated; the result is body's.
struct LetNode final : PrimExprNode {
  static constexpr PrimExprKind kKind = PrimExprKind::Let;
  Var var;
  PrimExpr value, body;
  LetNode(Var v, PrimExpr val, PrimExpr b) : PrimExprNode(kKind, b->dtype), var(std::move(v)), value(std::move(val)), body(std::move(b)) {}
};

/// Kinds of statements.
enum class StmtKind : uint8_t { Store, For, LetStmt, IfThenElse, Allocate, AllocateConst, Seq, Evaluate, Block, Assert };

/// The name of each statement kind, indexed by its value (TVMScript's word for
/// it where it has one). The node matcher's edit script and anything else that
/// names a statement kind to the user read it, so a new kind is named here once.
inline constexpr const char* kStmtKindNames[] = {"store", "for",      "let",   "if",    "allocate",
                                                 "allocate_const", "seq", "evaluate", "block", "assert"};
static_assert(sizeof(kStmtKindNames) / sizeof(kStmtKindNames[0]) == static_cast<size_t>(StmtKind::Assert) + 1,
              "a StmtKind without a name");
/// "store", "for", "let", ... (kStmtKindNames).
constexpr const char* stmtKindName(StmtKind kind) { return kStmtKindNames[static_cast<size_t>(kind)]; }

struct StmtNode;
/// An immutable statement.
using Stmt = std::shared_ptr<const StmtNode>;

/// Base of statements.
struct StmtNode {
  const StmtKind kind;
  explicit StmtNode(StmtKind k) : kind(k) {}
  virtual ~StmtNode() = default;
};

/// Downcast helper.
template <class T>
const T* as(const Stmt& s) {
  return s && s->kind == T::kKind ? static_cast<const T*>(s.get()) : nullptr;
}

/// buffer[indices] = value
struct StoreNode final : StmtNode {
  static constexpr StmtKind kKind = StmtKind::Store;
  Buffer buffer;
  std::vector<PrimExpr> indices;
  PrimExpr value;
  StoreNode(Buffer b, std::vector<PrimExpr> i, PrimExpr v) : StmtNode(kKind), buffer(std::move(b)), indices(std::move(i)), value(std::move(v)) {}
};

/// How a loop is to be executed.
enum class ForKind : uint8_t { Serial, Parallel, Vectorized, Unrolled };
/// "serial", "parallel", "vectorized", "unrolled".
std::string_view forKindName(ForKind k);

/// for (var, min, extent) { body }
struct ForNode final : StmtNode {
  static constexpr StmtKind kKind = StmtKind::For;
  Var var;
  PrimExpr min, extent;
  ForKind forKind;
  Stmt body;
  ForNode(Var v, PrimExpr mn, PrimExpr ext, ForKind k, Stmt b) : StmtNode(kKind), var(std::move(v)), min(std::move(mn)), extent(std::move(ext)), forKind(k), body(std::move(b)) {}
};

/// let var = value in body
struct LetStmtNode final : StmtNode {
  static constexpr StmtKind kKind = StmtKind::LetStmt;
  Var var;
  PrimExpr value;
  Stmt body;
  LetStmtNode(Var v, PrimExpr val, Stmt b) : StmtNode(kKind), var(std::move(v)), value(std::move(val)), body(std::move(b)) {}
};

/// if (cond) { then } else { else }; elseCase may be null.
struct IfThenElseNode final : StmtNode {
  static constexpr StmtKind kKind = StmtKind::IfThenElse;
  PrimExpr cond;
  Stmt thenCase, elseCase;
  IfThenElseNode(PrimExpr c, Stmt t, Stmt e) : StmtNode(kKind), cond(std::move(c)), thenCase(std::move(t)), elseCase(std::move(e)) {}
};

/// A scratch buffer live for `body`, zero-filled each time execution enters
/// the Allocate (by the interpreter and by the LLVM code alike). Schedules rely
/// on it: a padded copy writes only the interior and leaves the border zero.
struct AllocateNode final : StmtNode {
  static constexpr StmtKind kKind = StmtKind::Allocate;
  Buffer buffer;
  Stmt body;
  AllocateNode(Buffer b, Stmt bd) : StmtNode(kKind), buffer(std::move(b)), body(std::move(bd)) {}
};

/// A constant buffer embedded in the function (linked parameters), any dtype.
struct AllocateConstNode final : StmtNode {
  static constexpr StmtKind kKind = StmtKind::AllocateConst;
  Buffer buffer;
  NDArray data;
  Stmt body;
  AllocateConstNode(Buffer b, NDArray d, Stmt bd) : StmtNode(kKind), buffer(std::move(b)), data(std::move(d)), body(std::move(bd)) {}
};

/// s0; s1; ...
struct SeqNode final : StmtNode {
  static constexpr StmtKind kKind = StmtKind::Seq;
  std::vector<Stmt> stmts;
  explicit SeqNode(std::vector<Stmt> s) : StmtNode(kKind), stmts(std::move(s)) {}
};

/// Evaluates an expression for its effect (a call).
struct EvaluateNode final : StmtNode {
  static constexpr StmtKind kKind = StmtKind::Evaluate;
  PrimExpr value;
  explicit EvaluateNode(PrimExpr v) : StmtNode(kKind), value(std::move(v)) {}
};

/// `assert cond, message` followed by `body` (TVM's AssertStmt in the
/// releases, whose body is what the assertion guards; main's AssertStmt has no
/// body and guards the statements after it, which is the same thing). When
/// `cond` is false at run time the function stops with an error naming
/// `errorKind` and `message` (main's error kind; releases always raise a
/// RuntimeError); `body` runs only when it holds.
struct AssertStmtNode final : StmtNode {
  static constexpr StmtKind kKind = StmtKind::Assert;
  PrimExpr cond;
  /// "RuntimeError", "ValueError", ... (main's `("ValueError", [...])`).
  std::string errorKind;
  std::string message;
  Stmt body;
  AssertStmtNode(PrimExpr c, std::string kind, std::string msg, Stmt b)
      : StmtNode(kKind), cond(std::move(c)), errorKind(std::move(kind)), message(std::move(msg)), body(std::move(b)) {}
};

/// The error kind of an assert written without one.
inline constexpr const char* kDefaultAssertKind = "RuntimeError";
/// What a failing assert reports, "assert failed: <kind>: <message>": the
/// interpreter and compiled code (host JIT, Hexagon) say the same.
std::string assertFailureText(const AssertStmtNode& a);

/// Whether a block iteration variable walks a data-parallel or a reduction axis
/// (TVMScript's `T.axis.spatial` / `T.axis.reduce`, "S"/"R" in `T.axis.remap`).
enum class IterKind : uint8_t { Spatial, Reduce };

/// A block iteration variable with its domain [min, min + extent) and the
/// value it is bound to at the block's realization (TVM's IterVar plus the
/// matching BlockRealize binding, kept together since passlab never separates them).
struct BlockIterVar {
  Var var;
  PrimExpr min, extent;
  IterKind iterKind = IterKind::Spatial;
  PrimExpr binding;
};

/// A region of a buffer read or written by a block: per dimension a minimum and
/// an extent (extent 1 is a point access, printed `A[i]`; otherwise `A[i:i + 4]`).
struct BufferRegion {
  Buffer buffer;
  std::vector<std::pair<PrimExpr, PrimExpr>> ranges;
};

/// A TVMScript block, realized where it stands (TVM's BlockRealize + Block):
///   with T.block("name"):
///       vi, vk = T.axis.remap("SR", [i, k])
///       T.where(predicate); T.reads(...); T.writes(...)
///       scratch = T.alloc_buffer(...)
///       with T.init(): init
///       body
/// Blocks exist for scheduling and for printing back what TVM prints; the
/// interpreter and code generators see them only after tir::lowerBlocks (which,
/// like TVM's LowerInitBlock + ConvertBlocksToOpaque, binds the iteration
/// variables, runs `init` when every reduction variable is at its minimum, and
/// turns allocBuffers into Allocate). A PrimFunc whose body is a block named
/// "root" prints that block implicitly, as TVM's printer does.
struct BlockNode final : StmtNode {
  static constexpr StmtKind kKind = StmtKind::Block;
  std::string name;
  std::vector<BlockIterVar> iterVars;
  /// `T.where(...)`; null when the block always runs.
  PrimExpr predicate;
  std::vector<BufferRegion> reads, writes;
  /// Buffers allocated for the block's lifetime (`T.alloc_buffer` inside it).
  std::vector<Buffer> allocBuffers;
  /// `with T.init():`; null when absent.
  Stmt init;
  Stmt body;
  /// `T.block_attr({...})`.
  AttrDict annotations;
  BlockNode(std::string n, std::vector<BlockIterVar> iv, PrimExpr pred, std::vector<BufferRegion> r, std::vector<BufferRegion> w,
            std::vector<Buffer> alloc, Stmt in, Stmt b, AttrDict ann)
      : StmtNode(kKind), name(std::move(n)), iterVars(std::move(iv)), predicate(std::move(pred)), reads(std::move(r)), writes(std::move(w)),
        allocBuffers(std::move(alloc)), init(std::move(in)), body(std::move(b)), annotations(std::move(ann)) {}
};

/// One PrimFunc parameter: a buffer, or a scalar variable when `buffer` is null.
struct Param {
  Var var;
  Buffer buffer;
};

}  // namespace tir

/// A low-level function. Lives in a module next to graph-level functions.
struct PrimFuncNode final : ExprNode {
  static constexpr ExprKind kKind = ExprKind::PrimFunc;
  std::vector<tir::Param> params;
  tir::Stmt body;
  /// `target`, `global_symbol`, ... (TVM's names).
  AttrDict attrs;
  PrimFuncNode(std::vector<tir::Param> p, tir::Stmt b, AttrDict a, Span s)
      : ExprNode(kKind, std::move(s)), params(std::move(p)), body(std::move(b)), attrs(std::move(a)) {}
};
using PrimFunc = std::shared_ptr<const PrimFuncNode>;

namespace tir {
// ---- Constructors (type rules applied: comparisons give bool, etc.) ----
PrimExpr intImm(DataType d, int64_t v);
PrimExpr floatImm(DataType d, double v);
Var makeVar(std::string name, DataType d = DTypeCode::Int32);
PrimExpr binary(BinaryOp op, PrimExpr a, PrimExpr b);
PrimExpr logicalNot(PrimExpr a);
PrimExpr select(PrimExpr c, PrimExpr t, PrimExpr f);
PrimExpr cast(DataType d, PrimExpr v);
PrimExpr call(DataType d, std::string callee, std::vector<PrimExpr> args, bool isGlobal = false);
PrimExpr load(Buffer b, std::vector<PrimExpr> indices);
PrimExpr let(Var v, PrimExpr value, PrimExpr body);
Buffer makeBuffer(std::string name, DataType d, std::vector<int64_t> shape);
Stmt store(Buffer b, std::vector<PrimExpr> indices, PrimExpr value);
Stmt forLoop(Var v, PrimExpr min, PrimExpr extent, ForKind k, Stmt body);
Stmt letStmt(Var v, PrimExpr value, Stmt body);
Stmt ifThenElse(PrimExpr c, Stmt t, Stmt e = nullptr);
Stmt allocate(Buffer b, Stmt body);
Stmt allocateConst(Buffer b, NDArray data, Stmt body);
Stmt seq(std::vector<Stmt> stmts);
Stmt evaluate(PrimExpr v);
Stmt assertStmt(PrimExpr cond, std::string errorKind, std::string message, Stmt body);
Stmt block(std::string name, std::vector<BlockIterVar> iterVars, PrimExpr predicate, std::vector<BufferRegion> reads,
           std::vector<BufferRegion> writes, std::vector<Buffer> allocBuffers, Stmt init, Stmt body, AttrDict annotations = {});
}  // namespace tir

/// A PrimFunc.
PrimFunc makePrimFunc(std::vector<tir::Param> params, tir::Stmt body, AttrDict attrs = {}, Span span = {});

}  // namespace passlab
