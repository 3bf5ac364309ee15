// The TIR evaluator: runs PrimFuncs statement by statement on the caller's
// buffers, so lowered modules can be checked against the graph-level result.
//
// Scalars carry their dtype. Float arithmetic runs in double and is rounded to
// the node's dtype after every operation (double has more than 2p+2 bits for
// float32 and float16, so + - * / come out correctly rounded); integer
// arithmetic wraps to the dtype's width. Every buffer access is bounds-checked.
// Recursion follows the TIR tree and PrimFunc calls, both shallow in practice.
#include <cmath>
#include <cstring>

#include "core/interp/interpreter.h"
#include "core/ir/float_math.h"
#include "core/ir/tir_lower_blocks.h"
#include "core/interp/interp_limits.h"
#include "core/interp/kernels.h"
#include "core/ir/limits.h"

namespace passlab::interp_detail {

namespace {

using tir::BinaryNode;
using tir::BinaryOp;
using tir::BufferNode;
using tir::PrimExpr;
using tir::PrimExprKind;
using tir::Stmt;
using tir::StmtKind;
using tir::Param;

/// A typed scalar: integers and bools in `i`, floats in `f`.
struct Scalar {
  DataType dtype;
  int64_t i = 0;
  double f = 0;
  bool isFloat() const { return dtype.isFloat(); }
  double asDouble() const { return isFloat() ? f : static_cast<double>(i); }
  int64_t asInt() const { return isFloat() ? saturate(f) : i; }
  bool truthy() const { return isFloat() ? f != 0.0 : i != 0; }
  static int64_t saturate(double d) {
    if (std::isnan(d)) return 0;
    if (d <= -9.2233720368547758e18) return INT64_MIN;
    if (d >= 9.2233720368547758e18) return INT64_MAX;
    return static_cast<int64_t>(d);
  }
};

/// `v` wrapped to an integer dtype's width (bool: non-zero is 1).
int64_t wrapToWidth(DataType d, int64_t v) {
  switch (d.code) {
    case DTypeCode::Bool: return v != 0;
    case DTypeCode::Int8: return static_cast<int8_t>(v);
    case DTypeCode::Int16: return static_cast<int16_t>(v);
    case DTypeCode::Int32: return static_cast<int32_t>(v);
    case DTypeCode::UInt8: return static_cast<uint8_t>(v);
    default: return v;
  }
}

/// `v` rounded to a float dtype (float16: nearest-even half).
double roundToFloat(DataType d, double v) {
  if (d.code == DTypeCode::Float16) return Half::toFloatBits(Half::fromDouble(v));
  if (d.code == DTypeCode::Float32) return static_cast<float>(v);
  return v;
}

Scalar makeFloat(DataType d, double v) { return Scalar{d, 0, roundToFloat(d, v)}; }
Scalar makeInt(DataType d, int64_t v) { return Scalar{d, wrapToWidth(d, v), 0}; }

/// Converts a scalar to `to` (float -> int truncates and saturates).
Scalar convert(const Scalar& s, DataType to) {
  if (to.isFloat()) return makeFloat(to, s.asDouble());
  if (to.isBool()) return makeInt(to, s.truthy());
  return makeInt(to, s.asInt());
}

int64_t wrapAdd(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b)); }
int64_t wrapSub(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b)); }
int64_t wrapMul(int64_t a, int64_t b) { return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b)); }

/// A buffer bound to storage: a parameter, an allocation or an embedded constant.
struct BufferSlot {
  const BufferNode* buffer;
  uint8_t* data;
  int64_t elements;
  bool readOnly;
  NDArray owner;  // keeps allocations alive
};

class TirMachine {
 public:
  TirMachine(const IRModule& mod, std::string name, int depth) : mod_(mod), name_(std::move(name)), depth_(depth) {}

