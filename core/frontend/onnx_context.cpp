// GraphBuilder (typed expression construction, import-time evaluation of
// constant subexpressions) and NodeContext (inputs and attribute access).
#include "core/frontend/onnx_context.h"

#include <algorithm>
#include <numeric>

#include "core/frontend/onnx_proto_util.h"
#include "core/interp/kernels.h"

namespace passlab::onnx_import {

std::string listText(const std::vector<int64_t>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + std::to_string(values[i]);
  return out + "]";
}

int64_t normalizeOnnxAxis(int64_t axis, int64_t rank, std::string_view what) {
  if (axis < -rank || axis >= rank)
    throw NodeError{std::string(what) + " " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank),
                    "onnx.invalid"};
  return axis < 0 ? axis + rank : axis;
}

// ---- GraphBuilder ---------------------------------------------------------------

Expr GraphBuilder::call(OpId op, std::vector<Expr> args, const AttrDict& attrs) {
  const OpDef& def = opDef(op);
  AttrDict canonical;
  Type type;
  try {
    canonical = canonicalizeAttrs(def, attrs);
    std::vector<Type> argTypes;
    argTypes.reserve(args.size());
    for (const Expr& a : args) argTypes.push_back(a->checkedType);
    type = inferOpCallType(def, argTypes, canonical);
  } catch (const TypeRelationError& e) {
    throw NodeError{e.what(), "onnx.type"};
  }
  Expr e = makeCall(opExpr(op), std::move(args), std::move(canonical), span_);
  // The relation just computed the type from the arguments' types, which is
  // what type inference would compute: record it so it need not run again.
  e->checkedType = std::move(type);
  return e;
}

Expr GraphBuilder::constant(NDArray data) { return makeConstant(std::move(data), span_); }

Expr GraphBuilder::scalar(DataType dtype, double value) { return constant(NDArray::scalar(dtype, value)); }

Expr GraphBuilder::tuple(std::vector<Expr> fields) {
  std::vector<Type> types;
  for (const Expr& f : fields) types.push_back(f->checkedType);
  Expr e = makeTuple(std::move(fields), span_);
  e->checkedType = tupleType(std::move(types));
  return e;
}

Expr GraphBuilder::tupleItem(Expr tuple, int index) {
  const auto* tt = as<TupleTypeNode>(tuple->checkedType);
  if (!tt || index < 0 || static_cast<size_t>(index) >= tt->fields.size())
    throw NodeError{"tuple index " + std::to_string(index) + " out of range", "onnx.internal"};
  Type fieldType = tt->fields[index];
  Expr e = makeTupleGetItem(std::move(tuple), index, span_);
  e->checkedType = std::move(fieldType);
  return e;
}

const TensorTypeNode& GraphBuilder::tensorType(const Expr& e) {
  const auto* t = as<TensorTypeNode>(e->checkedType);
  if (!t) throw NodeError{"expected a tensor, got " + typeToString(e->checkedType), "onnx.invalid"};
  return *t;
}

