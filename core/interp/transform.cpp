// Data-movement kernels: reshape, transpose, concatenate, split, squeeze,
// expand_dims, strided_slice, take and layout_transform. They move elements
// without arithmetic, so they work on raw element bytes for every dtype.
#include <algorithm>
#include <cstring>
#include <map>

#include "core/interp/kernel_ops.h"

namespace passlab::kernels {

namespace {

/// Product of shape[begin:end].
int64_t extentProduct(const std::vector<int64_t>& shape, size_t begin, size_t end) {
  int64_t n = 1;
  for (size_t i = begin; i < end; ++i) n *= shape[i];
  return n;
}

/// TVM's reshape rules: 0 copies an input dimension (unless allowzero), -1
/// is inferred, -2 copies the rest, -3 merges two, -4 splits one into the next two values.
std::vector<int64_t> reshapeTarget(const KernelCall& call, const std::vector<int64_t>& in, const std::vector<int64_t>& spec,
                                   bool allowZero) {
  std::vector<int64_t> out;
  size_t src = 0;
  int64_t inferAt = -1;
  auto inputDim = [&]() {
    if (src >= in.size()) call.fail("newshape " + shapeString(spec) + " refers past the rank of " + shapeString(in));
    return in[src++];
  };
  for (size_t i = 0; i < spec.size(); ++i) {
    int64_t v = spec[i];
    if (v > 0 || (v == 0 && allowZero)) {
      out.push_back(v);
      ++src;
    } else if (v == 0) {
      out.push_back(inputDim());
    } else if (v == -1) {
      if (inferAt >= 0) call.fail("newshape " + shapeString(spec) + " has more than one -1");
      inferAt = static_cast<int64_t>(out.size());
      out.push_back(1);
      ++src;
    } else if (v == -2) {
      while (src < in.size()) out.push_back(in[src++]);
    } else if (v == -3) {
      int64_t a = inputDim();
      out.push_back(a * inputDim());
    } else if (v == -4) {
      if (i + 2 >= spec.size()) call.fail("newshape " + shapeString(spec) + ": -4 must be followed by two values");
      int64_t whole = inputDim();
      int64_t a = spec[++i], b = spec[++i];
      if (a == -1 && b > 0) a = whole / b;
      if (b == -1 && a > 0) b = whole / a;
      if (a <= 0 || b <= 0 || a * b != whole) call.fail("newshape " + shapeString(spec) + " cannot split " + std::to_string(whole));
      out.push_back(a);
      out.push_back(b);
    } else {
      call.fail("newshape " + shapeString(spec) + " has invalid value " + std::to_string(v));
    }
  }
  int64_t total = productOf(in);
  if (inferAt >= 0) {
    int64_t known = productOf(out);  // the -1 slot holds 1
    if (known == 0 || total % known != 0) call.fail("cannot reshape " + shapeString(in) + " to " + shapeString(spec));
    out[inferAt] = total / known;
  }
  if (productOf(out) != total)
    call.fail("cannot reshape " + shapeString(in) + " (" + std::to_string(total) + " elements) to " + shapeString(out));
  return out;
}

/// One axis of a layout string: primal ('C') or a split sub-axis ('4c').
struct LayoutAxis {
  char primal;     // upper-case letter of the axis this belongs to
  int64_t factor;  // 0 for a primal axis, the sub-axis extent otherwise
};

std::vector<LayoutAxis> parseLayout(const KernelCall& call, const std::string& text) {
  std::vector<LayoutAxis> axes;
  size_t i = 0;
  while (i < text.size()) {
    int64_t factor = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9' && factor < (int64_t{1} << 40)) factor = factor * 10 + (text[i++] - '0');
    if (i >= text.size()) call.fail("layout \"" + text + "\" ends with a number");
    char c = text[i++];
    if (c >= 'A' && c <= 'Z' && factor == 0) axes.push_back({c, 0});
    else if (c >= 'a' && c <= 'z' && factor > 0) axes.push_back({static_cast<char>(c - 'a' + 'A'), factor});
    else call.fail("layout \"" + text + "\" is not valid (e.g. NCHW, NHWC, NCHW4c)");
  }
  return axes;
}

}  // namespace

Value reshapeKernel(const KernelCall& call) {
  const NDArray& data = call.tensor(0);
  return data.reshaped(reshapeTarget(call, data.shape(), call.attrInts("newshape"), call.attrBool("allowzero")));
}

Value transposeKernel(const KernelCall& call) {
  const NDArray& data = call.tensor(0);
  size_t rank = data.ndim();
  std::vector<int64_t> axes;
  if (call.attr("axes").isNone()) {
    for (size_t i = rank; i-- > 0;) axes.push_back(static_cast<int64_t>(i));
  } else {
    axes = call.attrInts("axes");
  }
  if (axes.size() != rank) call.fail("axes " + shapeString(axes) + " must list all " + std::to_string(rank) + " dimensions");
  std::vector<bool> seen(rank, false);
  for (int64_t& a : axes) {
    a = call.axis(a, rank);
    if (seen[a]) call.fail("axes " + shapeString(axes) + " is not a permutation");
    seen[a] = true;
  }
  return transposeArray(data, axes);
}

Value concatenateKernel(const KernelCall& call) {
  std::vector<NDArray> parts = call.tensorTuple(0);
  if (parts.empty()) call.fail("expects at least one tensor");
  const NDArray& first = parts[0];
  size_t rank = first.ndim();
  int64_t axis = call.axis(call.attrInt("axis"), rank);
  std::vector<int64_t> outShape = first.shape();
  outShape[axis] = 0;
  for (const NDArray& p : parts) {
    bool ok = p.ndim() == rank && p.dtype() == first.dtype();
    for (size_t d = 0; ok && d < rank; ++d) ok = static_cast<int64_t>(d) == axis || p.shape()[d] == first.shape()[d];
    if (!ok) call.fail("tensor " + shapeString(p.shape()) + " does not concatenate with " + shapeString(first.shape()) + " on axis " + std::to_string(axis));
    outShape[axis] += p.shape()[axis];
  }
  NDArray out(first.dtype(), outShape);
  int64_t outer = extentProduct(outShape, 0, axis);
  int64_t innerBytes = extentProduct(outShape, axis + 1, rank) * first.dtype().bytes();
  int64_t outRow = outShape[axis] * innerBytes;
  int64_t offset = 0;
  for (const NDArray& p : parts) {
    int64_t chunk = p.shape()[axis] * innerBytes;
    for (int64_t o = 0; o < outer && chunk > 0; ++o)
      std::memcpy(out.mutableData() + o * outRow + offset, p.rawData() + o * chunk, static_cast<size_t>(chunk));
    offset += chunk;
  }
  return out;
}

Value splitKernel(const KernelCall& call) {
  const NDArray& data = call.tensor(0);
  int64_t axis = call.axis(call.attrInt("axis"), data.ndim());
  int64_t extent = data.shape()[axis];
  const AttrValue& spec = call.attr("indices_or_sections");
  std::vector<int64_t> bounds{0};  // piece i covers [bounds[i], bounds[i + 1])
  if (spec.kind() == AttrValue::Kind::Int) {
    int64_t sections = spec.asInt();
    if (sections <= 0 || extent % sections != 0)
      call.fail("dimension " + std::to_string(extent) + " does not split into " + std::to_string(sections) + " equal sections");
    for (int64_t i = 1; i <= sections; ++i) bounds.push_back(i * (extent / sections));
  } else {
    for (int64_t idx : call.attrInts("indices_or_sections")) {
      if (idx < bounds.back() || idx > extent) call.fail("split indices must be increasing and within " + std::to_string(extent));
      bounds.push_back(idx);
    }
    bounds.push_back(extent);
  }
  int64_t outer = extentProduct(data.shape(), 0, axis);
  int64_t innerBytes = extentProduct(data.shape(), axis + 1, data.ndim()) * data.dtype().bytes();
  int64_t inRow = extent * innerBytes;
  std::vector<Value> pieces;
  for (size_t i = 0; i + 1 < bounds.size(); ++i) {
    std::vector<int64_t> shape = data.shape();
    shape[axis] = bounds[i + 1] - bounds[i];
    NDArray piece(data.dtype(), shape);
    int64_t chunk = shape[axis] * innerBytes;
    for (int64_t o = 0; o < outer && chunk > 0; ++o)
      std::memcpy(piece.mutableData() + o * chunk, data.rawData() + o * inRow + bounds[i] * innerBytes, static_cast<size_t>(chunk));
    pieces.emplace_back(piece);
  }
  return Value::tuple(std::move(pieces));
}

Value squeezeKernel(const KernelCall& call) {
  const NDArray& data = call.tensor(0);
  size_t rank = data.ndim();
  std::vector<bool> drop(rank, false);
  if (call.attr("axis").isNone()) {
    for (size_t i = 0; i < rank; ++i) drop[i] = data.shape()[i] == 1;
  } else {
    for (int64_t a : call.attrInts("axis")) {
      int64_t axis = call.axis(a, rank);
      if (data.shape()[axis] != 1) call.fail("cannot squeeze axis " + std::to_string(a) + " of extent " + std::to_string(data.shape()[axis]));
      drop[axis] = true;
    }
  }
  std::vector<int64_t> shape;
  for (size_t i = 0; i < rank; ++i)
    if (!drop[i]) shape.push_back(data.shape()[i]);
  return data.reshaped(shape);
}

Value expandDimsKernel(const KernelCall& call) {
  const NDArray& data = call.tensor(0);
  int64_t rank = static_cast<int64_t>(data.ndim());
  int64_t axis = call.attrInt("axis");
  if (axis < -rank - 1 || axis > rank) call.fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  if (axis < 0) axis += rank + 1;
  int64_t count = call.attrInt("num_newaxis");
  if (count < 0) call.fail("num_newaxis must be non-negative");
  std::vector<int64_t> shape = data.shape();
  shape.insert(shape.begin() + axis, count, 1);
  return data.reshaped(shape);
}

Value stridedSliceKernel(const KernelCall& call) {
  const NDArray& data = call.tensor(0);
  size_t rank = data.ndim();
  std::vector<int64_t> begin = call.attrInts("begin");
  std::vector<int64_t> end = call.attrInts("end");
  std::vector<int64_t> strides = call.attr("strides").isNone() ? std::vector<int64_t>{} : call.attrInts("strides");
  const std::string& mode = call.attrString("slice_mode");
  if (mode != "end" && mode != "size") call.fail("slice_mode \"" + mode + "\" is not one of end, size");
  std::vector<int64_t> axes;
  if (call.attr("axes").isNone()) {
    for (size_t i = 0; i < std::max(begin.size(), end.size()); ++i) axes.push_back(static_cast<int64_t>(i));
    if (axes.size() > rank) call.fail("begin/end have more entries than the rank " + std::to_string(rank));
  } else {
    for (int64_t a : call.attrInts("axes")) axes.push_back(call.axis(a, rank));
    if (begin.size() != axes.size() || end.size() != axes.size()) call.fail("begin, end and axes must have the same length");
  }
  if (strides.size() == 1 && axes.size() > 1) strides.assign(axes.size(), strides[0]);  // one stride for every axis
  std::vector<int64_t> inStrides = rowMajorStrides(data.shape());
  std::vector<int64_t> outShape = data.shape();
  std::vector<int64_t> viewStrides = inStrides;
  int64_t offset = 0;
  for (size_t k = 0; k < axes.size(); ++k) {
    int64_t axis = axes[k];
    int64_t extent = data.shape()[axis];
    int64_t stride = mode == "size" ? 1 : (k < strides.size() ? strides[k] : 1);
    if (stride == 0) call.fail("strides must not contain 0");
    int64_t b = k < begin.size() ? begin[k] : (stride > 0 ? 0 : extent - 1);
    int64_t e;
    if (mode == "size") {
      int64_t size = k < end.size() ? end[k] : -1;
      if (b < 0) b += extent;
      e = size < 0 ? extent : b + size;
    } else {
      e = k < end.size() ? end[k] : (stride > 0 ? extent : -extent - 1);
    }
    // NumPy/TVM canonicalization: negative indices count from the end, then clamp.
    auto canon = [extent, stride](int64_t x) {
      if (x < 0) x += extent;
      return stride > 0 ? std::clamp<int64_t>(x, 0, extent) : std::clamp<int64_t>(x, -1, extent - 1);
    };
    b = canon(b);
    e = canon(e);
    int64_t len = stride > 0 ? (e > b ? (e - b + stride - 1) / stride : 0) : (b > e ? (b - e - stride - 1) / (-stride) : 0);
    outShape[axis] = len;
    if (len > 0) offset += b * inStrides[axis];
    viewStrides[axis] = stride * inStrides[axis];
  }
  NDArray out(data.dtype(), outShape);
  gatherStrided(data, offset, viewStrides, out);
  return out;
}

Value takeKernel(const KernelCall& call) {
  const NDArray& dataIn = call.tensor(0);
  const NDArray& indices = call.tensor(1);
  if (!indices.dtype().isInt()) call.fail("indices must be integers, got " + std::string(indices.dtype().name()));
  const std::string& mode = call.attrString("mode");
  if (mode != "clip" && mode != "wrap" && mode != "fast") call.fail("mode \"" + mode + "\" is not one of clip, wrap, fast");
  bool flatten = call.attr("axis").isNone();
  NDArray data = flatten ? dataIn.reshaped({dataIn.numElements()}) : dataIn;
  int64_t axis = flatten ? 0 : call.axis(call.attrInt("axis"), data.ndim());
  int64_t batchDims = flatten ? 0 : call.attrInt("batch_dims");
  if (batchDims < 0) batchDims += static_cast<int64_t>(indices.ndim());
  if (batchDims < 0 || batchDims > axis || batchDims > static_cast<int64_t>(indices.ndim()))
    call.fail("batch_dims " + std::to_string(batchDims) + " must lie within the axis and the rank of the indices");
  for (int64_t d = 0; d < batchDims; ++d)
    if (data.shape()[d] != indices.shape()[d]) call.fail("batch dimensions of data and indices differ");
  const std::vector<int64_t>& ds = data.shape();
  int64_t batch = extentProduct(ds, 0, batchDims);
  int64_t outerRest = extentProduct(ds, batchDims, axis);
  int64_t extent = ds[axis];
  int64_t inner = extentProduct(ds, axis + 1, ds.size());
  int64_t perBatch = extentProduct(indices.shape(), batchDims, indices.ndim());
  std::vector<int64_t> outShape(ds.begin(), ds.begin() + axis);
  outShape.insert(outShape.end(), indices.shape().begin() + batchDims, indices.shape().end());
  outShape.insert(outShape.end(), ds.begin() + axis + 1, ds.end());
  NDArray out(data.dtype(), outShape);
  if (out.numElements() == 0) return out;
  if (extent == 0) call.fail("cannot take from an empty axis");
  size_t esize = static_cast<size_t>(data.dtype().bytes());
  size_t chunk = static_cast<size_t>(inner) * esize;
  uint8_t* dst = out.mutableData();
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t o = 0; o < outerRest; ++o) {
      for (int64_t i = 0; i < perBatch; ++i) {
        int64_t idx = indices.getAsInt(b * perBatch + i);
        if (mode == "clip") {
          idx = std::clamp<int64_t>(idx, 0, extent - 1);
        } else if (mode == "wrap") {
          idx = ((idx % extent) + extent) % extent;
        } else if (idx < -extent || idx >= extent) {
          call.fail("index " + std::to_string(idx) + " is out of range for an axis of extent " + std::to_string(extent));
        } else if (idx < 0) {
          idx += extent;
        }
        const uint8_t* src = data.rawData() + (((b * outerRest + o) * extent + idx) * inner) * static_cast<int64_t>(esize);
        std::memcpy(dst, src, chunk);
        dst += chunk;
      }
    }
  }
  return out;
}