  /// Binds a buffer parameter to existing storage.
  void bindBuffer(const Param& p, BufferSlot slot) {
    if (p.var) dataVars_.emplace_back(p.var.get(), buffers_.size());
    slot.buffer = p.buffer.get();
    buffers_.push_back(std::move(slot));
  }
  void bindScalar(const tir::Var& var, const Scalar& value) { vars_.emplace_back(var.get(), convert(value, var->dtype)); }

  /// Runs a PrimFunc body; blocks are lowered to loops first (shared, so a
  /// body without blocks is run as it is).
  void run(const Stmt& body) {
    if (body) exec(tir::lowerBlocks(body));
  }

  [[noreturn]] void fail(const std::string& message) const { throw KernelError("@" + name_ + ": " + message); }

  /// Checks a caller's storage against a buffer parameter (dtype and element count).
  void checkBinding(const BufferNode& b, DataType dtype, int64_t elements) const {
    std::optional<int64_t> count = limits::checkedElementCount(b.shape);
    if (!count) fail("buffer " + b.name + ": " + limits::tooManyElementsMessage(b.shape));
    int64_t expected = *count;
    if (dtype != b.dtype || elements != expected)
      fail("buffer " + b.name + " expects " + std::to_string(expected) + " elements of " + std::string(b.dtype.name()) +
           ", got " + std::to_string(elements) + " of " + std::string(dtype.name()));
  }

 private:
  const Scalar& lookup(const tir::VarNode* v) const {
    for (size_t i = vars_.size(); i-- > 0;)
      if (vars_[i].first == v) return vars_[i].second;
    fail("variable " + v->name + " is not defined");
  }

  BufferSlot& slotFor(const BufferNode* b) {
    for (size_t i = buffers_.size(); i-- > 0;)
      if (buffers_[i].buffer == b) return buffers_[i];
    // Text that names a buffer twice may build distinct nodes: fall back to the name.
    for (size_t i = buffers_.size(); i-- > 0;)
      if (buffers_[i].buffer->name == b->name) return buffers_[i];
    fail("buffer " + b->name + " is not allocated here");
  }

  /// Row-major flat offset of `indices` into `b`, bounds-checked. A single
  /// index into a multi-dimensional buffer addresses its flattened storage.
  int64_t offsetOf(const BufferSlot& slot, const std::vector<PrimExpr>& indices) {
    const BufferNode& b = *slot.buffer;
    int64_t offset = 0;
    if (indices.size() == b.shape.size()) {
      for (size_t d = 0; d < indices.size(); ++d) {
        int64_t i = eval(indices[d]).asInt();
        if (i < 0 || i >= b.shape[d])
          fail("index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(d) + " of buffer " + b.name +
               " (extent " + std::to_string(b.shape[d]) + ")");
        offset = offset * b.shape[d] + i;
      }
    } else if (indices.size() == 1) {
      offset = eval(indices[0]).asInt();
    } else {
      fail("buffer " + b.name + " has " + std::to_string(b.shape.size()) + " dimensions but is indexed with " +
           std::to_string(indices.size()));
    }
    if (offset < 0 || offset >= slot.elements)
      fail("flat index " + std::to_string(offset) + " is out of bounds for buffer " + b.name + " of " +
           std::to_string(slot.elements) + " elements");
    return offset;
  }

  Scalar read(const BufferSlot& slot, int64_t i) {
    DataType d = slot.buffer->dtype;
    const uint8_t* p = slot.data + i * d.bytes();
    switch (d.code) {
      case DTypeCode::Bool: return makeInt(d, *p != 0);
      case DTypeCode::Int8: return makeInt(d, *reinterpret_cast<const int8_t*>(p));
      case DTypeCode::UInt8: return makeInt(d, *p);
      case DTypeCode::Int16: return makeInt(d, *reinterpret_cast<const int16_t*>(p));
      case DTypeCode::Int32: return makeInt(d, *reinterpret_cast<const int32_t*>(p));
      case DTypeCode::Int64: return makeInt(d, *reinterpret_cast<const int64_t*>(p));
      case DTypeCode::Float16: return Scalar{d, 0, Half::toFloatBits(*reinterpret_cast<const uint16_t*>(p))};
      case DTypeCode::Float32: return Scalar{d, 0, *reinterpret_cast<const float*>(p)};
      case DTypeCode::Float64: return Scalar{d, 0, *reinterpret_cast<const double*>(p)};
    }
    return Scalar{d};
  }