std::optional<Value> GraphBuilder::evaluateValue(const Expr& root, std::vector<std::string>* missing) {
  // Post-order walk with an explicit stack: a constant chain may be long.
  struct Frame {
    Expr expr;
    bool expanded;
  };
  std::vector<Frame> stack{{root, false}};
  std::unordered_set<const ExprNode*> failed;
  auto known = [&](const Expr& e) { return memo_.count(e.get()) != 0; };
  while (!stack.empty()) {
    Frame frame = stack.back();
    stack.pop_back();
    const Expr& e = frame.expr;
    if (known(e) || failed.count(e.get())) continue;
    if (const auto* c = as<ConstantNode>(e)) {
      memo_[e.get()] = {e, Value(c->data)};
      continue;
    }
    if (const auto* v = as<VarNode>(e)) {
      auto it = paramNames_.find(v);
      std::string name = it != paramNames_.end() ? it->second : v->name;
      if (std::find(missing->begin(), missing->end(), name) == missing->end()) missing->push_back(name);
      failed.insert(e.get());
      continue;
    }
    const auto* call = as<CallNode>(e);
    const OpDef* op = call ? call->op() : nullptr;
    if (op && op->id == OpId::ShapeOf) {
      // shape_of needs only the static type of its argument, never its value.
      const auto& shape = tensorType(call->args[0]).shape;
      if (std::any_of(shape.begin(), shape.end(), [](int64_t d) { return d < 0; })) {
        failed.insert(e.get());
        continue;
      }
      DataType dtype = tensorType(e).dtype;
      NDArray out(dtype, {static_cast<int64_t>(shape.size())});
      for (size_t i = 0; i < shape.size(); ++i) {
        if (dtype.code == DTypeCode::Int64) out.mutableValues<int64_t>()[i] = shape[i];
        else out.setFromDouble(static_cast<int64_t>(i), static_cast<double>(shape[i]));
      }
      memo_[e.get()] = {e, Value(out)};
      continue;
    }
    std::vector<Expr> children;
    if (op) children = call->args;
    else if (const auto* t = as<TupleNode>(e)) children = t->fields;
    else if (const auto* g = as<TupleGetItemNode>(e)) children = {g->tuple};
    else {
      failed.insert(e.get());  // functions, globals, ...: not evaluated at import
      continue;
    }
    if (!frame.expanded) {
      stack.push_back({e, true});
      for (const Expr& c : children)
        if (!known(c) && !failed.count(c.get())) stack.push_back({c, false});
      continue;
    }
    bool ok = std::all_of(children.begin(), children.end(), known);
    if (!ok) {
      failed.insert(e.get());
      continue;
    }
    std::vector<Value> args;
    for (const Expr& c : children) args.push_back(memo_.at(c.get()).second);
    Value result;
    if (op) {
      try {
        result = runKernel(*op, args, call->attrs);
      } catch (const KernelError& err) {
        throw NodeError{std::string("evaluating a constant at import: ") + err.what(), "onnx.invalid"};
      }
    } else if (as<TupleNode>(e)) {
      result = Value::tuple(std::move(args));
    } else {
      result = args[0].fields().at(static_cast<size_t>(as<TupleGetItemNode>(e)->index));
    }
    memo_[e.get()] = {e, std::move(result)};
  }
  auto it = memo_.find(root.get());
  if (it == memo_.end()) return std::nullopt;
  return it->second.second;
}

std::optional<NDArray> GraphBuilder::tryEvaluate(const Expr& e) {
  std::vector<std::string> missing;
  std::optional<Value> v = evaluateValue(e, &missing);
  if (!v || !v->isTensor()) return std::nullopt;
  return v->tensor();
}

NDArray GraphBuilder::evaluate(const Expr& e, std::string_view what) {
  std::vector<std::string> missing;
  std::optional<Value> v = evaluateValue(e, &missing);
  if (v && v->isTensor()) return v->tensor();
  throw NeedsConstant{std::string(what), std::move(missing)};
}

Expr GraphBuilder::reshape(Expr x, std::vector<int64_t> shape) {
  if (shapeOf(x) == shape) return x;
  AttrDict attrs{{"newshape", AttrValue::ints(shape)}};
  // A literal 0 in newshape means "copy" unless allowzero is set.
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) attrs.set("allowzero", AttrValue::boolean(true));
  return call(OpId::Reshape, {std::move(x)}, attrs);
}

Expr GraphBuilder::broadcastTo(Expr x, const std::vector<int64_t>& shape) {
  if (shapeOf(x) == shape) return x;
  DataType dtype = dtypeOf(x);
  AttrDict attrs{{"shape", AttrValue::ints(shape)}, {"dtype", AttrValue::string(std::string(dtype.name()))}};
  if (dtype.isBool()) {
    // x OR false keeps x and broadcasts it; `where` is the only bool combinator.
    Expr falses = call(OpId::Zeros, {}, attrs);
    return call(OpId::Where, {std::move(x), scalar(dtype, 1), std::move(falses)});
  }
  // Adding a zeros tensor of the target shape is an exact broadcast for every
  // numeric dtype, and stays a small op call rather than a materialized constant.
  return call(OpId::Add, {std::move(x), call(OpId::Zeros, {}, attrs)});
}

