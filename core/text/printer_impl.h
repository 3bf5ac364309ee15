// Internals of the printer (internal to core/text).
//
// Every traversal here is iterative (explicit work stacks), so printing a
// 100k-op chain or a deeply nested TIR expression never touches the C++
// stack depth limit.
#pragma once

#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/text/printer.h"

namespace passlab::text {

/// The output buffer: tracks line and column so node ranges can be recorded,
/// and the indentation of the current block.
class TextWriter {
 public:
  /// `namesOnly`: fill PrintedModule::names (and functionLines) but record no ranges.
  explicit TextWriter(PrintedModule* ranges, bool namesOnly = false) : ranges_(ranges), namesOnly_(namesOnly) {}

  std::string& out() { return out_; }
  void text(std::string_view s) { out_.append(s); }
  /// Starts a line at the current indentation.
  void beginLine() { out_.append(static_cast<size_t>(indent_) * 2, ' '); }
  /// Ends the current line.
  void endLine() {
    out_ += '\n';
    ++line_;
    lineStart_ = out_.size();
  }
  void indent(int delta) { indent_ += delta; }
  uint32_t line() const { return line_; }
  uint32_t column() const { return static_cast<uint32_t>(out_.size() - lineStart_) + 1; }

  /// True when node ranges are being recorded.
  bool recording() const { return ranges_ != nullptr && !namesOnly_; }
  /// Marks the start of `node` at the current position (first start wins).
  void rangeStart(const void* node) {
    if (!ranges_ || namesOnly_) return;
    ranges_->nodes.startRange(node, line_, column());
  }
  /// Marks the end of `node` at the last character written.
  void rangeEnd(const void* node) {
    if (!ranges_ || namesOnly_) return;
    ranges_->nodes.endRange(node, line_, column() > 1 ? column() - 1 : 1);
  }
  PrintedModule* ranges() { return ranges_; }
  /// Counts a placeholder constant printed (each distinct reference once).
  void notePlaceholder(int32_t index) { placeholders_.insert(index); }
  size_t placeholders() const { return placeholders_.size(); }
  /// The numbering references take their N from (set by the module printer).
  void setNumbering(ConstantNumbering* numbering) { numbering_ = numbering; }
  /// Writes `meta[relay.Constant][N] /* ty=... */` for `data`, numbering it.
  void appendConstantRef(std::string& out, const NDArray& data);
  /// The N of `data` in this print's numbering (the session's when one was
  /// given), recorded as referenced: what a reference of either syntax prints
  /// (the TVMScript printer's `metadata["relax.expr.Constant"][N]`).
  int32_t constantNumber(const NDArray& data);
  /// The numbers referenced so far, ascending.
  const std::set<int32_t>& referenced() const { return referenced_; }

 private:
  std::unordered_set<int32_t> placeholders_;
  ConstantNumbering* numbering_ = nullptr;
  /// Used when no numbering was set (a lone function or expression).
  std::unique_ptr<ConstantNumbering> ownNumbering_;
  std::set<int32_t> referenced_;
  std::string out_;
  uint32_t line_ = 1;
  size_t lineStart_ = 0;
  int indent_ = 0;
  PrintedModule* ranges_;
  bool namesOnly_ = false;
};

/// Allocates printable, unique names within one function: invalid characters
/// become '_', names starting with a digit get a 'v' prefix (so they can never
/// be confused with %0-style bindings), and a collision gets a _N suffix.
/// Dotted names (%fc.weight, %input.1) are kept, except that a name that is
/// another name plus numeric parts ("t" and "t.0") counts as a collision,
/// since `%t.0` must stay readable as a projection of %t.
class NameTable {
 public:
  /// The name for `key`, allocated from `wanted` on first use.
  const std::string& nameFor(const void* key, std::string_view wanted);
  /// Gives `key` the already allocated `name` (a buffer parameter's variable shares its buffer's name).
  void alias(const void* key, const std::string& name) { names_.emplace(key, name); }

 private:
  /// Looked up by string_view without a temporary string (a print names
  /// every parameter of tens of thousands of functions).
  struct ViewHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  using NameSet = std::unordered_set<std::string, ViewHash, std::equal_to<>>;
  std::unordered_map<const void*, std::string> names_;
  NameSet used_;
  std::unordered_map<std::string, int> nextSuffix_;
  /// P for every used name of the form P.<digits>[.<digits>...].
  NameSet projectionPrefixes_;
  bool taken(std::string_view name) const;
};

/// Where a name is printed; the lexer allows dots differently in each.
enum class NameKind : uint8_t { Local, Global, Identifier };
/// Makes `name` valid after '%' (Local), after '@' (Global) or bare (Identifier).
std::string sanitizeName(std::string_view name, NameKind kind = NameKind::Local);

/// `key=value` form of an attribute (key quoted when it is not a plain identifier).
void appendAttr(std::string& out, const std::string& key, const AttrValue& value);
/// A constant: a literal with suffix for scalars, const(Type, [values]) otherwise.
void appendConstant(std::string& out, const NDArray& data, bool typeComment);
/// `(d0, d1)` shape text as used inside Tensor[...] and Buffer[...].
void appendShape(std::string& out, const std::vector<int64_t>& shape);
/// Appends a decimal integer without a temporary string.
void appendNumber(std::string& out, int64_t value);
/// Appends a type as typeToString writes it (`?` for an unknown type), iteratively
/// and without temporaries; the printer calls it once per binding.
void appendType(std::string& out, const Type& type);

/// Prints graph-level functions and expressions (printer_relay.cpp).
void printGraphFunction(TextWriter& w, const PrintOptions& options, const std::string& name, const Expr& fn);
void printStandaloneExpr(TextWriter& w, const PrintOptions& options, const Expr& e);
/// Prints a module as TVMScript (tvmscript_print.cpp).
void printTvmScriptModule(TextWriter& w, const IRModule& mod, const PrintOptions& options);
/// Prints one function of `mod` as TVMScript, as TVM prints a lone function (header, then the function).
void printTvmScriptFunction(TextWriter& w, const IRModule& mod, const std::string& name, const PrintOptions& options);
/// Prints a PrimFunc (printer_tir.cpp).
void printPrimFunc(TextWriter& w, const std::string& name, const PrimFuncNode& fn);

}  // namespace passlab::text