  void write(BufferSlot& slot, int64_t i, const Scalar& value) {
    if (slot.readOnly) fail("store into read-only buffer " + slot.buffer->name);
    DataType d = slot.buffer->dtype;
    Scalar v = convert(value, d);
    uint8_t* p = slot.data + i * d.bytes();
    switch (d.code) {
      case DTypeCode::Bool: *p = v.i != 0; break;
      case DTypeCode::Int8: *reinterpret_cast<int8_t*>(p) = static_cast<int8_t>(v.i); break;
      case DTypeCode::UInt8: *p = static_cast<uint8_t>(v.i); break;
      case DTypeCode::Int16: *reinterpret_cast<int16_t*>(p) = static_cast<int16_t>(v.i); break;
      case DTypeCode::Int32: *reinterpret_cast<int32_t*>(p) = static_cast<int32_t>(v.i); break;
      case DTypeCode::Int64: *reinterpret_cast<int64_t*>(p) = v.i; break;
      case DTypeCode::Float16: *reinterpret_cast<uint16_t*>(p) = Half::fromDouble(v.f); break;
      case DTypeCode::Float32: *reinterpret_cast<float*>(p) = static_cast<float>(v.f); break;
      case DTypeCode::Float64: *reinterpret_cast<double*>(p) = v.f; break;
    }
  }

  Scalar binaryOp(const BinaryNode& n) {
    // Logical operators short-circuit like C, so guards such as `i < n && A[i] > 0` are safe.
    if (n.op == BinaryOp::And) return makeInt(DTypeCode::Bool, eval(n.a).truthy() && eval(n.b).truthy());
    if (n.op == BinaryOp::Or) return makeInt(DTypeCode::Bool, eval(n.a).truthy() || eval(n.b).truthy());
    Scalar a = eval(n.a), b = eval(n.b);
    bool isFloat = a.isFloat() || b.isFloat();
    switch (n.op) {
      case BinaryOp::EQ: return makeInt(DTypeCode::Bool, isFloat ? a.asDouble() == b.asDouble() : a.i == b.i);
      case BinaryOp::NE: return makeInt(DTypeCode::Bool, isFloat ? a.asDouble() != b.asDouble() : a.i != b.i);
      case BinaryOp::LT: return makeInt(DTypeCode::Bool, isFloat ? a.asDouble() < b.asDouble() : a.i < b.i);
      case BinaryOp::LE: return makeInt(DTypeCode::Bool, isFloat ? a.asDouble() <= b.asDouble() : a.i <= b.i);
      case BinaryOp::GT: return makeInt(DTypeCode::Bool, isFloat ? a.asDouble() > b.asDouble() : a.i > b.i);
      case BinaryOp::GE: return makeInt(DTypeCode::Bool, isFloat ? a.asDouble() >= b.asDouble() : a.i >= b.i);
      default: break;
    }
    DataType d = n.dtype;
    if (isFloat || d.isFloat()) {
      double x = a.asDouble(), y = b.asDouble();
      switch (n.op) {
        case BinaryOp::Add: return makeFloat(d, x + y);
        case BinaryOp::Sub: return makeFloat(d, x - y);
        case BinaryOp::Mul: return makeFloat(d, x * y);
        case BinaryOp::Div: return makeFloat(d, x / y);
        case BinaryOp::Mod: return makeFloat(d, std::fmod(x, y));
        case BinaryOp::FloorDiv: return makeFloat(d, std::floor(x / y));
        case BinaryOp::FloorMod: return makeFloat(d, x - std::floor(x / y) * y);
        case BinaryOp::Min: return makeFloat(d, x < y || std::isnan(x) ? x : y);
        case BinaryOp::Max: return makeFloat(d, x > y || std::isnan(x) ? x : y);
        default: break;
      }
    } else {
      int64_t x = a.i, y = b.i;
      bool division = n.op == BinaryOp::Div || n.op == BinaryOp::Mod || n.op == BinaryOp::FloorDiv || n.op == BinaryOp::FloorMod;
      if (division && y == 0) fail("integer division by zero");
      if (division && y == -1) {  // avoids the INT64_MIN / -1 trap; the quotient wraps
        bool quotient = n.op == BinaryOp::Div || n.op == BinaryOp::FloorDiv;
        return makeInt(d, quotient ? wrapSub(0, x) : 0);
      }
      switch (n.op) {
        case BinaryOp::Add: return makeInt(d, wrapAdd(x, y));
        case BinaryOp::Sub: return makeInt(d, wrapSub(x, y));
        case BinaryOp::Mul: return makeInt(d, wrapMul(x, y));
        case BinaryOp::Div: return makeInt(d, x / y);  // truncating, TVM's Div on integers
        case BinaryOp::Mod: return makeInt(d, x % y);
        case BinaryOp::FloorDiv: {
          int64_t q = x / y;
          return makeInt(d, (x % y != 0 && ((x < 0) != (y < 0))) ? q - 1 : q);
        }
        case BinaryOp::FloorMod: {
          int64_t r = x % y;
          return makeInt(d, (r != 0 && ((r < 0) != (y < 0))) ? r + y : r);
        }
        case BinaryOp::Min: return makeInt(d, std::min(x, y));
        case BinaryOp::Max: return makeInt(d, std::max(x, y));
        default: break;
      }
    }
    fail("unsupported binary operator " + std::string(tir::binaryOpName(n.op)));
  }

