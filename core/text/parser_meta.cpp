// TVM's metadata: `meta[relay.Constant][N]` references, their `/* ty=... */`
// comments, the `#[metadata]` section, and placeholders for the constants
// whose data the text does not carry (TVM omits the section by default).
//
// A reference becomes, in order of preference: the section's constant N; a
// placeholder of the type its comment gives; or, when there is no comment, a
// stand-in variable that resolveDeferredPlaceholders replaces by a placeholder
// of the type its use determines (the weight of a conv2d from the data and the
// channels/kernel_size attributes, and so on) once the rest is type-checked.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "core/analysis/type_infer.h"
#include "core/ir/functor.h"
#include "core/text/literal.h"
#include "core/text/parser_impl.h"

namespace passlab::text {

namespace {

/// Placeholder data of all references together may not exceed this.
constexpr size_t kMaxPlaceholderBytes = size_t(1) << 30;

const char* kHowToSupplyData =
    "to use the real weights, print the module in TVM with mod.astext(show_meta_data=True) and load that text "
    "(passlab reads its #[metadata] section), or write the constants inline as const(...)";

std::string metaName(int64_t index) { return "meta[relay.Constant][" + std::to_string(index) + "]"; }

/// An attribute of a canonical op call (defaults are stored absent).
const AttrValue* attrOf(const CallNode& call, std::string_view key) { return call.attrs.find(key); }

std::string stringAttr(const CallNode& call, std::string_view key, std::string fallback) {
  const AttrValue* v = attrOf(call, key);
  return v && v->kind() == AttrValue::Kind::String && !v->asString().empty() ? v->asString() : fallback;
}

int64_t intAttr(const CallNode& call, std::string_view key, int64_t fallback) {
  const AttrValue* v = attrOf(call, key);
  return v && v->kind() == AttrValue::Kind::Int ? v->asInt() : fallback;
}

const TensorTypeNode* staticTensor(const Type& t) {
  const auto* tensor = as<TensorTypeNode>(t);
  if (!tensor) return nullptr;
  for (int64_t d : tensor->shape)
    if (d < 0) return nullptr;
  return tensor;
}

/// The type argument `index` of `call` must have, as far as the op and the
/// other arguments determine it (TVM's type relations solved backwards for the
/// arguments that carry weights). Null when the use does not determine it.
Type argumentTypeFromUse(const CallNode& call, size_t index, const std::function<Type(const Expr&)>& typeOf) {
  const OpDef* op = call.op();
  if (!op) {
    // A call of a function: its declared parameter type.
    const auto* fn = as<FuncTypeNode>(typeOf(call.callee));
    if (fn && index < fn->params.size()) return fn->params[index];
    return nullptr;
  }
  if (call.args.empty()) return nullptr;
  Type dataType = typeOf(call.args[0]);  // owns what data points to
  const TensorTypeNode* data = staticTensor(dataType);
  if (!data || index == 0) return nullptr;
  auto channelAt = [&](int64_t axis) -> Type {
    int64_t rank = static_cast<int64_t>(data->shape.size());
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= rank) return nullptr;
    return tensorType({data->shape[static_cast<size_t>(axis)]}, data->dtype);
  };
  switch (op->id) {
    case OpId::Conv2D: {
      if (index != 1 || data->shape.size() != 4) return nullptr;
      const AttrValue* channels = attrOf(call, "channels");
      const AttrValue* kernel = attrOf(call, "kernel_size");
      if (!channels || channels->kind() != AttrValue::Kind::Int || !kernel || kernel->kind() != AttrValue::Kind::Array ||
          kernel->asArray().size() != 2)
        return nullptr;
      std::string dataLayout = stringAttr(call, "data_layout", "NCHW");
      std::string kernelLayout = stringAttr(call, "kernel_layout", "OIHW");
      size_t c = dataLayout.find('C');
      int64_t groups = intAttr(call, "groups", 1);
      if (dataLayout.size() != 4 || c == std::string::npos || groups <= 0 || data->shape[c] % groups) return nullptr;
      int64_t in = data->shape[c] / groups;
      int64_t dims[4];
      for (size_t i = 0; i < 4 && i < kernelLayout.size(); ++i) {
        switch (kernelLayout[i]) {
          case 'O': dims[i] = channels->asInt(); break;
          case 'I': dims[i] = in; break;
          case 'H': dims[i] = kernel->asArray()[0].asInt(); break;
          case 'W': dims[i] = kernel->asArray()[1].asInt(); break;
          default: return nullptr;
        }
      }
      if (kernelLayout.size() != 4) return nullptr;
      return tensorType({dims[0], dims[1], dims[2], dims[3]}, data->dtype);
    }
    case OpId::Dense: {
      const AttrValue* units = attrOf(call, "units");
      if (index != 1 || data->shape.empty() || !units || units->kind() != AttrValue::Kind::Int) return nullptr;
      return tensorType({units->asInt(), data->shape.back()}, data->dtype);
    }
    case OpId::BiasAdd: return index == 1 ? channelAt(intAttr(call, "axis", 1)) : nullptr;
    case OpId::BatchNorm: return index <= 4 ? channelAt(intAttr(call, "axis", 1)) : nullptr;
    case OpId::LayerNorm: return index <= 2 ? channelAt(intAttr(call, "axis", -1)) : nullptr;
    default: return nullptr;
  }
}

}  // namespace