Value layoutTransformKernel(const KernelCall& call) {
  const NDArray& data = call.tensor(0);
  const std::string& srcText = call.attrString("src_layout");
  const std::string& dstText = call.attrString("dst_layout");
  std::vector<LayoutAxis> src = parseLayout(call, srcText);
  std::vector<LayoutAxis> dst = parseLayout(call, dstText);
  if (src.size() != data.ndim()) call.fail("src_layout \"" + srcText + "\" does not match rank " + std::to_string(data.ndim()));
  // Extent of every primal axis and the factor by which each layout splits it.
  std::map<char, int64_t> primalExtent, srcSplit, dstSplit;
  for (size_t i = 0; i < src.size(); ++i) {
    if (src[i].factor == 0) primalExtent[src[i].primal] = data.shape()[i];
    else srcSplit[src[i].primal] = src[i].factor;
  }
  for (auto& [name, extent] : primalExtent)
    if (srcSplit.count(name)) extent *= srcSplit[name];
  for (const LayoutAxis& a : dst) {
    if (!primalExtent.count(a.primal)) call.fail("layouts \"" + srcText + "\" and \"" + dstText + "\" have different axes");
    if (a.factor) dstSplit[a.primal] = a.factor;
  }
  bool plainPermutation = srcSplit.empty() && dstSplit.empty() && src.size() == dst.size();
  if (plainPermutation) {
    std::vector<int64_t> perm;
    for (const LayoutAxis& a : dst)
      for (size_t i = 0; i < src.size(); ++i)
        if (src[i].primal == a.primal) perm.push_back(static_cast<int64_t>(i));
    return transposeArray(data, perm);
  }
  std::vector<int64_t> outShape;
  for (const LayoutAxis& a : dst) {
    if (a.factor) {
      outShape.push_back(a.factor);
    } else {
      int64_t extent = primalExtent[a.primal];
      if (dstSplit.count(a.primal)) {
        if (extent % dstSplit[a.primal] != 0)
          call.fail("axis " + std::string(1, a.primal) + " of extent " + std::to_string(extent) + " does not split by " +
                    std::to_string(dstSplit[a.primal]));
        extent /= dstSplit[a.primal];
      }
      outShape.push_back(extent);
    }
  }
  // General (blocked) case, element by element: output index -> primal
  // coordinates -> source index.
  NDArray out(data.dtype(), outShape);
  std::vector<int64_t> srcStrides = rowMajorStrides(data.shape());
  size_t esize = static_cast<size_t>(data.dtype().bytes());
  std::vector<int64_t> index(outShape.size(), 0);
  std::map<char, int64_t> coord;
  for (int64_t o = 0, total = out.numElements(); o < total; ++o) {
    for (auto& [name, c] : primalExtent) coord[name] = 0;
    for (size_t j = 0; j < dst.size(); ++j) {
      const LayoutAxis& a = dst[j];
      coord[a.primal] += a.factor ? index[j] : index[j] * (dstSplit.count(a.primal) ? dstSplit[a.primal] : 1);
    }
    int64_t from = 0;
    for (size_t i = 0; i < src.size(); ++i) {
      int64_t c = coord[src[i].primal];
      int64_t split = srcSplit.count(src[i].primal) ? srcSplit[src[i].primal] : 1;
      from += (src[i].factor ? c % split : c / split) * srcStrides[i];
    }
    std::memcpy(out.mutableData() + o * static_cast<int64_t>(esize), data.rawData() + from * static_cast<int64_t>(esize), esize);
    for (size_t d = outShape.size(); d-- > 0;) {
      if (++index[d] < outShape[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

}  // namespace passlab::kernels
