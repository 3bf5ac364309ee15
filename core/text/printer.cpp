// Module layout, the public printing API and the small shared pieces
// (names, attributes, constants). Graph-level functions are printed in
// printer_relay.cpp, PrimFuncs in printer_tir.cpp.
#include "core/text/printer.h"

#include <charconv>

#include "core/ir/functor.h"
#include "core/text/lexer.h"
#include "core/text/literal.h"
#include "core/text/metadata.h"
#include "core/text/metadata_graph.h"
#include "core/text/printer_impl.h"

namespace passlab {
namespace text {

std::string sanitizeName(std::string_view name, NameKind kind) {
  std::string out;
  out.reserve(name.size() + 1);
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    // Non-ASCII letters (UTF-8) print as they are, as the lexer reads them.
    if (size_t n = utf8LetterLength(name, i)) {
      out.append(name.substr(i, n));
      i += n - 1;
      continue;
    }
    // Where the lexer keeps a dot: locals between identifier characters,
    // op/intrinsic names before a letter, globals never.
    bool keepDot = false;
    if (c == '.' && i > 0 && i + 1 < name.size() && (isIdentChar(name[i - 1]) || static_cast<unsigned char>(name[i - 1]) >= 0x80)) {
      if (kind == NameKind::Local) keepDot = identCharLength(name, i + 1) > 0;
      if (kind == NameKind::Identifier) keepDot = identStartLength(name, i + 1) > 0;
    }
    out += isIdentChar(c) || keepDot ? c : '_';
  }
  if (out.empty() || (out[0] >= '0' && out[0] <= '9')) out.insert(out.begin(), 'v');
  return out;
}

/// Calls f(prefix) for every prefix P of `name` such that name is P.<digits>[.<digits>...].
template <class F>
static void forEachProjectionPrefix(std::string_view name, F&& f) {
  for (size_t dot = name.rfind('.'); dot != std::string_view::npos && dot > 0; dot = name.rfind('.', dot - 1)) {
    std::string_view rest = name.substr(dot + 1);
    bool numeric = !rest.empty() && rest[0] != '.';
    for (char c : rest) numeric = numeric && ((c >= '0' && c <= '9') || c == '.');
    if (!numeric) return;
    f(name.substr(0, dot));
  }
}

bool NameTable::taken(std::string_view name) const {
  if (used_.find(name) != used_.end() || projectionPrefixes_.find(name) != projectionPrefixes_.end()) return true;
  bool clash = false;
  forEachProjectionPrefix(name, [&](std::string_view prefix) { clash = clash || used_.find(prefix) != used_.end(); });
  return clash;
}

const std::string& NameTable::nameFor(const void* key, std::string_view wanted) {
  auto it = names_.find(key);
  if (it != names_.end()) return it->second;
  std::string base = sanitizeName(wanted);
  std::string candidate = base;
  if (taken(candidate)) {
    int& next = nextSuffix_[base];
    if (next == 0) next = 1;
    do {
      candidate = base + "_" + std::to_string(next++);
    } while (taken(candidate));
  }
  forEachProjectionPrefix(candidate, [&](std::string_view prefix) {
    if (projectionPrefixes_.find(prefix) == projectionPrefixes_.end()) projectionPrefixes_.emplace(prefix);
  });
  used_.insert(candidate);
  return names_.emplace(key, std::move(candidate)).first->second;
}

void appendAttr(std::string& out, const std::string& key, const AttrValue& value) {
  if (isPlainIdentifier(key))
    out += key;
  else
    out += AttrValue::string(key).toString();
  out += '=';
  out += value.toString();
}

void appendNumber(std::string& out, int64_t value) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, value);
  out.append(buf, r.ptr);
}

void appendShape(std::string& out, const std::vector<int64_t>& shape) {
  out += '(';
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out += ", ";
    if (shape[i] == kDynamicDim)
      out += '?';
    else
      appendNumber(out, shape[i]);
  }
  out += ')';
}

static void appendTensorType(std::string& out, const TensorTypeNode& t) {
  if (t.shape.empty()) {
    out += t.dtype.name();
    return;
  }
  out += "Tensor[";
  appendShape(out, t.shape);
  out += ", ";
  out += t.dtype.name();
  out += ']';
}