Span Parser::spanAtOffset(size_t offset) const {
  const auto& starts = file_->lineStarts;
  auto it = std::upper_bound(starts.begin(), starts.end(), static_cast<uint32_t>(offset));
  uint32_t line = static_cast<uint32_t>(it - starts.begin());
  Span s;
  s.file = file_;
  s.line = std::max<uint32_t>(line, 1);
  s.column = static_cast<uint32_t>(offset - (line ? starts[line - 1] : 0)) + 1;
  s.endLine = s.line;
  s.endColumn = s.column;
  return s;
}

void Parser::loadMetadataSection() {
  metadataOffset_ = findMetadataSection(file_->text);
  if (metadataOffset_ == std::string::npos) return;
  // The section is JSON, not Relay: the lexer never sees it.
  lexer_ = Lexer(std::string_view(file_->text).substr(0, metadataOffset_));
  lookaheadCount_ = 0;
  size_t json = file_->text.find('{', metadataOffset_);
  try {
    metadata_ = decodeTvmMetadata(std::string_view(file_->text).substr(json));
  } catch (const MetadataError& e) {
    report(spanAtOffset(json + e.offset()), std::string("cannot read TVM's #[metadata] section: ") + e.what(), "parse.metadata");
  }
}

Type Parser::readTypeComment() {
  if (lookaheadCount_ != 0) return nullptr;
  const std::string& text = file_->text;
  size_t p = lastTaken_.offset + lastTaken_.text.size();
  size_t limit = metadataOffset_ == std::string::npos ? text.size() : metadataOffset_;
  while (p < limit && (text[p] == ' ' || text[p] == '\t')) ++p;
  if (p + 1 >= limit || text[p] != '/' || text[p + 1] != '*') return nullptr;
  size_t close = text.find("*/", p + 2);
  if (close == std::string::npos || close >= limit) return nullptr;  // the lexer reports it
  // TVM writes `/* ty=T span=... */`: `ty=` as a word of the comment.
  size_t ty = p + 2;
  while ((ty = text.find("ty=", ty)) != std::string::npos && ty < close && text[ty - 1] != ' ' && text[ty - 1] != '*' &&
         text[ty - 1] != '\t')
    ty += 3;
  if (ty == std::string::npos || ty >= close) return nullptr;
  // Positions inside the comment: it is on the line of the reference unless it wraps.
  auto tokenAt = [&](size_t offset, Tok prev) {
    Span s = spanAtOffset(offset);
    Token t;
    t.kind = Tok::End;
    t.prev = prev;
    t.offset = static_cast<uint32_t>(offset);
    t.line = s.line;
    t.column = s.column;
    return t;
  };
  lexer_.resetTo(tokenAt(ty + 3, Tok::Equal));
  lookaheadCount_ = 0;
  Token typeStart = peek();
  Type type = parseType();
  // Whatever else the comment holds (span=...) is skipped with it.
  lexer_.resetTo(tokenAt(close + 2, Tok::RBracket));
  lookaheadCount_ = 0;
  if (!type) fail(typeStart, "the /* ty=... */ comment of a meta reference needs a complete type");
  return type;
}

Parser::MetaHead Parser::parseMetaHead() {
  MetaHead head;
  head.meta = take();
  expect(Tok::LBracket, "'[' after meta");
  head.kind = expect(Tok::Ident, "a metadata kind such as relay.Constant or VirtualDevice");
  expect(Tok::RBracket, "']'");
  expect(Tok::LBracket, "'['");
  Token indexToken = expect(Tok::Int, "a metadata index");
  expect(Tok::RBracket, "']'");
  if (parseIntValue(indexToken.text, false, DTypeCode::Int32, &head.index) != LiteralStatus::Ok || head.index < 0)
    fail(indexToken, "bad metadata index " + describe(indexToken));
  return head;
}