  Scalar intrinsic(const tir::CallNode& c) {
    std::string_view name = c.callee;
    for (std::string_view prefix : {"tir.", "T."})
      if (name.substr(0, prefix.size()) == prefix) name.remove_prefix(prefix.size());
    if (name == "if_then_else") {  // lazy, unlike select
      if (c.args.size() != 3) fail("if_then_else takes 3 arguments");
      return convert(eval(c.args[0]).truthy() ? eval(c.args[1]) : eval(c.args[2]), c.dtype);
    }
    std::vector<double> x;
    for (const PrimExpr& a : c.args) x.push_back(eval(a).asDouble());
    auto unary = [&](double (*f)(double)) {
      if (x.size() != 1) fail(std::string(name) + " takes 1 argument");
      return f(x[0]);
    };
    double r;
    if (FloatMathFn f = floatMathFunction(name)) r = unary(f);
    else if (name == "pow") {
      if (x.size() != 2) fail("pow takes 2 arguments");
      r = std::pow(x[0], x[1]);
    } else {
      fail("unknown intrinsic " + c.callee);
    }
    return c.dtype.isFloat() ? makeFloat(c.dtype, r) : convert(makeFloat(DTypeCode::Float64, r), c.dtype);
  }

  /// A buffer argument of a PrimFunc call: a variable naming a buffer (a
  /// parameter's data variable, or an allocation's name). Null otherwise.
  BufferSlot* bufferArgument(const PrimExpr& arg) {
    const auto* v = tir::as<tir::VarNode>(arg);
    if (!v) return nullptr;
    for (size_t i = dataVars_.size(); i-- > 0;)
      if (dataVars_[i].first == v) return &buffers_[dataVars_[i].second];
    for (size_t i = buffers_.size(); i-- > 0;)
      if (buffers_[i].buffer->name == v->name) return &buffers_[i];
    return nullptr;
  }