void appendType(std::string& out, const Type& type) {
  if (auto* t = as<TensorTypeNode>(type)) return appendTensorType(out, *t);
  // Tuple and function types: an explicit stack of types and text pieces.
  struct Work {
    const TypeNode* type;
    const char* text;
  };
  std::vector<Work> stack{{type.get(), nullptr}};
  while (!stack.empty()) {
    Work w = stack.back();
    stack.pop_back();
    if (w.text) {
      out += w.text;
      continue;
    }
    if (!w.type) {
      out += '?';
      continue;
    }
    switch (w.type->kind) {
      case TypeKind::Tensor: appendTensorType(out, *static_cast<const TensorTypeNode*>(w.type)); break;
      case TypeKind::Storage: out += "Storage"; break;
      // Relax-only types: Relay text has no spelling; printed as a name the Relay reader refuses.
      case TypeKind::Shape:
      case TypeKind::Object:
      case TypeKind::Prim: out += typeToString(Type(std::shared_ptr<const TypeNode>(), w.type)); break;
      case TypeKind::Tuple: {
        auto* t = static_cast<const TupleTypeNode*>(w.type);
        out += '(';
        stack.push_back({nullptr, t->fields.size() == 1 ? ",)" : ")"});
        for (size_t i = t->fields.size(); i-- > 0;) {
          stack.push_back({t->fields[i].get(), nullptr});
          if (i) stack.push_back({nullptr, ", "});
        }
        break;
      }
      case TypeKind::Func: {
        auto* t = static_cast<const FuncTypeNode*>(w.type);
        out += "fn (";
        stack.push_back({t->ret.get(), nullptr});
        stack.push_back({nullptr, ") -> "});
        for (size_t i = t->params.size(); i-- > 0;) {
          stack.push_back({t->params[i].get(), nullptr});
          if (i) stack.push_back({nullptr, ", "});
        }
        break;
      }
    }
  }
}

void appendConstant(std::string& out, const NDArray& data, bool typeComment) {
  if (data.isPlaceholder()) {
    // As it came in: the reference and its type, which parsing needs to remake it.
    out += "meta[relay.Constant][";
    appendNumber(out, data.placeholderIndex());
    out += "] /* ty=";
    appendType(out, tensorType(data.shape(), data.dtype()));
    out += " */";
    return;
  }
  if (data.ndim() == 0 && data.defined()) {
    size_t mark = out.size();
    if (appendScalarLiteral(out, data)) {
      if (typeComment) {
        out += " /* ty=";
        out += data.dtype().name();
        out += " */";
      }
      return;
    }
    out.resize(mark);
  }
  out += "const(";
  appendType(out, tensorType(data.shape(), data.dtype()));
  out += ", [";
  int64_t n = data.defined() ? data.numElements() : 0;
  for (int64_t i = 0; i < n; ++i) {
    if (i) out += ", ";
    appendElement(out, data, i);
  }
  out += "])";
}

int32_t TextWriter::constantNumber(const NDArray& data) {
  if (!numbering_) {
    ownNumbering_ = std::make_unique<ConstantNumbering>();
    numbering_ = ownNumbering_.get();
  }
  int32_t n = numbering_->numberOf(data);
  referenced_.insert(n);
  return n;
}

void TextWriter::appendConstantRef(std::string& out, const NDArray& data) {
  int32_t n = constantNumber(data);
  out += "meta[relay.Constant][";
  appendNumber(out, n);
  // Always typed, as TVM prints it: without a section the type is what a parser remakes it from.
  out += "] /* ty=";
  appendType(out, tensorType(data.shape(), data.dtype()));
  out += " */";
}

/// The placeholder indices in the graph-level functions of `mod`.
static std::set<int32_t> placeholderIndices(const IRModule& mod) {
  std::set<int32_t> indices;
  for (const auto& [name, fn] : mod->functions) {
    if (!as<FunctionNode>(fn)) continue;
    postOrderVisit(fn, [&](const Expr& e) {
      if (const auto* c = as<ConstantNode>(e); c && c->data.isPlaceholder()) indices.insert(c->data.placeholderIndex());
    });
  }
  return indices;
}

