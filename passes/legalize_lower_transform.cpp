// LegalizeOps: data movement (reshape family, transpose, layout_transform,
// concatenate, strided_slice, pad, take). Every output element is written exactly
// once; index arithmetic uses floordiv/floormod so nothing is flat-indexed.
#include <cctype>
#include <map>

#include "core/ir/op.h"
#include "passes/legalize_lower.h"

namespace passlab::legalize {

namespace {

namespace T = tir;
using T::BinaryOp;
using T::PrimExpr;

/// The input index of a reshape's output index `idx`: the same row-major
/// position. The two shapes split into groups of axes at the points where
/// their running products agree ([1, 120, 24] and [1, 120, 1, 24]: {1}{120}
/// {24} against {1}{120, 1}{24}); only a group of several axes needs division
/// or remainder, and only within itself. Flattening the whole index instead
/// left floordiv/floormod chains LLVM could not see through: every element of
/// a reshape fused with a transpose was a gather.
std::vector<PrimExpr> reshapeSource(const std::vector<PrimExpr>& idx, const std::vector<int64_t>& outShape, const std::vector<int64_t>& inShape) {
  if (numElements(outShape) == 0) {
    PrimExpr flat = i32(0);
    for (size_t d = 0; d < outShape.size(); ++d) flat = d == 0 ? idx[0] : add(mul(flat, i32(outShape[d])), idx[d]);
    return unflattenIndex(flat, inShape);
  }
  std::vector<PrimExpr> src(inShape.size());
  size_t i = 0, j = 0;
  while (i < outShape.size() || j < inShape.size()) {
    const size_t i0 = i, j0 = j;
    int64_t outProduct = 1, inProduct = 1;
    do {
      if (j >= inShape.size() || (i < outShape.size() && outProduct <= inProduct)) outProduct *= outShape[i++];
      else inProduct *= inShape[j++];
    } while (outProduct != inProduct && (i < outShape.size() || j < inShape.size()));
    PrimExpr flat;
    int64_t stride = 1;
    for (size_t d = i; d-- > i0;) {
      if (outShape[d] == 1) continue;
      PrimExpr term = stride == 1 ? idx[d] : mul(idx[d], i32(stride));
      flat = flat ? add(term, flat) : term;
      stride *= outShape[d];
    }
    if (!flat) flat = i32(0);
    size_t outermost = j0;
    while (outermost < j && inShape[outermost] == 1) ++outermost;
    stride = 1;
    for (size_t d = j; d-- > j0;) {
      if (inShape[d] == 1) {
        src[d] = i32(0);
        continue;
      }
      PrimExpr e = stride == 1 ? flat : bin(BinaryOp::FloorDiv, flat, i32(stride));
      src[d] = d == outermost ? e : bin(BinaryOp::FloorMod, e, i32(inShape[d]));
      stride *= inShape[d];
    }
  }
  return src;
}

/// out[...] = in[same row-major position]: reshape, squeeze, expand_dims.
T::Stmt flatCopy(const OpLowering& l) {
  const Operand& in = l.args.at(0);
  const std::vector<int64_t>& outShape = l.out->shape;
  return loopNest(outShape, "ax", [&](const std::vector<PrimExpr>& idx) {
    return T::store(l.out, idx, read(in, reshapeSource(idx, outShape, in.shape)));
  }, elementwiseSchedule(l));
}

/// out[i_0..] = in[i at perm^-1]: output axis j is input axis perm[j].
T::Stmt permute(const OpLowering& l, const std::vector<int64_t>& perm) {
  const Operand& in = l.args.at(0);
  return loopNest(l.out->shape, "ax", [&](const std::vector<PrimExpr>& idx) {
    std::vector<PrimExpr> src(in.shape.size());
    for (size_t j = 0; j < perm.size(); ++j) src[static_cast<size_t>(perm[j])] = idx[j];
    return T::store(l.out, idx, read(in, src));
  }, elementwiseSchedule(l));
}

/// One axis of a layout string: primal ('C') or a sub-axis with its factor ('4c').
struct LayoutAxis {
  char primal;
  int64_t factor;  // 0 for a primal axis
};

std::vector<LayoutAxis> parseLayout(const std::string& text) {
  std::vector<LayoutAxis> out;
  int64_t factor = 0;
  for (char c : text) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      factor = factor * 10 + (c - '0');
    } else if (std::isupper(static_cast<unsigned char>(c)) && factor == 0) {
      out.push_back({c, 0});
    } else if (std::islower(static_cast<unsigned char>(c)) && factor > 0) {
      out.push_back({static_cast<char>(std::toupper(static_cast<unsigned char>(c))), factor});
      factor = 0;
    } else {
      throw Unsupported("LegalizeOps: malformed layout \"" + text + "\"");
    }
  }
  return out;
}

