// Calls in Relax TVMScript: `R.<op>(...)` through the spelling table,
// `R.call_tir` / `R.call_tir_inplace` / `R.call_dps_packed`, and `R.const`.
#include <algorithm>

#include "core/ir/call_tir.h"
#include "core/ir/shape_attr.h"
#include "core/text/tvmscript_module.h"
#include "core/text/tvmscript_ops.h"

namespace passlab::tvmscript {

namespace {

/// out_shape / out_dtype attributes of a call_tir-like op from its output type.
bool outTypeAttrs(const Type& t, AttrDict& attrs) {
  if (const auto* tt = as<TensorTypeNode>(t)) {
    attrs.set("out_shape", tt->hasSymbolicDim() ? shape::toAttrList(shape::dimsOf(*tt)) : AttrValue::ints(tt->shape));
    attrs.set("out_dtype", AttrValue::string(std::string(tt->dtype.name())));
    return true;
  }
  if (const auto* tup = as<TupleTypeNode>(t)) {
    std::vector<AttrValue> shapes, dtypes;
    for (const Type& f : tup->fields) {
      const auto* ft = as<TensorTypeNode>(f);
      if (!ft) return false;
      shapes.push_back(ft->hasSymbolicDim() ? shape::toAttrList(shape::dimsOf(*ft)) : AttrValue::ints(ft->shape));
      dtypes.push_back(AttrValue::string(std::string(ft->dtype.name())));
    }
    attrs.set("out_shape", AttrValue::array(std::move(shapes)));
    attrs.set("out_dtype", AttrValue::array(std::move(dtypes)));
    return true;
  }
  return false;
}

}  // namespace

Expr ModuleParser::parseRelaxCall(const std::string& callee, const PyToken& at) {
  Depth depth(*this);
  const PyToken& open = expect(PyTok::LParen, "'('");
  (void)open;
  std::string_view name = callee;
  if (name.starts_with(relaxAlias + ".")) name.remove_prefix(relaxAlias.size() + 1);
  else if (name.starts_with("relax.")) name.remove_prefix(6);
  Span span = spanOf(at);

  if (Expr vm = parseRelaxVmCall(name, at)) return vm;
  if (Expr device = parseDeviceCall(name, at)) return device;
  if (name == "const") {
    std::vector<ScriptArg> args = parseCallArgs();
    if (args.empty() || !args[0].isLiteral) fail(at, "R.const takes a value and a dtype");
    std::string dtype = "float32";
    if (args.size() > 1 && args[1].isLiteral && args[1].literal.kind() == AttrValue::Kind::String)
      dtype = args[1].literal.asString();
    auto d = DataType::parse(dtype);
    if (!d) fail(args.size() > 1 ? args[1].at : at, "unknown dtype \"" + dtype + "\"");
    const AttrValue& v = args[0].literal;
    if (v.kind() == AttrValue::Kind::Array) fail(args[0].at, "R.const of a list is not supported yet (use metadata constants)");
    double x = v.kind() == AttrValue::Kind::Bool ? (v.asBool() ? 1.0 : 0.0) : v.asFloat();
    if (v.kind() == AttrValue::Kind::Int && d->isFloat() == false) x = static_cast<double>(v.asInt());
    return makeConstant(NDArray::scalar(*d, x), span);
  }
  if (name == "call_tir" || name == "call_dps_packed" || name == "call_tir_inplace") {
    std::vector<ScriptArg> args = parseCallArgs();
    bool inplaceCall = name == "call_tir_inplace";
    OpId id = name == "call_dps_packed" ? OpId::CallDpsPacked : OpId::CallTir;
    Expr fn;
    Expr tuple;
    Type out;
    AttrValue inplace;
    AttrValue tirVars;
    int positional = 0;
    for (const ScriptArg& a : args) {
      // call_tir_inplace(f, args, inplace_indices, out_sinfo): an int or a list of ints.
      if (inplaceCall && (a.keyword == "inplace_indices" || (a.keyword.empty() && positional == 2 && a.isLiteral))) {
        bool ok = a.isLiteral && (a.literal.kind() == AttrValue::Kind::Int || a.literal.kind() == AttrValue::Kind::Array);
        if (ok && a.literal.kind() == AttrValue::Kind::Array)
          for (const AttrValue& v : a.literal.asArray()) ok = ok && v.kind() == AttrValue::Kind::Int;
        if (!ok) fail(a.at, "inplace_indices is an argument index or a list of them, such as [0] or [0, -1]");
        inplace = a.literal.kind() == AttrValue::Kind::Int ? AttrValue::ints({a.literal.asInt()}) : a.literal;
        ++positional;
        continue;
      }
      if (a.keyword == "out_sinfo" || a.keyword == "out_ty" || (a.keyword.empty() && a.isType)) {
        if (a.keyword == "out_sinfo") noteSpelling(TvmScriptSpelling::Release, a.at);
        if (a.keyword == "out_ty") noteSpelling(TvmScriptSpelling::Main, a.at);
        if (!a.isType) fail(a.at, "expected an output type such as R.Tensor((16,), dtype=\"float32\")");
        out = a.type;
        continue;
      }
      if (a.keyword == "tir_vars" && id == OpId::CallTir) {
        // TVM (0.20 .. 0.25): R.shape([n, m]) or a list of PrimExprs; 0.26 dropped it.
        if (!a.isLiteral || a.literal.kind() != AttrValue::Kind::Array || (!a.literalForm.empty() && a.literalForm != "shape"))
          fail(a.at, "tir_vars takes the symbolic values to pass, as R.shape([n]) or [n]");
        for (const AttrValue& v : a.literal.asArray())
          if (v.kind() != AttrValue::Kind::Int && !shape::attrHasSymbolic(v))
            fail(a.at, "tir_vars values are integer expressions over shape variables, got " + v.toString());
        tirVars = a.literal;
        continue;
      }
      if (!a.keyword.empty() && a.keyword != "args") fail(a.at, "unknown keyword '" + a.keyword + "' of R." + std::string(name));
      if (positional == 0 && a.keyword.empty()) {
        if (a.isLiteral && a.literal.kind() == AttrValue::Kind::String) fn = makeGlobalVar(a.literal.asString(), spanOf(a.at));
        else if (a.value) fn = a.value;
        else fail(a.at, "expected the called function");
        ++positional;
        continue;
      }
      if (!a.value && a.isLiteral && a.literal.kind() == AttrValue::Kind::Array && a.literal.asArray().empty()) {
        // R.call_tir(f, (), ...): a kernel that only writes its outputs (`()` reads as an empty literal).
        tuple = makeTuple({}, spanOf(a.at));
        ++positional;
        continue;
      }
      if (!a.value) fail(a.at, "expected the arguments as a tuple (x, y)");
      tuple = as<TupleNode>(a.value) ? a.value : makeTuple({a.value}, a.value->span);
      ++positional;
    }
    if (!fn) fail(at, "R." + std::string(name) + " needs the function to call");
    if (!tuple) tuple = makeTuple({}, span);
    if (!out) fail(at, "R." + std::string(name) + " needs its output type (out_sinfo=R.Tensor(...))");
    AttrDict attrs;
    if (!outTypeAttrs(out, attrs)) fail(at, "the output type of R." + std::string(name) + " must be tensors");
    if (inplaceCall) {
      if (inplace.isNone()) fail(at, "R.call_tir_inplace needs inplace_indices=[...] (which argument each output is written into)");
      attrs.set(kInplaceIndicesAttr, inplace);
    }
    if (!tirVars.isNone()) attrs.set("tir_vars", tirVars);
    try {
      return makeOpCall(id, {fn, tuple}, attrs, span);
    } catch (const DiagnosticError& e) {
      failAt(span, e.diagnostics().front().message);
    }
  }
  if (name == "match_cast") {
    std::vector<ScriptArg> args = parseCallArgs();
    if (args.size() != 2 || args[0].isLiteral || args[0].isType || !args[1].isType || !args[0].keyword.empty())
      fail(at, "R.match_cast takes a value and a type: R.match_cast(x, R.Tensor((n, 4), dtype=\"float32\"))");
    matchCastType_ = args[1].type;
    return makeOpCall(OpId::MatchCast, {args[0].value}, {}, span);
  }
  if (name == "call_pure_packed") {
    // R.call_pure_packed("f", x, y, sinfo_args=(T,)): passlab's call_pure_packed
    // of the global f (a function of the module, or an external one the
    // interpreter cannot call), with T as out_shape/out_dtype.
    std::vector<ScriptArg> args = parseCallArgs();
    std::vector<Expr> values;
    Type out;
    for (const ScriptArg& a : args) {
      if (a.keyword == "sinfo_args" || a.keyword == "ty_args") {
        noteSpelling(a.keyword == "ty_args" ? TvmScriptSpelling::Main : TvmScriptSpelling::Release, a.at);
        if (!a.isType) fail(a.at, "expected the result type as " + a.keyword + "=(R.Tensor(...),)");
        const auto* list = a.typeList ? as<TupleTypeNode>(a.type) : nullptr;
        if (list && list->fields.size() != 1) fail(a.at, a.keyword + " of R.call_pure_packed lists exactly one type");
        out = list ? list->fields[0] : a.type;
        continue;
      }
      if (!a.keyword.empty()) fail(a.at, "unknown keyword '" + a.keyword + "' of R.call_pure_packed");
      if (values.empty() && a.isLiteral && a.literal.kind() == AttrValue::Kind::String) {
        values.push_back(makeGlobalVar(a.literal.asString(), spanOf(a.at)));
        continue;
      }
      if (!a.value) fail(a.at, "expected a Relax value");
      values.push_back(a.value);
    }
    if (values.empty()) fail(at, "R.call_pure_packed needs the function to call");
    if (!out) fail(at, "R.call_pure_packed needs its result type (sinfo_args=(R.Tensor(...),))");
    AttrDict attrs;
    if (!outTypeAttrs(out, attrs)) fail(at, "the result type of R.call_pure_packed must be tensors");
    try {
      return makeOpCall(OpId::CallPurePacked, std::move(values), attrs, span);
    } catch (const DiagnosticError& e) {
      failAt(span, e.diagnostics().front().message);
    }
  }
  if (name == "invoke_pure_closure")
    fail(at, "R." + std::string(name) + " is not supported yet in TVMScript loading");
  if (name == "output" || name == "ExternFunc" || name == "func_attr" || name == "dataflow")
    fail(at, "R." + std::string(name) + " is not allowed here" +
                 std::string());

  // An op: the spelling table first, then Relay's name.
  const RelaxOpSpec* spec = relaxSpecNamed(name);
  const OpDef* op = spec ? &opDef(spec->id) : findOp(name);
  // passlab writes nn.matmul under its Relay name when R.matmul cannot say it (transposes, units).
  if (!spec && op && relaxSpecFor(op->id) && op->id != OpId::Matmul)
    fail(at, "unknown Relax op 'R." + std::string(name) + "': the Relax name is R." + std::string(relaxSpecFor(op->id)->name));
  if (!op) {
    std::string_view hint = relaxUnsupportedHint(name);
    fail(at, "unknown Relax op '" + callee + "'" + (hint.empty() ? std::string() : " (" + std::string(hint) + ")"));
  }
  std::vector<ScriptArg> args = parseCallArgs();
  std::vector<Expr> values;
  AttrDict attrs;
  size_t nextAttr = 0;
  auto attrCount = [&]() { return spec ? spec->attrs.size() : op->attrs.size(); };
  auto setAttr = [&](const ScriptArg& a, size_t index) {
    if (!spec) {
      attrs.set(op->attrs[index].name, a.literal);
      return;
    }
    const RelaxAttr& ra = spec->attrs[index];
    AttrValue v = a.literal;
    switch (ra.conv) {
      case AttrConv::Fixed: return;
      case AttrConv::Must: {
        std::string text = v.toString();
        if (text != ra.fixed)
          fail(a.at, "passlab's " + std::string(op->name) + " supports only " + std::string(ra.relax) + "=" +
                         std::string(ra.fixed) + ", got " + text);
        return;
      }
      case AttrConv::OutDtype:
        if (v.kind() == AttrValue::Kind::String && v.asString() == "void") return;
        break;
      case AttrConv::AxisList:
        if (v.kind() == AttrValue::Kind::Array) {
          if (v.asArray().size() != 1) fail(a.at, "passlab's " + std::string(op->name) + " normalizes over one axis");
          v = v.asArray()[0];
        }
        break;
      default: break;
    }
    if (v.isNone()) return;
    if (ra.conv == AttrConv::Pad4 && v.kind() == AttrValue::Kind::Array) {
      // TVM fills padding=[0, 0, 0, 0] in when it is not given: the default, passlab's absent attribute.
      bool allZero = !v.asArray().empty();
      for (const AttrValue& x : v.asArray()) allZero = allZero && x.kind() == AttrValue::Kind::Int && x.asInt() == 0;
      if (allZero) return;
    }
    if (ra.conv == AttrConv::Plain && !ra.fixed.empty() && v.kind() == AttrValue::Kind::Array) {
      // Relax's written-out default (roi=[0.0, 0.0, 0.0, 0.0]) is passlab's None.
      bool allZero = true;
      for (const AttrValue& x : v.asArray()) allZero = allZero && x.asFloat() == 0.0;
      if (allZero && v.asArray().size() == 4) return;
    }
    attrs.set(std::string(ra.key), v);
  };
  for (const ScriptArg& a : args) {
    if (a.isType) fail(a.at, "a type is not an argument of R." + std::string(name));
    if (a.keyword.empty() && !a.isLiteral) {
      if (nextAttr > 0) fail(a.at, "a Relax value after the attributes");
      values.push_back(a.value);
      continue;
    }
    if (!a.keyword.empty()) {
      bool found = false;
      for (size_t i = 0; i < attrCount(); ++i) {
        std::string_view key = spec ? spec->attrs[i].relax : std::string_view(op->attrs[i].name);
        if (key == a.keyword) {
          if (!a.isLiteral) fail(a.at, "attribute '" + a.keyword + "' of R." + std::string(name) + " must be a literal");
          setAttr(a, i);
          found = true;
          break;
        }
      }
      if (!found) fail(a.at, "unknown attribute '" + a.keyword + "' of R." + std::string(name));
      continue;
    }
    if (nextAttr >= attrCount()) fail(a.at, "too many arguments to R." + std::string(name));
    setAttr(a, nextAttr++);
  }
  // OutLayout: equal to the input layout is passlab's "".
  if (spec)
    for (const RelaxAttr& ra : spec->attrs)
      if (ra.conv == AttrConv::OutLayout) {
        const AttrValue* o = attrs.find(ra.key);
        const AttrValue* in = attrs.find(ra.fixed);
        std::string inLayout = in ? in->asString() : attrOrDefault(*op, {}, ra.fixed).asString();
        if (o && o->kind() == AttrValue::Kind::String && o->asString() == inLayout) attrs.erase(ra.key);
      }
  // BoolDefault: absent is Relax's default; passlab's own default is stored as absent.
  if (spec)
    for (const RelaxAttr& ra : spec->attrs)
      if (ra.conv == AttrConv::BoolDefault) {
        const AttrValue* v = attrs.find(ra.key);
        bool value = v ? v->asBool() : ra.fixed == "True";
        if (value == attrOrDefault(*op, {}, ra.key).asBool()) attrs.erase(ra.key);
        else attrs.set(std::string(ra.key), AttrValue::boolean(value));
      }
  OpId id = op->id;
  // R.matmul is numpy's: with a 3-d right operand it is a batch matmul.
  if (id == OpId::Matmul && values.size() == 2) {
    auto rank = [](const Expr& e) -> int {
      Type t = e->checkedType;
      if (const auto* v = as<VarNode>(e); v && v->annotation) t = v->annotation;
      const auto* tt = as<TensorTypeNode>(t);
      return tt ? static_cast<int>(tt->shape.size()) : -1;
    };
    int ra = rank(values[0]), rb = rank(values[1]);
    if (rb == 3 && ra == 3) {
      id = OpId::BatchMatmul;
      attrs.set("transpose_b", AttrValue::boolean(false));
    } else if (rb != 2 && rb != -1) {
      fail(at, "R.matmul with a " + std::to_string(rb) + "-d right operand is not supported yet (passlab maps 2-d and 3-d x 3-d)");
    }
  }
  if (!pendingMeta_.empty()) resolvePendingMeta(id, values, attrs);
  try {
    return makeOpCall(id, std::move(values), attrs, span);
  } catch (const DiagnosticError& e) {
    failAt(span, e.diagnostics().front().message);
  }
}

void ModuleParser::resolvePendingMeta(OpId id, std::vector<Expr>& values, const AttrDict& attrs) {
  auto typeOf = [](const Expr& e) -> const TensorTypeNode* {
    Type t = e->checkedType;
    if (const auto* v = as<VarNode>(e); v && v->annotation) t = v->annotation;
    const auto* tt = as<TensorTypeNode>(t);
    return tt && !tt->hasDynamicDim() ? tt : nullptr;
  };
  const TensorTypeNode* result = as<TensorTypeNode>(bindingType_);
  if (result && result->hasDynamicDim()) result = nullptr;
  const OpDef& op = opDef(id);
  for (size_t i = 0; i < values.size(); ++i) {
    auto it = pendingMeta_.find(values[i].get());
    if (it == pendingMeta_.end()) continue;
    const TensorTypeNode* data = i > 0 ? typeOf(values[0]) : nullptr;
    Type t;
    // Only where the use determines the type exactly (the data is made up; the type is not).
    if (data && id == OpId::Matmul && i == 1 && result && !data->shape.empty() && !result->shape.empty()) {
      t = tensorType({data->shape.back(), result->shape.back()}, data->dtype);
    } else if (data && (id == OpId::BatchNorm || id == OpId::LayerNorm) && i >= 1) {
      int64_t axis = attrOrDefault(op, attrs, "axis").asInt();
      int64_t rank = static_cast<int64_t>(data->shape.size());
      if (axis < 0) axis += rank;
      if (axis >= 0 && axis < rank) t = tensorType({data->shape[static_cast<size_t>(axis)]}, data->dtype);
    } else if (data && id == OpId::Conv2D && i == 1 && result && data->shape.size() == 4 && result->shape.size() == 4 &&
               attrOrDefault(op, attrs, "data_layout").asString() == "NCHW" &&
               attrOrDefault(op, attrs, "kernel_layout").asString() == "OIHW") {
      auto ints = [&](std::string_view key) {
        std::vector<int64_t> out;
        for (const AttrValue& v : attrOrDefault(op, attrs, key).asArray()) out.push_back(v.asInt());
        return out;
      };
      std::vector<int64_t> strides = ints("strides"), dilation = ints("dilation"), pad = ints("padding");
      if (pad.size() == 2) pad = {pad[0], pad[1], pad[0], pad[1]};
      int64_t groups = attrOrDefault(op, attrs, "groups").asInt();
      // With stride 1 the output size tells the kernel size exactly.
      if (strides == std::vector<int64_t>{1, 1} && dilation.size() == 2 && pad.size() == 4 && groups > 0 &&
          data->shape[1] % groups == 0) {
        int64_t kh = (data->shape[2] + pad[0] + pad[2] - result->shape[2]) / dilation[0] + 1;
        int64_t kw = (data->shape[3] + pad[1] + pad[3] - result->shape[3]) / dilation[1] + 1;
        if (kh > 0 && kw > 0) t = tensorType({result->shape[1], data->shape[1] / groups, kh, kw}, data->dtype);
      }
    }
    const auto* tt = as<TensorTypeNode>(t);
    if (!tt) continue;  // reported after the function if nothing resolves it
    double bytes = std::max(1, tt->dtype.bytes());
    for (int64_t d : tt->shape) bytes *= static_cast<double>(d);
    if (bytes > double(size_t(1) << 30)) failAt(it->second.span, "a metadata constant of more than 1 GiB cannot be made a placeholder");
    if (!metaNoted_) {
      note(it->second.span, "metadata constants load as placeholders (deterministic made-up data of the type their use tells)",
           "placeholder");
      metaNoted_ = true;
    }
    values[i] = makeConstant(NDArray::placeholder(tt->dtype, tt->shape, static_cast<int32_t>(it->second.index)),
                             it->second.span);
    pendingMeta_.erase(it);
  }
}

}  // namespace passlab::tvmscript
