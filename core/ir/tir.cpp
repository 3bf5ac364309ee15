#include "core/ir/tir.h"

#include <stdexcept>

namespace passlab {
namespace tir {

std::string_view binaryOpName(BinaryOp op) {
  switch (op) {
    case BinaryOp::Add: return "+";
    case BinaryOp::Sub: return "-";
    case BinaryOp::Mul: return "*";
    case BinaryOp::Div: return "/";
    case BinaryOp::Mod: return "%";
    case BinaryOp::FloorDiv: return "floordiv";
    case BinaryOp::FloorMod: return "floormod";
    case BinaryOp::Min: return "min";
    case BinaryOp::Max: return "max";
    case BinaryOp::EQ: return "==";
    case BinaryOp::NE: return "!=";
    case BinaryOp::LT: return "<";
    case BinaryOp::LE: return "<=";
    case BinaryOp::GT: return ">";
    case BinaryOp::GE: return ">=";
    case BinaryOp::And: return "&&";
    case BinaryOp::Or: return "||";
  }
  return "?";
}

std::string_view forKindName(ForKind k) {
  switch (k) {
    case ForKind::Serial: return "serial";
    case ForKind::Parallel: return "parallel";
    case ForKind::Vectorized: return "vectorized";
    case ForKind::Unrolled: return "unrolled";
  }
  return "serial";
}

std::string assertFailureText(const AssertStmtNode& a) { return "assert failed: " + a.errorKind + ": " + a.message; }

PrimExpr intImm(DataType d, int64_t v) { return std::make_shared<const IntImmNode>(d, v); }

PrimExpr floatImm(DataType d, double v) {
  // Keep the literal exactly representable in its dtype.
  if (d.code == DTypeCode::Float16) v = Half::toFloatBits(Half::fromDouble(v));
  if (d.code == DTypeCode::Float32) v = static_cast<float>(v);
  return std::make_shared<const FloatImmNode>(d, v);
}

Var makeVar(std::string name, DataType d) { return std::make_shared<const VarNode>(std::move(name), d); }

static bool isComparison(BinaryOp op) {
  return op == BinaryOp::EQ || op == BinaryOp::NE || op == BinaryOp::LT || op == BinaryOp::LE || op == BinaryOp::GT ||
         op == BinaryOp::GE || op == BinaryOp::And || op == BinaryOp::Or;
}

PrimExpr binary(BinaryOp op, PrimExpr a, PrimExpr b) {
  DataType d = isComparison(op) ? DataType(DTypeCode::Bool) : a->dtype;
  return std::make_shared<const BinaryNode>(op, std::move(a), std::move(b), d);
}

PrimExpr logicalNot(PrimExpr a) { return std::make_shared<const NotNode>(std::move(a)); }
PrimExpr select(PrimExpr c, PrimExpr t, PrimExpr f) { return std::make_shared<const SelectNode>(std::move(c), std::move(t), std::move(f)); }
PrimExpr cast(DataType d, PrimExpr v) { return std::make_shared<const CastNode>(d, std::move(v)); }
PrimExpr call(DataType d, std::string callee, std::vector<PrimExpr> args, bool isGlobal) {
  return std::make_shared<const CallNode>(d, std::move(callee), isGlobal, std::move(args));
}
PrimExpr load(Buffer b, std::vector<PrimExpr> indices) { return std::make_shared<const LoadNode>(std::move(b), std::move(indices)); }
PrimExpr let(Var v, PrimExpr value, PrimExpr body) {
  return std::make_shared<const LetNode>(std::move(v), std::move(value), std::move(body));
}
Buffer makeBuffer(std::string name, DataType d, std::vector<int64_t> shape) {
  return std::make_shared<const BufferNode>(std::move(name), d, std::move(shape));
}
Stmt store(Buffer b, std::vector<PrimExpr> indices, PrimExpr value) {
  return std::make_shared<const StoreNode>(std::move(b), std::move(indices), std::move(value));
}
Stmt forLoop(Var v, PrimExpr min, PrimExpr extent, ForKind k, Stmt body) {
  return std::make_shared<const ForNode>(std::move(v), std::move(min), std::move(extent), k, std::move(body));
}
Stmt letStmt(Var v, PrimExpr value, Stmt body) { return std::make_shared<const LetStmtNode>(std::move(v), std::move(value), std::move(body)); }
Stmt ifThenElse(PrimExpr c, Stmt t, Stmt e) { return std::make_shared<const IfThenElseNode>(std::move(c), std::move(t), std::move(e)); }
Stmt block(std::string name, std::vector<BlockIterVar> iterVars, PrimExpr predicate, std::vector<BufferRegion> reads,
           std::vector<BufferRegion> writes, std::vector<Buffer> allocBuffers, Stmt init, Stmt body, AttrDict annotations) {
  return std::make_shared<const BlockNode>(std::move(name), std::move(iterVars), std::move(predicate), std::move(reads), std::move(writes),
                                           std::move(allocBuffers), std::move(init), std::move(body), std::move(annotations));
}
Stmt allocate(Buffer b, Stmt body) { return std::make_shared<const AllocateNode>(std::move(b), std::move(body)); }
Stmt allocateConst(Buffer b, NDArray data, Stmt body) {
  return std::make_shared<const AllocateConstNode>(std::move(b), std::move(data), std::move(body));
}
Stmt seq(std::vector<Stmt> stmts) { return std::make_shared<const SeqNode>(std::move(stmts)); }
Stmt evaluate(PrimExpr v) { return std::make_shared<const EvaluateNode>(std::move(v)); }
Stmt assertStmt(PrimExpr cond, std::string errorKind, std::string message, Stmt body) {
  return std::make_shared<const AssertStmtNode>(std::move(cond), std::move(errorKind), std::move(message), std::move(body));
}

}  // namespace tir

PrimFunc makePrimFunc(std::vector<tir::Param> params, tir::Stmt body, AttrDict attrs, Span span) {
  return std::make_shared<const PrimFuncNode>(std::move(params), std::move(body), std::move(attrs), std::move(span));
}

}  // namespace passlab
