// The op table: attribute schemas (TVM's names, order and defaults), argument
// counts, type relations and statefulness for every op of ops.def.
#include "core/ir/op.h"

#include <algorithm>
#include <array>

#include "core/ir/lowering_ops.h"
#include "core/ir/op_relations.h"

namespace passlab {

namespace {

using Kind = AttrValue::Kind;

// Schema field builders, named after what the field holds.
AttrField field(std::string name, Kind kind, AttrValue def) {
  AttrField f;
  f.name = std::move(name);
  f.kind = kind;
  f.defaultValue = std::move(def);
  return f;
}
AttrField intField(std::string name, int64_t def) { return field(std::move(name), Kind::Int, AttrValue::integer(def)); }
AttrField floatField(std::string name, double def) { return field(std::move(name), Kind::Float, AttrValue::floating(def)); }
AttrField boolField(std::string name, bool def) { return field(std::move(name), Kind::Bool, AttrValue::boolean(def)); }
AttrField stringField(std::string name, std::string def) { return field(std::move(name), Kind::String, AttrValue::string(std::move(def))); }
AttrField intsField(std::string name, std::vector<int64_t> def) { return field(std::move(name), Kind::Array, AttrValue::ints(def)); }
/// A field whose TVM default is None (NullValue).
AttrField optional(std::string name, Kind kind) {
  AttrField f = field(std::move(name), kind, AttrValue::none());
  f.nullable = true;
  return f;
}
/// A field TVM requires (no default).
AttrField required(std::string name, Kind kind) {
  AttrField f = field(std::move(name), kind, AttrValue::none());
  f.required = true;
  return f;
}

/// Fills in the schema, arity and relation of one op. The switch has no
/// default so the compiler flags an op added to ops.def but not described here.
void describe(OpDef& d) {
  auto set = [&d](int numArgs, TypeRelation rel, std::vector<AttrField> attrs = {}) {
    d.numArgs = numArgs;
    d.relation = rel;
    d.attrs = std::move(attrs);
  };
  const std::vector<AttrField> reduceAttrs = {optional("axis", Kind::Array), boolField("keepdims", false),
                                              boolField("exclude", false)};
  const std::vector<AttrField> outTypeAttrs = {required("out_shape", Kind::Array), required("out_dtype", Kind::String)};
  switch (d.id) {
    case OpId::Add:
    case OpId::Subtract:
    case OpId::Multiply:
    case OpId::Divide:
    case OpId::Power:
    case OpId::Mod:
    case OpId::FloorMod:
    case OpId::Maximum:
    case OpId::Minimum: set(2, relBroadcast); break;
    case OpId::Equal:
    case OpId::Less:
    case OpId::Greater: set(2, relCompare); break;
    case OpId::Where: set(3, relWhere); break;

    case OpId::Negative:
    case OpId::Abs:
    case OpId::Round:
    case OpId::Floor:
    case OpId::Ceil:
    case OpId::Relu: set(1, relIdentity); break;
    // The float-math category of ops.def.
#define PASSLAB_OP(id, name, pattern)
#define PASSLAB_FLOAT_MATH_OP(id, name, intrinsic) case OpId::id:
#include "core/ir/ops.def"
#undef PASSLAB_OP
    case OpId::Gelu:
    case OpId::Silu:
      set(1, relFloatUnary);
      break;
    case OpId::Clip: set(1, relClip, {required("a_min", Kind::Float), required("a_max", Kind::Float)}); break;
    case OpId::LeakyRelu: set(1, relIdentity, {floatField("alpha", 0.25)}); break;
    case OpId::Cast: set(1, relCast, {required("dtype", Kind::String)}); break;

    case OpId::Conv2D:
      set(2, relConv2D,
          {intsField("strides", {1, 1}), intsField("padding", {0, 0}), intsField("dilation", {1, 1}), intField("groups", 1),
           optional("channels", Kind::Int), optional("kernel_size", Kind::Array), stringField("data_layout", "NCHW"),
           stringField("kernel_layout", "OIHW"), stringField("out_layout", ""), stringField("out_dtype", "")});
      break;
    case OpId::Conv2DTranspose:
      set(2, relConv2DTranspose,
          {optional("channels", Kind::Int), optional("kernel_size", Kind::Array), intsField("strides", {1, 1}),
           intsField("output_padding", {0, 0}), intsField("padding", {0, 0}), intsField("dilation", {1, 1}),
           intField("groups", 1), stringField("data_layout", "NCHW"), stringField("kernel_layout", "IOHW"),
           stringField("out_layout", ""), stringField("out_dtype", "")});
      break;
    case OpId::Dense: set(2, relDense, {optional("units", Kind::Int), stringField("out_dtype", "")}); break;
    case OpId::Matmul:
      set(2, relMatmul,
          {optional("units", Kind::Int), stringField("out_dtype", ""), boolField("transpose_a", false),
           boolField("transpose_b", false)});
      break;
    case OpId::BatchMatmul:
      set(2, relBatchMatmul,
          {stringField("out_dtype", ""), boolField("transpose_a", false), boolField("transpose_b", true)});
      break;
    case OpId::BiasAdd: set(2, relBiasAdd, {intField("axis", 1)}); break;
    case OpId::BatchNorm:
      // training: Relax's flag (TVM's default is True there; Relay and ONNX mean inference).
      set(5, relBatchNorm,
          {intField("axis", 1), floatField("epsilon", 1e-5), boolField("center", true), boolField("scale", true),
           floatField("momentum", 0.1), boolField("training", false)});
      break;
    case OpId::LayerNorm:
      set(3, relLayerNorm,
          {intField("axis", -1), floatField("epsilon", 1e-5), boolField("center", true), boolField("scale", true)});
      break;
    case OpId::GroupNorm:
      // TVM's GroupNormAttrs, in its field order; axes excludes the channel axis.
      set(3, relGroupNorm,
          {required("num_groups", Kind::Int), required("channel_axis", Kind::Int), required("axes", Kind::Array),
           floatField("epsilon", 1e-5), boolField("center", true), boolField("scale", true)});
      break;
    case OpId::MaxPool2D:
      set(1, relPool2D,
          {required("pool_size", Kind::Array), intsField("strides", {1, 1}), intsField("dilation", {1, 1}),
           intsField("padding", {0, 0}), stringField("layout", "NCHW"), stringField("out_layout", ""),
           boolField("ceil_mode", false)});
      break;
    case OpId::AvgPool2D:
      set(1, relPool2D,
          {required("pool_size", Kind::Array), intsField("strides", {1, 1}), intsField("dilation", {1, 1}),
           intsField("padding", {0, 0}), stringField("layout", "NCHW"), stringField("out_layout", ""),
           boolField("ceil_mode", false), boolField("count_include_pad", false)});
      break;
    case OpId::GlobalAvgPool2D:
      set(1, relGlobalPool2D, {stringField("layout", "NCHW"), stringField("out_layout", "")});
      break;
    case OpId::Softmax: set(1, relSoftmax, {intField("axis", -1)}); break;
    case OpId::Pad:
      // TVM >= 0.8 passes the pad value as a second argument; older text has a
      // pad_value attribute. Both are accepted (not both at once).
      set(-1, relPad,
          {required("pad_width", Kind::Array), floatField("pad_value", 0.0), stringField("pad_mode", "constant")});
      break;

    case OpId::Reshape: set(1, relReshape, {required("newshape", Kind::Array), boolField("allowzero", false)}); break;
    case OpId::Transpose: set(1, relTranspose, {optional("axes", Kind::Array)}); break;
    case OpId::Concatenate: set(1, relConcatenate, {intField("axis", 0)}); break;
    case OpId::Split: {
      AttrField sections = required("indices_or_sections", Kind::Array);
      sections.alsoAccepts = {Kind::Int};
      set(1, relSplit, {sections, intField("axis", 0)});
      break;
    }
    case OpId::Squeeze: set(1, relSqueeze, {optional("axis", Kind::Array)}); break;
    case OpId::ExpandDims: set(1, relExpandDims, {required("axis", Kind::Int), intField("num_newaxis", 1)}); break;
    case OpId::StridedSlice:
      set(1, relStridedSlice,
          {required("begin", Kind::Array), required("end", Kind::Array), optional("strides", Kind::Array),
           stringField("slice_mode", "end"), optional("axes", Kind::Array)});
      break;
    case OpId::Take:
      set(2, relTake, {intField("batch_dims", 0), optional("axis", Kind::Int), stringField("mode", "clip")});
      break;
    case OpId::LayoutTransform:
      set(1, relLayoutTransform, {required("src_layout", Kind::String), required("dst_layout", Kind::String)});
      break;
    case OpId::Resize2D: {
      set(1, relResize2D,
          {required("size", Kind::Array), optional("roi", Kind::Array), stringField("layout", "NCHW"),
           stringField("method", "linear"),
           stringField("coordinate_transformation_mode", "half_pixel"), stringField("rounding_method", "round"),
           floatField("cubic_alpha", -0.5), intField("cubic_exclude", 0), floatField("extrapolation_value", 0.0),
           stringField("out_dtype", "")});
      break;
    }

    case OpId::Mean:
    case OpId::Sum:
    case OpId::Max:
    case OpId::Min:
    case OpId::Prod: set(1, relReduce, reduceAttrs); break;
    case OpId::ArgMax:
    case OpId::ArgMin: {
      // TVM's ArgReduceAttrs: the reduce attributes with select_last_index
      // before exclude (TVM's field order, which the printer follows).
      std::vector<AttrField> attrs = reduceAttrs;
      attrs.insert(attrs.begin() + 2, boolField("select_last_index", false));
      set(1, relArgReduce, attrs);
      break;
    }

    case OpId::Zeros:
    case OpId::Ones: set(0, relInitConst, {required("shape", Kind::Array), required("dtype", Kind::String)}); break;
    case OpId::Full: set(1, relFull, {required("shape", Kind::Array), stringField("dtype", "")}); break;
    case OpId::ShapeOf: set(1, relShapeOf, {stringField("dtype", "int64")}); break;

    case OpId::CallTir: {
      // out_shape is one shape or a list of shapes; out_dtype one dtype or a list.
      std::vector<AttrField> attrs = outTypeAttrs;
      attrs[1].alsoAccepts = {Kind::Array};
      // inplace_indices makes it R.call_tir_inplace (core/ir/call_tir.h).
      attrs.push_back(optional("inplace_indices", Kind::Array));
      // tir_vars: TVM's extra symbolic shape arguments (R.shape([n])), passed
      // to the PrimFunc's trailing integer scalar parameters.
      attrs.push_back(optional("tir_vars", Kind::Array));
      set(2, relCallTir, attrs);
      break;
    }
    case OpId::MatchCast: set(1, relMatchCast); break;
    case OpId::CallDpsPacked:
    case OpId::CallPurePacked:
    case OpId::InvokePureClosure: {
      std::vector<AttrField> attrs = outTypeAttrs;
      attrs[1].alsoAccepts = {Kind::Array};
      TypeRelation rel = d.id == OpId::CallDpsPacked    ? relCallDpsPacked
                         : d.id == OpId::CallPurePacked ? relCallPurePacked
                                                        : relInvokePureClosure;
      set(d.id == OpId::CallPurePacked ? -1 : 2, rel, attrs);
      break;
    }
    case OpId::VmAllocStorage:
      set(0, relVmAllocStorage,
          {required("size", Kind::Int), intField("device_index", 0), stringField("storage_scope", "global"),
           intField("alignment", 64)});
      d.stateful = true;
      break;
    case OpId::VmAllocTensor:
      set(1, relVmAllocTensor, {intField("offset", 0), required("shape", Kind::Array), required("dtype", Kind::String)});
      d.stateful = true;
      break;
    case OpId::VmCallTir:
      set(2, relVmCallTir);
      d.stateful = true;
      break;

    // Device annotations are never folded away: a constant moved to a device
    // is still a copy, and on_device is what device planning reads.
    case OpId::OnDevice:
      set(1, relOnDevice,
          {optional("virtual_device", Kind::MetaRef), boolField("constrain_body", true), boolField("constrain_result", false)});
      d.stateful = true;
      break;
    case OpId::DeviceCopy:
      set(1, relDeviceCopy, {optional("src_virtual_device", Kind::MetaRef), optional("dst_virtual_device", Kind::MetaRef)});
      d.stateful = true;
      break;
    case OpId::CallLowered:
      set(2, relCallLowered, {field("metadata", Kind::Dict, AttrValue::dict({}))});
      d.stateful = true;
      break;
    case OpId::MemoryAllocStorage:
      set(2, relMemoryAllocStorage, {optional("virtual_device", Kind::MetaRef), stringField("dtype_hint", "float32")});
      d.stateful = true;
      break;
    case OpId::MemoryAllocTensor: {
      // TVM prints const_shape as a constant reference (meta[relay.Constant][N]).
      AttrField constShape = optional("const_shape", Kind::Array);
      constShape.alsoAccepts = {Kind::MetaRef};
      set(3, relMemoryAllocTensor, {stringField("dtype", "float32"), constShape, optional("assert_shape", Kind::Array)});
      d.stateful = true;
      break;
    }
    case OpId::MemoryKill:
      set(1, relMemoryKill);
      d.stateful = true;
      break;
    case OpId::VmShapeOf: set(1, relVmShapeOf, {stringField("dtype", "int64")}); break;

    // Relax's VM lowering (op_relations_relax_vm.cpp): TVM's argument names and order.
    case OpId::RelaxShapeExpr: set(0, relRelaxShapeExpr, {required("values", Kind::Array)}); break;
    case OpId::RelaxPrimValue: {
      // value: an int, or a symbolic one's text ("n", "n * 2"), as shape attributes hold it.
      AttrField value = required("value", Kind::Int);
      value.alsoAccepts = {Kind::String};
      set(0, relRelaxPrimValue, {value, stringField("dtype", "int64")});
      break;
    }
    case OpId::RelaxNullValue: set(0, relRelaxNullValue); break;
    case OpId::RelaxCallPacked: {
      // No out type: R.Object; empty lists: R.Tuple (ty_args=(R.Tuple,)).
      AttrField shapeF = optional("out_shape", Kind::Array);
      AttrField dtypeF = optional("out_dtype", Kind::String);
      dtypeF.alsoAccepts = {Kind::Array};
      // The packed function is named (TVM's ExternFunc), not a global of the module.
      // out_type: a result that out_shape/out_dtype cannot say (core/ir/type_attr.h).
      set(-1, relRelaxCallPacked, {required("func_name", Kind::String), shapeF, dtypeF, optional("out_type", Kind::Dict)});
      d.stateful = true;
      break;
    }
    case OpId::RelaxStrImm: set(0, relRelaxStrImm, {required("value", Kind::String)}); break;
    case OpId::RelaxDataTypeImm: set(0, relRelaxStrImm, {required("value", Kind::String)}); break;
    case OpId::RelaxCallBuiltinWithCtx:
      // The builtin's arguments are the call's (TVM's args tuple, unpacked).
      set(-1, relRelaxCallBuiltinWithCtx, {required("func_name", Kind::String), optional("out_type", Kind::Dict)});
      d.stateful = true;
      break;
    case OpId::BuiltinAllocTensor:
      set(0, relBuiltinAllocTensor,
          {required("shape", Kind::Array), required("dtype", Kind::String), intField("runtime_device_index", 0),
           stringField("storage_scope", "global")});
      d.stateful = true;
      break;
    case OpId::RelaxMemAllocStorage:
      set(0, relRelaxAllocStorage,
          {required("size", Kind::Array), intField("virtual_device_index", 0), stringField("storage_scope", "global"),
           stringField("dtype", "uint8")});
      d.stateful = true;
      break;
    case OpId::RelaxVmAllocStorage:
      set(0, relRelaxAllocStorage,
          {required("size", Kind::Array), intField("runtime_device_index", 0), stringField("dtype", "uint8"),
           stringField("storage_scope", "global")});
      d.stateful = true;
      break;
    case OpId::RelaxMemAllocTensor:
    case OpId::RelaxVmAllocTensor:
      set(1, relRelaxAllocTensor,
          {intField("offset", 0), required("shape", Kind::Array), required("dtype", Kind::String),
           intField("runtime_device_ind", 0)});
      d.stateful = true;
      break;
    case OpId::RelaxMemKillStorage:
    case OpId::RelaxMemKillTensor:
    case OpId::RelaxVmKillObject:
      set(1, relRelaxKill);
      d.stateful = true;
      break;
    case OpId::VmInvokeTvmOp:
      set(3, relVmInvokeTvmOp);
      d.stateful = true;
      break;
    case OpId::VmReshapeTensor: set(2, relVmReshapeTensor, {required("newshape", Kind::Array)}); break;
  }
}

const std::vector<OpDef>& table() {
  static const std::vector<OpDef> kTable = [] {
    std::vector<OpDef> ops;
    ops.reserve(kNumOps);
#define PASSLAB_OP(id_, name_, pattern_) \
  ops.emplace_back();                   \
  ops.back().id = OpId::id_;            \
  ops.back().name = name_;              \
  ops.back().pattern = FusionPattern::pattern_;
#include "core/ir/ops.def"
#undef PASSLAB_OP
    for (OpDef& d : ops) describe(d);
    return ops;
  }();
  return kTable;
}

std::string_view kindName(Kind k) {
  switch (k) {
    case Kind::None: return "None";
    case Kind::Bool: return "a bool";
    case Kind::Int: return "an int";
    case Kind::Float: return "a float";
    case Kind::String: return "a string";
    case Kind::Array: return "an array";
    case Kind::Dict: return "a dictionary";
    case Kind::MetaRef: return "a metadata reference (meta[VirtualDevice][N])";
  }
  return "?";
}

const AttrField* findField(const OpDef& op, std::string_view key) {
  for (const AttrField& f : op.attrs)
    if (f.name == key) return &f;
  return nullptr;
}

/// The value converted to the field's kind (the lenient conversions the schema
/// allows), so equal values have one spelling and default removal is exact.
AttrValue convertToField(const OpDef& op, const AttrField& field, const AttrValue& v) {
  Kind k = v.kind();
  if (k == field.kind) return v;
  if (std::find(field.alsoAccepts.begin(), field.alsoAccepts.end(), k) != field.alsoAccepts.end()) return v;
  if (k == Kind::None && field.nullable) return v;
  switch (field.kind) {
    case Kind::Float:
      if (k == Kind::Int) return AttrValue::floating(static_cast<double>(v.asInt()));
      break;
    case Kind::Int:
      if (k == Kind::Bool) return AttrValue::integer(v.asInt());
      break;
    case Kind::Bool:
      if (k == Kind::Int && (v.asInt() == 0 || v.asInt() == 1)) return AttrValue::boolean(v.asInt() != 0);
      break;
    case Kind::Array:
      // TVM's Python API turns a single axis into a list; so do we.
      if (k == Kind::Int) return AttrValue::array({v});
      break;
    default: break;
  }
  throw TypeRelationError("attribute '" + field.name + "' of " + std::string(op.name) + " expects " +
                          std::string(kindName(field.kind)) + (field.nullable ? " or None" : "") + ", got " +
                          std::string(kindName(k)) + " (" + v.toString() + ")");
}

}  // namespace

std::string_view fusionPatternName(FusionPattern p) {
  switch (p) {
    case FusionPattern::ElemWise: return "elemwise";
    case FusionPattern::Broadcast: return "broadcast";
    case FusionPattern::Injective: return "injective";
    case FusionPattern::CommReduce: return "comm-reduce";
    case FusionPattern::OutEWiseFusable: return "out-elemwise-fusable";
    case FusionPattern::Opaque: return "opaque";
  }
  return "opaque";
}

const OpDef& opDef(OpId id) { return table()[static_cast<size_t>(id)]; }

const OpDef* findOp(std::string_view name) {
  for (const OpDef& d : table())
    if (d.name == name) return &d;
  return nullptr;
}

std::span<const OpDef> allOps() { return table(); }

/// Whether canonicalizeAttrs would give `attrs` back unchanged: its entries are
/// the op's fields in their order, each of its field's kind (or one it
/// accepts as it is), none optional and at its default. Passes mostly build
/// calls from attributes that already are (a call's own, rebuilt).
static bool alreadyCanonical(const OpDef& op, const AttrDict& attrs) {
  const auto& entries = attrs.entries();
  size_t next = 0;
  for (const AttrField& field : op.attrs) {
    if (next == entries.size() || entries[next].first != field.name) {
      if (field.required) return false;
      continue;
    }
    const AttrValue& v = entries[next++].second;
    const AttrValue::Kind k = v.kind();
    const bool asIs = k == field.kind || (k == AttrValue::Kind::None && field.nullable) ||
                      std::find(field.alsoAccepts.begin(), field.alsoAccepts.end(), k) != field.alsoAccepts.end();
    if (!asIs || (!field.required && v == field.defaultValue)) return false;
  }
  return next == entries.size();
}

AttrDict canonicalizeAttrs(const OpDef& op, const AttrDict& attrs) {
  if (alreadyCanonical(op, attrs)) return attrs;
  for (const auto& [key, value] : attrs.entries()) {
    if (findField(op, key)) continue;
    std::string known;
    for (const AttrField& f : op.attrs) known += (known.empty() ? "" : ", ") + f.name;
    throw TypeRelationError("unknown attribute '" + key + "' for op " + std::string(op.name) +
                            (known.empty() ? " (it takes no attributes)" : " (known: " + known + ")"));
  }
  AttrDict out;
  for (const AttrField& field : op.attrs) {
    const AttrValue* given = attrs.find(field.name);
    if (!given) {
      if (field.required)
        throw TypeRelationError(std::string(op.name) + " requires attribute '" + field.name + "'");
      continue;
    }
    AttrValue value = convertToField(op, field, *given);
    if (!field.required && value == field.defaultValue) continue;
    out.set(field.name, std::move(value));
  }
  return out;
}

const AttrValue& attrOrDefault(const OpDef& op, const AttrDict& attrs, std::string_view key) {
  if (const AttrValue* v = attrs.find(key)) return *v;
  if (const AttrField* f = findField(op, key)) return f->defaultValue;
  static const AttrValue kNone;
  return kNone;
}

Type inferOpCallType(const OpDef& op, std::span<const Type> args, const AttrDict& attrs) {
  try {
    if (op.numArgs >= 0 && args.size() != static_cast<size_t>(op.numArgs))
      relationError("expects " + std::to_string(op.numArgs) + " argument" + (op.numArgs == 1 ? "" : "s") + ", got " +
                    std::to_string(args.size()));
    for (size_t i = 0; i < args.size(); ++i) {
      if (!args[i]) relationError("type of argument " + std::to_string(i) + " is unknown");
      // The graph ops' relations compute with a rank and a dtype; the VM's
      // builtins and match_cast take any tensor (that is how one gets its shape back).
      const auto* t = as<TensorTypeNode>(args[i]);
      if (t && (t->unknownRank || t->unknownDtype) && !isLoweringBuiltin(op.id))
        relationError("argument " + std::to_string(i) + " is a tensor of unknown " + (t->unknownRank ? "rank" : "dtype") +
                      " (" + typeToString(args[i]) + "); passlab infers ops on known ranks and dtypes only: R.match_cast it first");
    }
    return op.relation(args, attrs);
  } catch (const TypeRelationError& e) {
    throw TypeRelationError(std::string(op.name) + ": " + e.what());
  }
}

}  // namespace passlab