  Scalar globalCall(const tir::CallNode& c) {
    if (depth_ >= 64) fail("PrimFunc calls nest deeper than 64 levels");
    Expr fn = mod_ ? mod_->lookup(c.callee) : nullptr;
    if (!fn || fn->kind != ExprKind::PrimFunc) fail("no PrimFunc @" + c.callee + " in the module");
    const auto& callee = *static_cast<const PrimFuncNode*>(fn.get());
    if (callee.params.size() != c.args.size())
      fail("@" + c.callee + " takes " + std::to_string(callee.params.size()) + " arguments, got " + std::to_string(c.args.size()));
    TirMachine inner(mod_, c.callee, depth_ + 1);
    for (size_t i = 0; i < c.args.size(); ++i) {
      const Param& p = callee.params[i];
      if (p.buffer) {
        BufferSlot* slot = bufferArgument(c.args[i]);
        if (!slot) fail("argument " + std::to_string(i) + " of @" + c.callee + " must name a buffer");
        inner.checkBinding(*p.buffer, slot->buffer->dtype, slot->elements);
        inner.bindBuffer(p, *slot);
      } else {
        inner.bindScalar(p.var, eval(c.args[i]));
      }
    }
    inner.run(callee.body);
    return makeInt(c.dtype, 0);
  }

  Scalar eval(const PrimExpr& e) {
    switch (e->kind) {
      case PrimExprKind::IntImm: return makeInt(e->dtype, static_cast<const tir::IntImmNode&>(*e).value);
      case PrimExprKind::FloatImm: return makeFloat(e->dtype, static_cast<const tir::FloatImmNode&>(*e).value);
      case PrimExprKind::Var: return lookup(static_cast<const tir::VarNode*>(e.get()));
      case PrimExprKind::Binary: return binaryOp(static_cast<const BinaryNode&>(*e));
      case PrimExprKind::Not: return makeInt(DTypeCode::Bool, !eval(static_cast<const tir::NotNode&>(*e).a).truthy());
      case PrimExprKind::Select: {
        const auto& s = static_cast<const tir::SelectNode&>(*e);
        return convert(eval(s.cond).truthy() ? eval(s.trueValue) : eval(s.falseValue), e->dtype);
      }
      case PrimExprKind::Cast: return convert(eval(static_cast<const tir::CastNode&>(*e).value), e->dtype);
      case PrimExprKind::Call: {
        const auto& c = static_cast<const tir::CallNode&>(*e);
        return c.isGlobal ? globalCall(c) : intrinsic(c);
      }
      case PrimExprKind::Load: {
        const auto& l = static_cast<const tir::LoadNode&>(*e);
        BufferSlot& slot = slotFor(l.buffer.get());
        return read(slot, offsetOf(slot, l.indices));
      }
      case PrimExprKind::Let: {
        const auto& l = static_cast<const tir::LetNode&>(*e);
        vars_.emplace_back(l.var.get(), convert(eval(l.value), l.var->dtype));
        Scalar result = eval(l.body);
        vars_.pop_back();
        return result;
      }
    }
    fail("unknown expression");
  }