Expr GraphBuilder::cast(Expr x, DataType dtype) {
  if (dtypeOf(x) == dtype) return x;
  return call(OpId::Cast, {std::move(x)}, {{"dtype", AttrValue::string(std::string(dtype.name()))}});
}

Expr GraphBuilder::expandDims(Expr x, int64_t axis, int64_t count) {
  if (count == 0) return x;
  AttrDict attrs{{"axis", AttrValue::integer(axis)}};
  if (count != 1) attrs.set("num_newaxis", AttrValue::integer(count));
  return call(OpId::ExpandDims, {std::move(x)}, attrs);
}

Expr GraphBuilder::squeeze(Expr x, std::vector<int64_t> axes) {
  if (axes.empty()) return x;
  return call(OpId::Squeeze, {std::move(x)}, {{"axis", AttrValue::ints(axes)}});
}

Expr GraphBuilder::transpose(Expr x, std::vector<int64_t> axes) {
  std::vector<int64_t> identity(axes.size());
  std::iota(identity.begin(), identity.end(), 0);
  if (axes == identity) return x;
  return call(OpId::Transpose, {std::move(x)}, {{"axes", AttrValue::ints(axes)}});
}

Expr GraphBuilder::reduce(OpId op, Expr x, std::optional<std::vector<int64_t>> axes, bool keepdims) {
  AttrDict attrs;
  if (axes) attrs.set("axis", AttrValue::ints(*axes));
  if (keepdims) attrs.set("keepdims", AttrValue::boolean(true));
  return call(op, {std::move(x)}, attrs);
}

Expr GraphBuilder::withScalar(OpId op, Expr x, double value) {
  DataType dtype = dtypeOf(x);
  return call(op, {std::move(x), scalar(dtype, value)});
}

// ---- NodeContext ----------------------------------------------------------------

NodeContext::NodeContext(GraphBuilder& builder, const onnx::NodeProto& node, int64_t opsetVersion, std::vector<Expr> inputs,
                         std::vector<bool> outputUsed)
    : b(builder), opset(opsetVersion), node_(node), inputs_(std::move(inputs)), outputUsed_(std::move(outputUsed)) {}

const Expr& NodeContext::input(size_t i) const {
  if (!hasInput(i)) invalid("input " + std::to_string(i) + " is required but missing");
  return inputs_[i];
}

NDArray NodeContext::constantInput(size_t i, std::string_view what) {
  return b.evaluate(input(i), opType() + "'s " + std::string(what) + " input");
}

std::vector<int64_t> NodeContext::intsInput(size_t i, std::string_view what) {
  NDArray v = constantInput(i, what);
  if (!v.dtype().isInt()) invalid(std::string(what) + " input must be an integer tensor, got " + std::string(v.dtype().name()));
  std::vector<int64_t> out(static_cast<size_t>(v.numElements()));
  for (size_t k = 0; k < out.size(); ++k) out[k] = v.getAsInt(static_cast<int64_t>(k));
  return out;
}

std::vector<double> NodeContext::floatsInput(size_t i, std::string_view what) {
  NDArray v = constantInput(i, what);
  std::vector<double> out(static_cast<size_t>(v.numElements()));
  for (size_t k = 0; k < out.size(); ++k) out[k] = v.getAsDouble(static_cast<int64_t>(k));
  return out;
}

bool NodeContext::hasAttr(std::string_view name) const {
  for (const auto& a : node_.attribute())
    if (a.name() == name) return true;
  return false;
}

const onnx::AttributeProto* NodeContext::attr(std::string_view name, int expectedType) {
  for (const auto& a : node_.attribute()) {
    if (a.name() != name) continue;
    read_.insert(std::string(name));
    if (!a.ref_attr_name().empty()) unsupported("attribute '" + a.name() + "' refers to a function attribute");
    // Old exporters leave `type` unset; the populated field then tells.
    if (a.type() != onnx::AttributeProto::UNDEFINED && a.type() != expectedType)
      invalid("attribute '" + a.name() + "' has type " + onnx::AttributeProto::AttributeType_Name(a.type()) + ", expected " +
              onnx::AttributeProto::AttributeType_Name(static_cast<onnx::AttributeProto::AttributeType>(expectedType)));
    return &a;
  }
  return nullptr;
}