static void printModuleInto(TextWriter& w, const IRModule& mod, const PrintOptions& given) {
  PrintOptions options = given;
  // A file numbers its own constants densely (its section is indexed by N);
  // placeholder numbers are kept free so the two kinds of reference never clash.
  ConstantNumbering local;
  std::set<int32_t> placeholders;
  // TVMScript prints every tensor constant by reference, whatever the style.
  if (options.constants == ConstantStyle::Ref || options.syntax == TextSyntax::TVMScript)
    placeholders = placeholderIndices(mod);
  if (options.metadataSection) {
    options.numbering = nullptr;
    if (!placeholders.empty()) options.constants = ConstantStyle::Inline;
  }
  ConstantNumbering* numbering = options.numbering ? options.numbering : &local;
  for (int32_t index : placeholders) numbering->reserve(index);
  w.setNumbering(numbering);
  // TVMScript follows the same rule (core/text/constant_refs.h) in its own printer.
  if (options.syntax == TextSyntax::TVMScript) {
    if (!options.metadataSection) {
      printTvmScriptModule(w, mod, options);
      return;
    }
    // TVM's show_meta=True: the metadata statement comes before the module,
    // and its table is known only once the module has been printed.
    TextWriter body(nullptr);
    body.setNumbering(numbering);
    printTvmScriptModule(body, mod, options);
    if (!body.referenced().empty()) {
      std::vector<NDArray> arrays = local.arrays();
      // Placeholders keep their numbers: the table reaches them too (None entries).
      int32_t last = *body.referenced().rbegin();
      if (!placeholders.empty()) last = std::max(last, *placeholders.rbegin());
      std::vector<NDArray> entries(static_cast<size_t>(last) + 1);
      for (int32_t n : body.referenced())
        if (static_cast<size_t>(n) < arrays.size() && !placeholders.count(n)) entries[static_cast<size_t>(n)] = arrays[static_cast<size_t>(n)];
      w.text(scriptMetadataStatement(entries));
    }
    w.text(body.out());
    return;
  }
  if (options.versionHeader) {
    w.text("#[version = \"0.0.5\"]");
    w.endLine();
  }
  for (const auto& [key, value] : mod->attrs.entries()) {
    std::string line = "#[";
    // A bare `version` key is the format header, so a module attribute of that name is quoted.
    if (isPlainIdentifier(key) && key != "version")
      line += key;
    else
      line += AttrValue::string(key).toString();
    line += " = ";
    line += value.toString();
    line += ']';
    w.text(line);
    w.endLine();
  }
  bool first = true;
  for (const auto& [name, fn] : mod->functions) {
    if (!first) w.endLine();
    first = false;
    if (w.ranges()) w.ranges()->functionLines[name] = w.line();
    if (auto* prim = as<PrimFuncNode>(fn))
      printPrimFunc(w, name, *prim);
    else
      printGraphFunction(w, options, name, fn);
  }
  if (w.placeholders() > 0) {
    // Where TVM says it omitted the metadata section: these constants have none.
    w.endLine();
    w.text("/* " + std::to_string(w.placeholders()) + " placeholder constant" + (w.placeholders() == 1 ? "" : "s") +
           ": meta[relay.Constant][N] without a #[metadata] section; their data is made up. */");
    w.endLine();
  }
  if (options.metadataSection && !w.referenced().empty()) {
    // The local numbering is dense and in print order, so the section is exactly the referenced constants.
    std::vector<NDArray> arrays = local.arrays();
    w.endLine();
    w.text("#[metadata]");
    w.endLine();
    w.text(encodeTvmMetadata(arrays));
  }
}

}  // namespace text

std::string printModule(const IRModule& mod, const PrintOptions& options) {
  text::TextWriter w(nullptr);
  text::printModuleInto(w, mod, options);
  return std::move(w.out());
}

PrintedModule printModuleWithRanges(const IRModule& mod, const PrintOptions& options) {
  PrintedModule result;
  text::TextWriter w(&result);
  text::printModuleInto(w, mod, options);
  result.text = std::move(w.out());
  return result;
}

PrintedModule printModuleWithNames(const IRModule& mod, const PrintOptions& options) {
  PrintedModule result;
  text::TextWriter w(&result, true);
  PrintOptions named = options;
  named.recordNames = true;
  text::printModuleInto(w, mod, named);
  result.text = std::move(w.out());
  return result;
}

std::string printFunction(const IRModule& mod, const std::string& name, const PrintOptions& options) {
  Expr fn = mod->lookup(name);
  if (!fn) return "";
  text::TextWriter w(nullptr);
  w.setNumbering(options.numbering);
  if (options.syntax == TextSyntax::TVMScript) {
    text::printTvmScriptFunction(w, mod, name, options);
    return std::move(w.out());
  }
  if (auto* prim = as<PrimFuncNode>(fn))
    text::printPrimFunc(w, name, *prim);
  else
    text::printGraphFunction(w, options, name, fn);
  return std::move(w.out());
}

std::string printExpr(const Expr& e, const PrintOptions& options) {
  text::TextWriter w(nullptr);
  w.setNumbering(options.numbering);
  if (e) text::printStandaloneExpr(w, options, e);
  return std::move(w.out());
}

}  // namespace passlab