Expr Parser::parseMetaReference() {
  MetaHead head = parseMetaHead();
  const Token& kind = head.kind;
  int64_t index = head.index;
  Span span = spanFrom(head.meta);
  Type commented = readTypeComment();
  if (kind.text != "relay.Constant") {
    report(span, "not supported: meta[" + std::string(kind.text) + "][" + std::to_string(index) +
                     "]: passlab reads only constants (relay.Constant) from TVM's metadata; write this value in the "
                     "text instead",
           "parse.meta");
    return nullptr;
  }
  auto found = metaRefs_.find(index);
  if (found != metaRefs_.end()) {
    const MetaRef& ref = found->second;
    if (commented && ref.value && ref.value->kind == ExprKind::Constant) {
      const NDArray& data = as<ConstantNode>(ref.value)->data;
      Type known = tensorType(data.shape(), data.dtype());
      if (typeToString(known) != typeToString(commented))
        report(span, metaName(index) + " is given type " + typeToString(commented) + " here but " + typeToString(known) +
                         " at line " + std::to_string(ref.span.line), "parse.meta");
    }
    return ref.value;
  }
  MetaRef ref;
  ref.span = span;
  if (metadata_) {
    if (static_cast<size_t>(index) >= metadata_->constants.size()) {
      report(span, metaName(index) + " is not in the #[metadata] section, which holds " +
                       std::to_string(metadata_->constants.size()) + " constant" +
                       (metadata_->constants.size() == 1 ? "" : "s"), "parse.meta");
      return nullptr;
    }
    const NDArray& data = metadata_->constants[static_cast<size_t>(index)];
    if (commented && typeToString(commented) != typeToString(tensorType(data.shape(), data.dtype()))) {
      report(span, metaName(index) + " is annotated " + typeToString(commented) + " but the #[metadata] section holds a " +
                       typeToString(tensorType(data.shape(), data.dtype())), "parse.meta");
      return nullptr;
    }
    ref.value = makeConstant(data, span);
  } else if (commented) {
    const auto* tensor = as<TensorTypeNode>(commented);
    if (!tensor) {
      report(span, metaName(index) + ": a constant's type must be a tensor type, got " + typeToString(commented), "parse.meta");
      return nullptr;
    }
    size_t bytes = tensor->dtype.bytes();
    for (int64_t d : tensor->shape) {
      if (d < 0) {
        report(span, metaName(index) + ": a placeholder needs a static shape, got " + typeToString(commented), "parse.meta");
        return nullptr;
      }
      if (d != 0 && bytes > kMaxPlaceholderBytes / static_cast<size_t>(d)) bytes = kMaxPlaceholderBytes + 1;
      else bytes *= static_cast<size_t>(d);
    }
    size_t total = bytes;
    for (const auto& [i, r] : metaRefs_)
      if (const auto* c = as<ConstantNode>(r.value)) total += c->data.byteSize();
    if (bytes > kMaxPlaceholderBytes || total > kMaxPlaceholderBytes) {
      report(span, metaName(index) + ": placeholders of " + typeToString(commented) + " would exceed " +
                       std::to_string(kMaxPlaceholderBytes >> 20) + " MiB of made-up data; " + kHowToSupplyData, "parse.meta");
      return nullptr;
    }
    ref.value = makeConstant(NDArray::placeholder(tensor->dtype, tensor->shape, static_cast<int32_t>(index)), span);
  } else {
    ref.value = makeVar(metaName(index), nullptr, false, span);
    ref.deferred = true;
  }
  return metaRefs_.emplace(index, std::move(ref)).first->second.value;
}

