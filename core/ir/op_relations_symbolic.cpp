// Symbolic dimensions in the type relations: the helpers the relation files
// use to carry `n` (and expressions of it) from arguments to results.
#include "core/ir/op_relations.h"

namespace passlab {

bool anySymbolic(std::span<const Type> args) {
  for (const Type& t : args) {
    if (const auto* tt = as<TensorTypeNode>(t); tt && tt->hasSymbolicDim()) return true;
    if (const auto* tup = as<TupleTypeNode>(t); tup && anySymbolic(tup->fields)) return true;
  }
  return false;
}

Type withSymbolicDims(const Type& r, const std::vector<shape::Dim>& dims) {
  const auto* t = as<TensorTypeNode>(r);
  if (!t || dims.size() != t->shape.size()) return r;
  std::vector<shape::Dim> out;
  out.reserve(dims.size());
  for (size_t i = 0; i < dims.size(); ++i) {
    if (t->shape[i] != kDynamicDim) {
      out.push_back(shape::constant(t->shape[i]));
      continue;
    }
    shape::Dim d = shape::simplify(dims[i]);
    // A negative constant here is a `?` read as a number: keep the `?`.
    if (std::optional<int64_t> c = shape::asConstant(d); c && *c < 0) d = nullptr;
    out.push_back(d);
  }
  return shape::tensorOfDims(out, t->dtype);
}

std::vector<shape::Dim> broadcastDims(const std::vector<shape::Dim>& a, const std::vector<shape::Dim>& b) {
  size_t rank = std::max(a.size(), b.size());
  std::vector<shape::Dim> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    shape::Dim x = i < rank - a.size() ? shape::constant(1) : a[i - (rank - a.size())];
    shape::Dim y = i < rank - b.size() ? shape::constant(1) : b[i - (rank - b.size())];
    std::optional<int64_t> cx = shape::asConstant(x), cy = shape::asConstant(y);
    if (cy && *cy == 1) out[i] = x;
    else if (cx && *cx == 1) out[i] = y;
    else if (shape::equal(x, y)) out[i] = x;
    else if (cx) out[i] = x;  // a static extent is what a run must have
    else if (cy) out[i] = y;
    else out[i] = nullptr;  // two different symbolic extents: unknown until run time
  }
  return out;
}

Type relMatchCast(std::span<const Type> args, const AttrDict&) {
  if (args.empty() || !args[0]) relationError("expects one argument");
  return args[0];
}

shape::Dim productDims(const std::vector<shape::Dim>& dims) {
  shape::Dim p = shape::constant(1);
  for (const shape::Dim& d : dims) p = shape::mul(p, d);
  return p;
}

}  // namespace passlab