int64_t NodeContext::attrInt(std::string_view name, int64_t fallback) { return attrIntOpt(name).value_or(fallback); }

std::optional<int64_t> NodeContext::attrIntOpt(std::string_view name) {
  const auto* a = attr(name, onnx::AttributeProto::INT);
  if (!a) return std::nullopt;
  return a->i();
}

double NodeContext::attrFloat(std::string_view name, double fallback) {
  const auto* a = attr(name, onnx::AttributeProto::FLOAT);
  return a ? static_cast<double>(a->f()) : fallback;
}

std::string NodeContext::attrString(std::string_view name, std::string fallback) {
  const auto* a = attr(name, onnx::AttributeProto::STRING);
  return a ? a->s() : fallback;
}

std::vector<int64_t> NodeContext::attrInts(std::string_view name, std::vector<int64_t> fallback) {
  return attrIntsOpt(name).value_or(std::move(fallback));
}

std::optional<std::vector<int64_t>> NodeContext::attrIntsOpt(std::string_view name) {
  const auto* a = attr(name, onnx::AttributeProto::INTS);
  if (!a) return std::nullopt;
  return std::vector<int64_t>(a->ints().begin(), a->ints().end());
}

std::optional<std::vector<double>> NodeContext::attrFloatsOpt(std::string_view name) {
  const auto* a = attr(name, onnx::AttributeProto::FLOATS);
  if (!a) return std::nullopt;
  return std::vector<double>(a->floats().begin(), a->floats().end());
}

std::optional<NDArray> NodeContext::attrTensorOpt(std::string_view name) {
  const auto* a = attr(name, onnx::AttributeProto::TENSOR);
  if (!a) return std::nullopt;
  try {
    return tensorFromProto(a->t(), "");
  } catch (const std::runtime_error& e) {
    unsupported("attribute '" + std::string(name) + "': " + e.what());
  }
}

std::vector<std::string> NodeContext::unreadAttrs() const {
  std::vector<std::string> out;
  for (const auto& a : node_.attribute())
    if (!read_.count(a.name())) out.push_back(a.name());
  return out;
}

void NodeContext::unsupported(const std::string& what) const { throw NodeError{"unsupported " + what, "onnx.unsupported-attribute"}; }

void NodeContext::invalid(const std::string& what) const { throw NodeError{what, "onnx.invalid"}; }

// ---- Listing ----------------------------------------------------------------------

std::string describeAttribute(const onnx::AttributeProto& a) {
  // Long lists are elided: the listing line is for recognising the node.
  constexpr int kMaxItems = 8;
  auto list = [](const auto& items, auto fmt) {
    std::string out = "[";
    int n = 0;
    for (const auto& v : items) {
      if (n == kMaxItems) {
        out += ", ...";
        break;
      }
      out += (n++ ? ", " : "") + fmt(v);
    }
    return out + "]";
  };
  auto num = [](double v) {
    std::string s = std::to_string(v);
    s.erase(s.find_last_not_of('0') + 1);
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
  };
  switch (a.type()) {
    case onnx::AttributeProto::INT: return std::to_string(a.i());
    case onnx::AttributeProto::FLOAT: return num(a.f());
    case onnx::AttributeProto::STRING: return "\"" + a.s() + "\"";
    case onnx::AttributeProto::INTS: return list(a.ints(), [](int64_t v) { return std::to_string(v); });
    case onnx::AttributeProto::FLOATS: return list(a.floats(), num);
    case onnx::AttributeProto::STRINGS: return list(a.strings(), [](const std::string& s) { return "\"" + s + "\""; });
    case onnx::AttributeProto::TENSOR: {
      std::vector<int64_t> dims(a.t().dims().begin(), a.t().dims().end());
      return "<tensor " + onnxTypeName(a.t().data_type()) + listText(dims) + ">";
    }
    case onnx::AttributeProto::GRAPH: return "<graph>";
    default: return "<" + onnx::AttributeProto::AttributeType_Name(a.type()) + ">";
  }
}

}  // namespace passlab::onnx_import