/// layout_transform, blocked layouts included: output index -> primal coordinates -> source index.
T::Stmt layoutTransform(const OpLowering& l) {
  std::vector<LayoutAxis> src = parseLayout(attr(l, "src_layout").asString());
  std::vector<LayoutAxis> dst = parseLayout(attr(l, "dst_layout").asString());
  std::map<char, int64_t> srcSplit, dstSplit;
  for (const LayoutAxis& a : src)
    if (a.factor) srcSplit[a.primal] = a.factor;
  for (const LayoutAxis& a : dst)
    if (a.factor) dstSplit[a.primal] = a.factor;
  const Operand& in = l.args.at(0);
  if (src.size() != in.shape.size()) throw Unsupported("LegalizeOps: src_layout does not match the data's rank");
  return loopNest(l.out->shape, "ax", [&](const std::vector<PrimExpr>& idx) {
    std::map<char, PrimExpr> coord;
    for (size_t j = 0; j < dst.size(); ++j) {
      const LayoutAxis& a = dst[j];
      PrimExpr part = a.factor || !dstSplit.count(a.primal) ? idx[j] : bin(BinaryOp::Mul, idx[j], i32(dstSplit[a.primal]));
      coord[a.primal] = coord.count(a.primal) ? bin(BinaryOp::Add, coord[a.primal], part) : part;
    }
    std::vector<PrimExpr> from;
    for (const LayoutAxis& a : src) {
      if (!coord.count(a.primal)) throw Unsupported("LegalizeOps: layouts of layout_transform have different axes");
      PrimExpr c = coord[a.primal];
      if (a.factor) from.push_back(bin(BinaryOp::FloorMod, c, i32(a.factor)));
      else if (srcSplit.count(a.primal)) from.push_back(bin(BinaryOp::FloorDiv, c, i32(srcSplit[a.primal])));
      else from.push_back(c);
    }
    return T::store(l.out, idx, read(in, from));
  }, elementwiseSchedule(l));
}

T::Stmt concatenate(const OpLowering& l) {
  int64_t rank = static_cast<int64_t>(l.out->shape.size());
  int64_t axis = attr(l, "axis").asInt();
  if (axis < 0) axis += rank;
  std::vector<T::Stmt> parts;
  int64_t offset = 0;
  for (const Operand& in : l.args) {
    if (static_cast<int64_t>(in.shape.size()) != rank) throw Unsupported("LegalizeOps: concatenate of tensors of different ranks");
    parts.push_back(loopNest(in.shape, "ax", [&](const std::vector<PrimExpr>& idx) {
      std::vector<PrimExpr> dst = idx;
      if (offset) dst[static_cast<size_t>(axis)] = bin(BinaryOp::Add, idx[static_cast<size_t>(axis)], i32(offset));
      return T::store(l.out, dst, read(in, idx));
    }, NestSchedule{false, true}));
    offset += in.shape[static_cast<size_t>(axis)];
  }
  return T::seq(std::move(parts));
}

T::Stmt stridedSlice(const OpLowering& l) {
  const Operand& in = l.args.at(0);
  size_t rank = in.shape.size();
  std::vector<int64_t> begin = attrInts(l, "begin"), strides = attrInts(l, "strides"), axesAttr = attrInts(l, "axes");
  std::vector<int64_t> axes = axesAttr;
  if (attr(l, "axes").kind() != AttrValue::Kind::Array)
    for (size_t d = 0; d < begin.size(); ++d) axes.push_back(static_cast<int64_t>(d));
  bool sizeMode = attr(l, "slice_mode").asString() == "size";
  std::vector<int64_t> start(rank, 0), step(rank, 1);
  for (size_t k = 0; k < axes.size() && k < begin.size(); ++k) {
    int64_t d = axes[k] < 0 ? axes[k] + static_cast<int64_t>(rank) : axes[k];
    if (d < 0 || d >= static_cast<int64_t>(rank)) throw Unsupported("LegalizeOps: strided_slice axis out of range");
    int64_t extent = in.shape[static_cast<size_t>(d)];
    int64_t s = sizeMode || strides.empty() ? 1 : strides[std::min(k, strides.size() - 1)];
    int64_t b = begin[k];
    if (b < 0) b += extent;
    b = s > 0 ? std::clamp<int64_t>(b, 0, extent) : std::clamp<int64_t>(b, -1, extent - 1);
    start[static_cast<size_t>(d)] = b;
    step[static_cast<size_t>(d)] = s;
  }
  return loopNest(l.out->shape, "ax", [&](const std::vector<PrimExpr>& idx) {
    std::vector<PrimExpr> src;
    for (size_t d = 0; d < rank; ++d) {
      PrimExpr i = step[d] == 1 ? idx[d] : bin(BinaryOp::Mul, idx[d], i32(step[d]));
      src.push_back(start[d] == 0 ? i : bin(BinaryOp::Add, i32(start[d]), i));
    }
    return T::store(l.out, idx, read(in, src));
  }, elementwiseSchedule(l));
}