void Parser::resolveDeferredPlaceholders() {
  std::unordered_map<const ExprNode*, int64_t> pending;
  for (const auto& [index, ref] : metaRefs_)
    if (ref.deferred) pending.emplace(ref.value.get(), index);
  if (pending.empty()) return;
  // Each round types what it can, gives every stand-in whose use determines its
  // type a placeholder, and substitutes them; a placeholder can open the way
  // for the next (conv2d(conv2d(%x, meta0), meta1)).
  while (!pending.empty()) {
    IRModule mod = makeModule(functions_, moduleAttrs_);
    checkTypes(mod);
    std::unordered_map<const ExprNode*, Expr> replacement;
    auto typeOf = [&mod](const Expr& e) -> Type {
      if (const auto* gv = as<GlobalVarNode>(e)) {
        Expr fn = mod->lookup(gv->name);
        return fn ? fn->checkedType : nullptr;
      }
      return e ? e->checkedType : nullptr;
    };
    for (const auto& [name, fn] : functions_) {
      postOrderVisit(fn, [&](const Expr& e) {
        const auto* call = as<CallNode>(e);
        if (!call) return;
        for (size_t i = 0; i < call->args.size(); ++i) {
          auto it = pending.find(call->args[i].get());
          if (it == pending.end() || replacement.count(it->first)) continue;
          Type type = argumentTypeFromUse(*call, i, typeOf);  // owns what t points to
          const TensorTypeNode* t = staticTensor(type);
          if (!t) continue;
          MetaRef& ref = metaRefs_[it->second];
          replacement[it->first] =
              makeConstant(NDArray::placeholder(t->dtype, t->shape, static_cast<int32_t>(it->second)), ref.span);
        }
      });
    }
    if (replacement.empty()) break;
    struct Substitute : ExprMutator {
      const std::unordered_map<const ExprNode*, Expr>* map;
      std::optional<Expr> preVisit(const Expr& e) override {
        auto it = map->find(e.get());
        if (it == map->end()) return std::nullopt;
        return it->second;
      }
    } substitute;
    substitute.map = &replacement;
    for (auto& [name, fn] : functions_) fn = substitute.mutate(fn);
    for (const auto& [node, constant] : replacement) {
      MetaRef& ref = metaRefs_[pending[node]];
      ref.value = constant;
      ref.deferred = false;
      pending.erase(node);
    }
  }
  for (const auto& [node, index] : pending)
    report(metaRefs_[index].span,
           "cannot tell the type of " + metaName(index) +
               ": no /* ty=... */ comment follows it, the text has no #[metadata] section, and its use does not "
               "determine it; write it as " + metaName(index) + " /* ty=Tensor[(...), dtype] */",
           "parse.meta-type");
}

void Parser::notePlaceholders(std::vector<Diagnostic>& notes) const {
  std::vector<int64_t> indices;
  for (const auto& [index, ref] : metaRefs_)
    if (const auto* c = as<ConstantNode>(ref.value); c && c->data.isPlaceholder()) indices.push_back(index);
  if (indices.empty()) return;
  Diagnostic d;
  d.severity = Severity::Warning;
  d.rule = "load.placeholder";
  d.span = metaRefs_.at(indices.front()).span;
  std::string list;
  for (size_t i = 0; i < indices.size() && i < 8; ++i) list += (i ? ", " : "") + std::to_string(indices[i]);
  if (indices.size() > 8) list += ", ...";
  d.message = std::to_string(indices.size()) + " constant" + (indices.size() == 1 ? " is a placeholder" : "s are placeholders") +
              " (meta[relay.Constant][" + list + "]): the text has no #[metadata] section, so their data is made up "
              "(deterministic) and numbers computed from them are labelled as such; " + kHowToSupplyData;
  notes.push_back(std::move(d));
}

void Parser::parseExpressionModule(std::vector<Diagnostic>* notes) {
  exprMode_ = true;
  Token start = rawPeek();
  Expr body;
  ScopeGuard guard(*this);
  pushScope();
  try {
    body = parseBlockBody(Tok::End, start);
  } catch (const ParseAbort&) {
  }
  if (!body) return;
  std::vector<Var> params;
  for (const Var& v : freeVarsInOrder_) params.push_back(v);
  Function main;
  std::string how;
  if (params.empty() && body->kind == ExprKind::Function) {
    main = std::static_pointer_cast<const FunctionNode>(body);
    how = "the function literal is @main";
  } else {
    main = makeFunction(params, body, nullptr, {}, spanFrom(start));
    how = "@main takes its free variables as parameters";
    if (!params.empty()) {
      how += " (";
      for (size_t i = 0; i < params.size(); ++i) how += (i ? ", %" : "%") + params[i]->name;
      how += ")";
    }
  }
  functions_["main"] = main;
  functionLines_["main"] = start.line;
  if (notes) {
    Diagnostic d;
    d.severity = Severity::Note;
    d.rule = "load.expression";
    d.span = spanAt(start);
    d.message = "the text is an expression (no 'def'), as TVM prints one; loaded as a module: " + how;
    notes->push_back(std::move(d));
  }
}

}  // namespace passlab::text