  void exec(const Stmt& s) {
    switch (s->kind) {
      case StmtKind::Store: {
        const auto& st = static_cast<const tir::StoreNode&>(*s);
        BufferSlot& slot = slotFor(st.buffer.get());
        int64_t offset = offsetOf(slot, st.indices);
        Scalar value = eval(st.value);
        write(slotFor(st.buffer.get()), offset, value);  // re-resolve: a nested call may have grown buffers_
        return;
      }
      case StmtKind::For: {
        // Parallel, vectorized and unrolled loops have independent iterations
        // by construction, so running them serially gives the same result.
        const auto& f = static_cast<const tir::ForNode&>(*s);
        int64_t begin = eval(f.min).asInt();
        int64_t extent = eval(f.extent).asInt();
        size_t slot = vars_.size();
        vars_.emplace_back(f.var.get(), makeInt(f.var->dtype, begin));
        for (int64_t i = 0; i < extent; ++i) {
          if ((++iterations_ & 0x3FF) == 0 && interp::interruptRequested()) throw KernelError(interp::kInterruptedMessage);
          vars_[slot].second = makeInt(f.var->dtype, begin + i);
          exec(f.body);
        }
        vars_.pop_back();
        return;
      }
      case StmtKind::LetStmt: {
        const auto& l = static_cast<const tir::LetStmtNode&>(*s);
        vars_.emplace_back(l.var.get(), convert(eval(l.value), l.var->dtype));
        exec(l.body);
        vars_.pop_back();
        return;
      }
      case StmtKind::IfThenElse: {
        const auto& i = static_cast<const tir::IfThenElseNode&>(*s);
        if (eval(i.cond).truthy()) exec(i.thenCase);
        else if (i.elseCase) exec(i.elseCase);
        return;
      }
      case StmtKind::Allocate: {
        const auto& a = static_cast<const tir::AllocateNode&>(*s);
        NDArray storage(a.buffer->dtype, a.buffer->shape);  // zero-filled: deterministic scratch
        buffers_.push_back(BufferSlot{a.buffer.get(), storage.mutableData(), storage.numElements(), false, storage});
        exec(a.body);
        buffers_.pop_back();
        return;
      }
      case StmtKind::AllocateConst: {
        const auto& a = static_cast<const tir::AllocateConstNode&>(*s);
        checkBinding(*a.buffer, a.data.dtype(), a.data.numElements());
        NDArray data = a.data;  // shares the constant's storage; read-only below
        buffers_.push_back(BufferSlot{a.buffer.get(), data.mutableData(), data.numElements(), true, data});
        exec(a.body);
        buffers_.pop_back();
        return;
      }
      case StmtKind::Seq:
        for (const Stmt& part : static_cast<const tir::SeqNode&>(*s).stmts) exec(part);
        return;
      case StmtKind::Evaluate: eval(static_cast<const tir::EvaluateNode&>(*s).value); return;
      case StmtKind::Assert: {
        const auto& a = static_cast<const tir::AssertStmtNode&>(*s);
        if (!eval(a.cond).truthy()) fail(tir::assertFailureText(a));
        if (a.body) exec(a.body);
        return;
      }
      case StmtKind::Block: fail("internal error: a block reached the interpreter unlowered");
    }
  }

  IRModule mod_;
  std::string name_;
  int depth_;
  /// Loop iterations run, for polling the interrupt flag.
  uint64_t iterations_ = 0;
  std::vector<std::pair<const tir::VarNode*, Scalar>> vars_;
  std::vector<BufferSlot> buffers_;
  std::vector<std::pair<const tir::VarNode*, size_t>> dataVars_;
};

}  // namespace

void runPrimFunc(const IRModule& mod, const PrimFuncNode& fn, const std::string& name, std::span<const NDArray> args,
                 size_t readOnlyCount) {
  TirMachine machine(mod, name, 0);
  if (args.size() != fn.params.size())
    machine.fail("takes " + std::to_string(fn.params.size()) + " arguments, got " + std::to_string(args.size()));
  for (size_t i = 0; i < args.size(); ++i) {
    const Param& p = fn.params[i];
    NDArray storage = args[i];
    if (p.buffer) {
      machine.checkBinding(*p.buffer, storage.dtype(), storage.numElements());
      machine.bindBuffer(p, BufferSlot{p.buffer.get(), storage.mutableData(), storage.numElements(), i < readOnlyCount, storage});
    } else {
      if (storage.numElements() != 1) machine.fail("scalar argument " + std::to_string(i) + " must be a single value");
      Scalar value = storage.dtype().isFloat() ? Scalar{storage.dtype(), 0, storage.getAsDouble(0)}
                                               : Scalar{storage.dtype(), storage.getAsInt(0), 0};
      machine.bindScalar(p.var, value);
    }
  }
  machine.run(fn.body);
}

}  // namespace passlab::interp_detail