/// nn.pad: constant mode fills outside the data; edge and reflect read a
/// mirrored or clamped source index, as the reference kernel does.
T::Stmt pad(const OpLowering& l) {
  const std::string& mode = attr(l, "pad_mode").asString();
  if (mode != "constant" && mode != "edge" && mode != "reflect")
    throw Unsupported("LegalizeOps: nn.pad with pad_mode \"" + mode + "\" has no lowering");
  const Operand& in = l.args.at(0);
  const AttrValue& widths = attr(l, "pad_width");
  std::vector<int64_t> before, after;
  for (const AttrValue& w : widths.asArray()) {
    bool pair = w.kind() == AttrValue::Kind::Array;
    before.push_back(pair ? w.asArray().at(0).asInt() : w.asInt());
    after.push_back(pair && w.asArray().size() > 1 ? w.asArray()[1].asInt() : before.back());
  }
  if (before.size() != in.shape.size()) throw Unsupported("LegalizeOps: nn.pad pad_width does not match the data's rank");
  if (mode != "constant") {
    // The kernel rejects these widths; compiled code would index outside the data.
    for (size_t k = 0; k < before.size(); ++k) {
      int64_t extent = in.shape[k];
      bool bad = mode == "reflect" ? before[k] >= extent || after[k] >= extent : extent == 0 && (before[k] || after[k]);
      if (bad) throw Unsupported("LegalizeOps: nn.pad " + mode + " padding wider than the data has no lowering");
    }
    return loopNest(l.out->shape, "ax", [&](const std::vector<PrimExpr>& idx) {
      std::vector<PrimExpr> src;
      for (size_t k = 0; k < idx.size(); ++k) {
        PrimExpr i = before[k] == 0 ? idx[k] : bin(BinaryOp::Sub, idx[k], i32(before[k]));
        int64_t last = in.shape[k] - 1;
        if (mode == "edge") {
          src.push_back(bin(BinaryOp::Min, bin(BinaryOp::Max, i, i32(0)), i32(last)));
        } else {
          // |i| mirrors the front; 2 * last - i mirrors the back (the edge element itself is not repeated).
          PrimExpr front = bin(BinaryOp::Max, i, bin(BinaryOp::Sub, i32(0), i));
          src.push_back(bin(BinaryOp::Min, front, bin(BinaryOp::Sub, i32(2 * last), front)));
        }
      }
      return T::store(l.out, idx, read(in, src));
    }, elementwiseSchedule(l));
  }
  DataType d = l.out->dtype;
  PrimExpr padValue = l.args.size() > 1 ? castTo(d, read(l.args[1], {})) : constOf(d, attr(l, "pad_value").asFloat());
  return loopNest(l.out->shape, "ax", [&](const std::vector<PrimExpr>& idx) {
    std::vector<PrimExpr> src;
    PrimExpr inside;
    for (size_t k = 0; k < idx.size(); ++k) {
      PrimExpr i = before[k] == 0 ? idx[k] : bin(BinaryOp::Sub, idx[k], i32(before[k]));
      src.push_back(i);
      PrimExpr ok = bin(BinaryOp::And, bin(BinaryOp::GE, i, i32(0)), bin(BinaryOp::LT, i, i32(in.shape[k])));
      inside = inside ? bin(BinaryOp::And, inside, ok) : ok;
    }
    if (!inside) return T::store(l.out, idx, read(in, src));
    // A statement-level guard: the load happens only inside the data (no speculative out-of-bounds read).
    return T::ifThenElse(inside, T::store(l.out, idx, read(in, src)), T::store(l.out, idx, padValue));
  }, NestSchedule{l.host && numElements(l.out->shape) >= 1024, false});
}

