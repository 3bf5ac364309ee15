// Module layout, the public printing API and the small shared pieces
// (names, attributes, constants). Graph-level functions are printed in
// printer_relay.cpp, PrimFuncs in printer_tir.cpp.
#include "core/text/printer.h"

#include "core/text/lexer.h"
#include "core/text/literal.h"
#include "core/text/printer_impl.h"

namespace passlab {
namespace text {

std::string sanitizeName(std::string_view name) {
  std::string out;
  out.reserve(name.size() + 1);
  for (char c : name) out += isIdentChar(c) ? c : '_';
  if (out.empty() || (out[0] >= '0' && out[0] <= '9')) out.insert(out.begin(), 'v');
  return out;
}

const std::string& NameTable::nameFor(const void* key, std::string_view wanted) {
  auto it = names_.find(key);
  if (it != names_.end()) return it->second;
  std::string base = sanitizeName(wanted);
  std::string candidate = base;
  if (used_.count(candidate)) {
    int& next = nextSuffix_[base];
    if (next == 0) next = 1;
    do {
      candidate = base + "_" + std::to_string(next++);
    } while (used_.count(candidate));
  }
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

void appendShape(std::string& out, const std::vector<int64_t>& shape) {
  out += '(';
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out += ", ";
    out += shape[i] == kDynamicDim ? "?" : std::to_string(shape[i]);
  }
  out += ')';
}

void appendConstant(std::string& out, const NDArray& data, bool typeComment) {
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
  out += typeToString(tensorType(data.shape(), data.dtype()));
  out += ", [";
  int64_t n = data.defined() ? data.numElements() : 0;
  for (int64_t i = 0; i < n; ++i) {
    if (i) out += ", ";
    appendElement(out, data, i);
  }
  out += "])";
}

static void printModuleInto(TextWriter& w, const IRModule& mod, const PrintOptions& options) {
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

std::string printFunction(const IRModule& mod, const std::string& name, const PrintOptions& options) {
  Expr fn = mod->lookup(name);
  if (!fn) return "";
  text::TextWriter w(nullptr);
  if (auto* prim = as<PrimFuncNode>(fn))
    text::printPrimFunc(w, name, *prim);
  else
    text::printGraphFunction(w, options, name, fn);
  return std::move(w.out());
}

std::string printExpr(const Expr& e, const PrintOptions& options) {
  text::TextWriter w(nullptr);
  if (e) text::printStandaloneExpr(w, options, e);
  return std::move(w.out());
}

}  // namespace passlab
