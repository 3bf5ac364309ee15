// Type relations of the data-movement ops: reshape (with TVM's special values),
// transpose, concatenate, split, squeeze, expand_dims, strided_slice, take and
// layout_transform.
#include <algorithm>
#include <map>

#include "core/ir/limits.h"
#include "core/ir/op_relations.h"

namespace passlab {

namespace {

/// Product of `dims`, or kDynamicDim when one of them is dynamic; a relation
/// error when it exceeds the element limit.
int64_t product(const std::vector<int64_t>& dims) {
  for (int64_t d : dims)
    if (isDynamicDim(d)) return kDynamicDim;
  std::optional<int64_t> n = limits::checkedElementCount(dims);
  if (!n) relationError(limits::tooManyElementsMessage(dims));
  return *n;
}

/// R.reshape(x, R.shape([n, 8])): a target with symbolic dims is the result
/// as written (TVM's form: no special values); the element counts must agree
/// where both are constant.
Type symbolicReshape(std::span<const Type> args, const TensorTypeNode& data, const AttrValue& newshape) {
  std::vector<shape::Dim> dims = shape::dimsOfAttr(newshape, argShapeVars(args));
  shape::Dim outCount = shape::constant(1), inCount = shape::constant(1);
  for (size_t i = 0; i < dims.size(); ++i) {
    const AttrValue& item = newshape.asArray()[i];
    if (!dims[i] || (item.kind() == AttrValue::Kind::Int && item.asInt() <= 0))
      relationError("newshape " + newshape.toString() + ": a symbolic target takes dimensions only (entry " + std::to_string(i) +
                    " is " + item.toString() + ")");
    outCount = shape::mul(outCount, dims[i]);
  }
  for (const shape::Dim& d : shape::dimsOf(data)) inCount = d ? shape::mul(inCount, d) : nullptr;
  std::optional<int64_t> a = shape::asConstant(inCount), b = shape::asConstant(outCount);
  if (a && b && *a != *b)
    relationError("cannot reshape " + typeToString(args[0]) + " (" + std::to_string(*a) + " elements) to " + newshape.toString() +
                  " (" + std::to_string(*b) + " elements)");
  return shape::tensorOfDims(dims, data.dtype);
}

}  // namespace

Type relReshape(std::span<const Type> args, const AttrDict& attrs) {
  const TensorTypeNode& data = tensorArg(args, 0, "data");
  const AttrValue& newshapeAttr = opAttr(OpId::Reshape, attrs, "newshape");
  if (shape::attrHasSymbolic(newshapeAttr)) return symbolicReshape(args, data, newshapeAttr);
  std::vector<int64_t> spec = intList(newshapeAttr, "newshape");
  bool allowZero = opAttr(OpId::Reshape, attrs, "allowzero").asBool();
  const std::vector<int64_t>& in = data.shape;
  size_t rank = in.size();
  std::vector<int64_t> out;
  size_t src = 0;        // next input dimension that a special value refers to
  int64_t inferAt = -1;  // position of the single -1
  auto inputDim = [&](const char* what) {
    if (src >= rank)
      relationError("newshape " + newshapeAttr.toString() + " uses " + what + " beyond the rank of " + typeToString(args[0]));
    return in[src++];
  };
  for (size_t i = 0; i < spec.size(); ++i) {
    int64_t v = spec[i];
    if (v > 0 || (v == 0 && allowZero)) {
      out.push_back(v);
      ++src;
    } else if (v == 0) {  // copy the input dimension at this position
      out.push_back(inputDim("0 (copy)"));
    } else if (v == -1) {
      if (inferAt >= 0) relationError("newshape " + newshapeAttr.toString() + " has more than one -1");
      inferAt = static_cast<int64_t>(out.size());
      out.push_back(kDynamicDim);
      ++src;
    } else if (v == -2) {  // copy all remaining input dimensions
      while (src < rank) out.push_back(in[src++]);
    } else if (v == -3) {  // merge two consecutive input dimensions
      int64_t a = inputDim("-3 (merge)");
      int64_t b = inputDim("-3 (merge)");
      out.push_back(isDynamicDim(a) || isDynamicDim(b) ? kDynamicDim : a * b);
    } else if (v == -4) {  // split one input dimension into the next two values
      if (i + 2 >= spec.size()) relationError("newshape " + newshapeAttr.toString() + ": -4 must be followed by two values");
      int64_t whole = inputDim("-4 (split)");
      int64_t a = spec[++i], b = spec[++i];
      if (a == -1 && b == -1) relationError("newshape " + newshapeAttr.toString() + ": -4 split with two -1");
      if (!isDynamicDim(whole)) {
        if (a == -1 && b > 0) a = whole / b;
        if (b == -1 && a > 0) b = whole / a;
        if (a <= 0 || b <= 0 || a * b != whole)
          relationError("newshape " + newshapeAttr.toString() + ": cannot split dimension " + std::to_string(whole) +
                        " into " + std::to_string(spec[i - 1]) + " x " + std::to_string(spec[i]));
      } else if (a < 0 || b < 0) {
        a = a < 0 ? kDynamicDim : a;
        b = b < 0 ? kDynamicDim : b;
      }
      out.push_back(a);
      out.push_back(b);
    } else {
      relationError("newshape " + newshapeAttr.toString() + " has invalid value " + std::to_string(v));
    }
  }
  int64_t total = product(in);
  if (inferAt >= 0) {
    std::vector<int64_t> others = out;
    others.erase(others.begin() + inferAt);
    int64_t known = product(others);
    if (total != kDynamicDim && known != kDynamicDim) {
      if (known == 0 || total % known != 0)
        relationError("cannot reshape " + typeToString(args[0]) + " to " + newshapeAttr.toString() + ": " +
                      std::to_string(total) + " elements do not divide into " + std::to_string(known));
      out[inferAt] = total / known;
    }
  } else if (total != kDynamicDim && product(out) != kDynamicDim && product(out) != total) {
    relationError("cannot reshape " + typeToString(args[0]) + " (" + std::to_string(total) + " elements) to " +
                  shapeText(out) + " (" + std::to_string(product(out)) + " elements)");
  }
  if (!data.hasSymbolicDim()) return tensorType(std::move(out), data.dtype);
  // The same walk over newshape, on symbolic dims: copies keep their
  // expression, merges multiply, and -1 is the element count over the rest.
  std::vector<shape::Dim> in2 = shape::dimsOf(data), dims;
  size_t at = 0;
  for (size_t i = 0; i < spec.size(); ++i) {
    int64_t v = spec[i];
    if (v > 0 || (v == 0 && allowZero)) {
      dims.push_back(shape::constant(v));
      ++at;
    } else if (v == 0) {
      dims.push_back(in2[at++]);
    } else if (v == -1) {
      dims.push_back(nullptr);
      ++at;
    } else if (v == -2) {
      while (at < rank) dims.push_back(in2[at++]);
    } else if (v == -3) {
      dims.push_back(shape::mul(in2[at], in2[at + 1]));
      at += 2;
    } else {  // -4: the int64 rule's two pieces
      dims.push_back(nullptr);
      dims.push_back(nullptr);
      i += 2;
      ++at;
    }
  }
  if (inferAt >= 0) {
    std::vector<shape::Dim> others = dims;
    others.erase(others.begin() + inferAt);
    shape::Dim known = productDims(others);
    dims[inferAt] = known ? shape::floorDiv(productDims(in2), known) : nullptr;
  }
  return withSymbolicDims(tensorType(std::move(out), data.dtype), dims);
}

Type relTranspose(std::span<const Type> args, const AttrDict& attrs) {
  const TensorTypeNode& data = tensorArg(args, 0, "data");
  size_t rank = data.shape.size();
  const AttrValue& axesAttr = opAttr(OpId::Transpose, attrs, "axes");
  std::vector<int64_t> axes;
  if (axesAttr.isNone()) {
    for (size_t i = rank; i-- > 0;) axes.push_back(static_cast<int64_t>(i));
  } else {
    axes = intList(axesAttr, "axes");
    if (axes.size() != rank) relationError("axes " + axesAttr.toString() + " must list all " + std::to_string(rank) + " dimensions");
  }
  std::vector<bool> seen(rank, false);
  std::vector<int64_t> out;
  for (int64_t a : axes) {
    int64_t axis = normalizeAxis(a, rank);
    if (seen[axis]) relationError("axes " + axesAttr.toString() + " is not a permutation");
    seen[axis] = true;
    out.push_back(data.shape[axis]);
  }
  if (!data.hasSymbolicDim()) return tensorType(std::move(out), data.dtype);
  std::vector<shape::Dim> dims;
  for (int64_t a : axes) dims.push_back(shape::dimOf(data, static_cast<size_t>(normalizeAxis(a, rank))));
  return withSymbolicDims(tensorType(std::move(out), data.dtype), dims);
}

Type relConcatenate(std::span<const Type> args, const AttrDict& attrs) {
  const auto* tuple = as<TupleTypeNode>(args[0]);
  if (!tuple) relationError("expects a tuple of tensors, got " + typeToString(args[0]));
  if (tuple->fields.empty()) relationError("expects at least one tensor");
  std::span<const Type> fields(tuple->fields);
  const TensorTypeNode& first = tensorArg(fields, 0, "tuple field 0");
  size_t rank = first.shape.size();
  int64_t axis = normalizeAxis(opAttr(OpId::Concatenate, attrs, "axis").asInt(), rank);
  std::vector<int64_t> out = first.shape;
  for (size_t i = 1; i < fields.size(); ++i) {
    const TensorTypeNode& t = tensorArg(fields, i, "tuple field " + std::to_string(i));
    if (t.dtype != first.dtype)
      relationError("field dtypes differ: " + typeToString(fields[0]) + " and " + typeToString(fields[i]));
    bool ok = t.shape.size() == rank;
    for (size_t d = 0; ok && d < rank; ++d)
      ok = static_cast<int64_t>(d) == axis || isDynamicDim(t.shape[d]) || isDynamicDim(out[d]) || t.shape[d] == out[d];
    if (!ok)
      relationError("shapes " + shapeText(first.shape) + " and " + shapeText(t.shape) +
                    " differ outside the concatenation axis " + std::to_string(axis));
    out[axis] = isDynamicDim(out[axis]) || isDynamicDim(t.shape[axis]) ? kDynamicDim : out[axis] + t.shape[axis];
  }
  if (!anySymbolic(fields)) return tensorType(std::move(out), first.dtype);
  // Off the axis a symbolic dim of any field names the extent; along it, the sum.
  std::vector<shape::Dim> dims = shape::dimsOf(first);
  for (size_t i = 1; i < fields.size(); ++i) {
    const auto& t = *as<TensorTypeNode>(fields[i]);
    for (size_t d = 0; d < rank; ++d) {
      if (static_cast<int64_t>(d) == axis) dims[d] = shape::add(dims[d], shape::dimOf(t, d));
      else if (!dims[d]) dims[d] = shape::dimOf(t, d);
    }
  }
  return withSymbolicDims(tensorType(std::move(out), first.dtype), dims);
}

Type relSplit(std::span<const Type> args, const AttrDict& attrs) {
  const TensorTypeNode& data = tensorArg(args, 0, "data");
  int64_t axis = normalizeAxis(opAttr(OpId::Split, attrs, "axis").asInt(), data.shape.size());
  int64_t extent = data.shape[axis];
  const AttrValue& spec = opAttr(OpId::Split, attrs, "indices_or_sections");
  std::vector<int64_t> pieces;
  if (spec.kind() == AttrValue::Kind::Int) {
    int64_t sections = spec.asInt();
    if (sections <= 0) relationError("indices_or_sections must be positive, got " + std::to_string(sections));
    if (!isDynamicDim(extent) && extent % sections != 0)
      relationError("dimension " + std::to_string(axis) + " of " + typeToString(args[0]) + " (" + std::to_string(extent) +
                    ") does not split into " + std::to_string(sections) + " equal sections");
    pieces.assign(sections, isDynamicDim(extent) ? kDynamicDim : extent / sections);
  } else {
    std::vector<int64_t> indices = intList(spec, "indices_or_sections");
    int64_t begin = 0;
    for (int64_t idx : indices) {
      if (idx < begin || (!isDynamicDim(extent) && idx > extent))
        relationError("split indices " + spec.toString() + " must be increasing and within dimension " +
                      std::to_string(axis) + " of " + typeToString(args[0]));
      pieces.push_back(idx - begin);
      begin = idx;
    }
    pieces.push_back(isDynamicDim(extent) ? kDynamicDim : extent - begin);
  }
  std::vector<Type> fields;
  for (int64_t p : pieces) {
    std::vector<int64_t> shape = data.shape;
    shape[axis] = p;
    fields.push_back(tensorType(std::move(shape), data.dtype));
  }
  return tupleType(std::move(fields));
}

Type relSqueeze(std::span<const Type> args, const AttrDict& attrs) {
  const TensorTypeNode& data = tensorArg(args, 0, "data");
  size_t rank = data.shape.size();
  const AttrValue& axisAttr = opAttr(OpId::Squeeze, attrs, "axis");
  std::vector<bool> drop(rank, false);
  if (axisAttr.isNone()) {
    for (size_t i = 0; i < rank; ++i) drop[i] = data.shape[i] == 1;
  } else {
    for (int64_t a : intList(axisAttr, "axis")) {
      int64_t axis = normalizeAxis(a, rank);
      if (data.shape[axis] != 1 && !isDynamicDim(data.shape[axis]))
        relationError("cannot squeeze axis " + std::to_string(a) + " of " + typeToString(args[0]) + ": its extent is " +
                      std::to_string(data.shape[axis]));
      drop[axis] = true;
    }
  }
  std::vector<int64_t> out;
  std::vector<shape::Dim> dims;
  for (size_t i = 0; i < rank; ++i)
    if (!drop[i]) {
      out.push_back(data.shape[i]);
      dims.push_back(shape::dimOf(data, i));
    }
  return withSymbolicDims(tensorType(std::move(out), data.dtype), dims);
}

Type relExpandDims(std::span<const Type> args, const AttrDict& attrs) {
  const TensorTypeNode& data = tensorArg(args, 0, "data");
  int64_t axis = normalizeAxis(opAttr(OpId::ExpandDims, attrs, "axis").asInt(), data.shape.size(), "axis", 1);
  int64_t count = opAttr(OpId::ExpandDims, attrs, "num_newaxis").asInt();
  if (count < 0) relationError("num_newaxis must be non-negative, got " + std::to_string(count));
  std::vector<int64_t> out = data.shape;
  out.insert(out.begin() + axis, count, 1);
  std::vector<shape::Dim> dims = shape::dimsOf(data);
  dims.insert(dims.begin() + axis, count, shape::constant(1));
  return withSymbolicDims(tensorType(std::move(out), data.dtype), dims);
}

Type relStridedSlice(std::span<const Type> args, const AttrDict& attrs) {
  auto attr = [&attrs](std::string_view key) -> const AttrValue& { return opAttr(OpId::StridedSlice, attrs, key); };
  const TensorTypeNode& data = tensorArg(args, 0, "data");
  size_t rank = data.shape.size();
  std::vector<int64_t> begin = intList(attr("begin"), "begin");
  std::vector<int64_t> end = intList(attr("end"), "end");
  std::vector<int64_t> strides = attr("strides").isNone() ? std::vector<int64_t>{} : intList(attr("strides"), "strides");
  const std::string& mode = attr("slice_mode").asString();
  if (mode != "end" && mode != "size") relationError("slice_mode \"" + mode + "\" is not one of end, size");
  std::vector<int64_t> axes;
  if (attr("axes").isNone()) {
    for (size_t i = 0; i < std::max(begin.size(), end.size()); ++i) axes.push_back(static_cast<int64_t>(i));
    if (axes.size() > rank)
      relationError("begin/end have " + std::to_string(axes.size()) + " entries but " + typeToString(args[0]) + " has rank " +
                    std::to_string(rank));
  } else {
    for (int64_t a : intList(attr("axes"), "axes")) axes.push_back(normalizeAxis(a, rank));
    if (begin.size() != axes.size() || end.size() != axes.size())
      relationError("begin, end and axes must have the same length");
  }
  // A single stride applies to every sliced axis (TVM's strides=[1] default).
  if (strides.size() == 1 && axes.size() > 1) strides.assign(axes.size(), strides[0]);
  std::vector<int64_t> out = data.shape;
  for (size_t k = 0; k < axes.size(); ++k) {
    int64_t axis = axes[k];
    int64_t extent = data.shape[axis];
    int64_t stride = mode == "size" ? 1 : (k < strides.size() ? strides[k] : 1);
    if (stride == 0) relationError("strides must not contain 0");
    if (isDynamicDim(extent)) {
      out[axis] = kDynamicDim;
      continue;
    }
    int64_t b = k < begin.size() ? begin[k] : (stride > 0 ? 0 : extent - 1);
    int64_t e;
    if (mode == "size") {
      int64_t size = k < end.size() ? end[k] : -1;
      if (b < 0) b += extent;
      e = size < 0 ? extent : b + size;
    } else {
      e = k < end.size() ? end[k] : (stride > 0 ? extent : -extent - 1);
    }
    // Canonicalize like TVM: negative indices count from the end, then clamp.
    auto canon = [extent, stride](int64_t x) {
      if (x < 0) x += extent;
      return stride > 0 ? std::clamp<int64_t>(x, 0, extent) : std::clamp<int64_t>(x, -1, extent - 1);
    };
    b = canon(b);
    e = canon(e);
    int64_t len = stride > 0 ? (e > b ? (e - b + stride - 1) / stride : 0) : (b > e ? (b - e + (-stride) - 1) / (-stride) : 0);
    out[axis] = len;
  }
  return tensorType(std::move(out), data.dtype);
}

Type relTake(std::span<const Type> args, const AttrDict& attrs) {
  const TensorTypeNode& data = tensorArg(args, 0, "data");
  const TensorTypeNode& indices = tensorArg(args, 1, "indices");
  if (!indices.dtype.isInt()) relationError("indices must be integers, got " + typeToString(args[1]));
  const std::string& mode = opAttr(OpId::Take, attrs, "mode").asString();
  if (mode != "clip" && mode != "wrap" && mode != "fast") relationError("mode \"" + mode + "\" is not one of clip, wrap, fast");
  const AttrValue& axisAttr = opAttr(OpId::Take, attrs, "axis");
  if (axisAttr.isNone()) return tensorType(indices.shape, data.dtype);  // indexes the flattened data
  int64_t axis = normalizeAxis(axisAttr.asInt(), data.shape.size());
  int64_t batchDims = opAttr(OpId::Take, attrs, "batch_dims").asInt();
  if (batchDims < 0) batchDims += static_cast<int64_t>(indices.shape.size());
  if (batchDims < 0 || batchDims > axis || batchDims > static_cast<int64_t>(indices.shape.size()))
    relationError("batch_dims " + std::to_string(batchDims) + " must lie within the axis and the rank of the indices");
  std::vector<int64_t> out(data.shape.begin(), data.shape.begin() + axis);
  out.insert(out.end(), indices.shape.begin() + batchDims, indices.shape.end());
  out.insert(out.end(), data.shape.begin() + axis + 1, data.shape.end());
  return tensorType(std::move(out), data.dtype);
}

namespace {

/// One axis of a layout string: a primal axis ('C') or a split sub-axis ('4c').
struct LayoutAxis {
  char name;       // upper case: primal; lower case: sub-axis of the same letter
  int64_t factor;  // sub-axis extent (0 for primal axes)
};

std::vector<LayoutAxis> parseLayoutString(const std::string& text, std::string_view key) {
  std::vector<LayoutAxis> axes;
  std::map<char, int> seen;
  size_t i = 0;
  while (i < text.size()) {
    int64_t factor = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9' && factor < (int64_t{1} << 40)) factor = factor * 10 + (text[i++] - '0');
    if (i >= text.size()) relationError(std::string(key) + " \"" + text + "\" ends with a number");
    char c = text[i++];
    bool upper = c >= 'A' && c <= 'Z', lower = c >= 'a' && c <= 'z';
    if (!(upper || lower) || (upper && factor != 0) || (lower && factor <= 0) || seen[c]++)
      relationError(std::string(key) + " \"" + text + "\" is not a valid layout (e.g. NCHW, NHWC, NCHW4c)");
    axes.push_back({c, factor});
  }
  for (const LayoutAxis& a : axes)
    if (a.factor > 0 && !seen[static_cast<char>(a.name - 'a' + 'A')])
      relationError(std::string(key) + " \"" + text + "\" splits axis " + static_cast<char>(a.name - 'a' + 'A') + " that it lacks");
  return axes;
}

}  // namespace

Type relLayoutTransform(std::span<const Type> args, const AttrDict& attrs) {
  const TensorTypeNode& data = tensorArg(args, 0, "data");
  const std::string& srcText = opAttr(OpId::LayoutTransform, attrs, "src_layout").asString();
  const std::string& dstText = opAttr(OpId::LayoutTransform, attrs, "dst_layout").asString();
  std::vector<LayoutAxis> src = parseLayoutString(srcText, "src_layout");
  std::vector<LayoutAxis> dst = parseLayoutString(dstText, "dst_layout");
  if (src.size() != data.shape.size())
    relationError("src_layout \"" + srcText + "\" has " + std::to_string(src.size()) + " axes but the data is " + typeToString(args[0]));
  // Full extent of each primal axis, recombined from its sub-axis if split.
  std::map<char, int64_t> primal, srcFactor, dstFactor;
  for (size_t i = 0; i < src.size(); ++i) {
    if (src[i].factor == 0) {
      primal[src[i].name] = data.shape[i];
    } else {
      srcFactor[static_cast<char>(src[i].name - 'a' + 'A')] = src[i].factor;
      if (!isDynamicDim(data.shape[i]) && data.shape[i] != src[i].factor)
        relationError("axis " + std::string(1, src[i].name) + " of " + typeToString(args[0]) + " must have extent " +
                      std::to_string(src[i].factor) + " in layout " + srcText);
    }
  }
  for (auto& [name, extent] : primal)
    if (srcFactor.count(name) && !isDynamicDim(extent)) extent *= srcFactor[name];
  size_t dstPrimal = 0;
  for (const LayoutAxis& a : dst) {
    if (a.factor == 0) {
      ++dstPrimal;
      if (!primal.count(a.name)) relationError("layouts \"" + srcText + "\" and \"" + dstText + "\" have different axes");
    } else {
      dstFactor[static_cast<char>(a.name - 'a' + 'A')] = a.factor;
    }
  }
  if (dstPrimal != primal.size()) relationError("layouts \"" + srcText + "\" and \"" + dstText + "\" have different axes");
  std::vector<int64_t> out;
  for (const LayoutAxis& a : dst) {
    if (a.factor > 0) {
      out.push_back(a.factor);
      continue;
    }
    int64_t extent = primal[a.name];
    if (dstFactor.count(a.name) && !isDynamicDim(extent)) {
      if (extent % dstFactor[a.name] != 0)
        relationError("axis " + std::string(1, a.name) + " of extent " + std::to_string(extent) + " does not split by " +
                      std::to_string(dstFactor[a.name]) + " for layout " + dstText);
      extent /= dstFactor[a.name];
    }
    out.push_back(extent);
  }
  return tensorType(std::move(out), data.dtype);
}

}  // namespace passlab