/// take: out[pre, j, post] = data[pre, index(indices[batch, j]), post].
/// The index is data-dependent, so it is always brought inside the axis
/// (clip and wrap as the kernel does; "fast", where the kernel rejects an
/// out-of-range index, is clamped) and the load can never leave the buffer.
T::Stmt take(const OpLowering& l) {
  const Operand& data = l.args.at(0);
  const Operand& indices = l.args.at(1);
  if (!indices.dtype.isInt()) throw Unsupported("LegalizeOps: take with indices of type " + std::string(indices.dtype.name()) + " has no lowering");
  const std::string& mode = attr(l, "mode").asString();
  if (mode != "clip" && mode != "wrap" && mode != "fast") throw Unsupported("LegalizeOps: take with mode \"" + mode + "\" has no lowering");
  bool flatten = attr(l, "axis").isNone();
  std::vector<int64_t> ds = flatten ? std::vector<int64_t>{numElements(data.shape)} : data.shape;
  int64_t rank = static_cast<int64_t>(ds.size());
  int64_t indexRank = static_cast<int64_t>(indices.shape.size());
  int64_t axis = flatten ? 0 : attr(l, "axis").asInt();
  if (axis < 0) axis += rank;
  int64_t batchDims = flatten ? 0 : attr(l, "batch_dims").asInt();
  if (batchDims < 0) batchDims += indexRank;
  if (axis < 0 || axis >= rank || batchDims < 0 || batchDims > axis || batchDims > indexRank)
    throw Unsupported("LegalizeOps: take axis or batch_dims out of range");
  int64_t extent = ds[static_cast<size_t>(axis)];
  if (extent == 0 && numElements(l.out->shape) > 0) throw Unsupported("LegalizeOps: take from an empty axis has no lowering");
  int64_t taken = indexRank - batchDims;  // output axes that come from the indices
  return loopNest(l.out->shape, "ax", [&](const std::vector<PrimExpr>& idx) {
    std::vector<PrimExpr> at(idx.begin(), idx.begin() + batchDims);
    at.insert(at.end(), idx.begin() + axis, idx.begin() + axis + taken);
    // In int64: a narrow index type would overflow adding the extent.
    DataType wide(DTypeCode::Int64);
    PrimExpr v = castTo(wide, read(indices, at));
    PrimExpr e = constOf(wide, static_cast<double>(extent));
    if (mode == "wrap") {
      v = bin(BinaryOp::FloorMod, v, e);
    } else {
      if (mode == "fast") v = T::select(bin(BinaryOp::LT, v, constOf(wide, 0)), bin(BinaryOp::Add, v, e), v);
      v = bin(BinaryOp::Min, bin(BinaryOp::Max, v, constOf(wide, 0)), constOf(wide, static_cast<double>(extent - 1)));
    }
    std::vector<PrimExpr> src(idx.begin(), idx.begin() + axis);
    src.push_back(castTo(DataType(DTypeCode::Int32), v));
    src.insert(src.end(), idx.begin() + axis + taken, idx.end());
    if (flatten) {
      // Unflatten the position in the flattened data into the data's own indices.
      src = unflattenIndex(src[0], data.shape);
    }
    return T::store(l.out, idx, read(data, src));
  }, NestSchedule{l.host && numElements(l.out->shape) >= 1024, false});
}

}  // namespace

T::Stmt lowerTransform(const OpLowering& l) {
  switch (l.op.id) {
    case OpId::Reshape:
    case OpId::Squeeze:
    case OpId::ExpandDims: return flatCopy(l);
    case OpId::Transpose: {
      size_t rank = l.args.at(0).shape.size();
      std::vector<int64_t> perm = attrInts(l, "axes");
      if (perm.empty())
        for (size_t d = rank; d-- > 0;) perm.push_back(static_cast<int64_t>(d));
      for (int64_t& p : perm)
        if (p < 0) p += static_cast<int64_t>(rank);
      return permute(l, perm);
    }
    case OpId::LayoutTransform: return layoutTransform(l);
    case OpId::Concatenate: return concatenate(l);
    case OpId::StridedSlice: return stridedSlice(l);
    case OpId::Pad: return pad(l);
    case OpId::Take: return take(l);
    default: break;
  }
  throw Unsupported("LegalizeOps: op '" + std::string(l.op.name) + "' is not a data-movement op");
}

T::Stmt lowerSplit(const OpLowering& l, const std::vector<T::Buffer>& pieces) {
  const Operand& in = l.args.at(0);
  int64_t rank = static_cast<int64_t>(in.shape.size());
  int64_t axis = attr(l, "axis").asInt();
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) throw Unsupported("LegalizeOps: split axis out of range");
  // The pieces' own extents along the axis give each one's offset: the type
  // relation already resolved indices_or_sections into them.
  std::vector<T::Stmt> parts;
  int64_t offset = 0;
  for (const T::Buffer& piece : pieces) {
    if (static_cast<int64_t>(piece->shape.size()) != rank) throw Unsupported("LegalizeOps: a piece of split has the wrong rank");
    parts.push_back(loopNest(piece->shape, "ax", [&](const std::vector<PrimExpr>& idx) {
      std::vector<PrimExpr> src = idx;
      if (offset) src[static_cast<size_t>(axis)] = bin(BinaryOp::Add, idx[static_cast<size_t>(axis)], i32(offset));
      return T::store(piece, idx, read(in, src));
    }, NestSchedule{l.host && numElements(piece->shape) >= 1024, true}));
    offset += piece->shape[static_cast<size_t>(axis)];
  }
  if (offset != in.shape[static_cast<size_t>(axis)]) throw Unsupported("LegalizeOps: the pieces of split do not cover the axis");
  return parts.size() == 1 ? parts[0] : T::seq(std::move(parts));
}

}  // namespace passlab::legalize
