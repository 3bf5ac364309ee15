// Naming the nodes a remark points at (core/pass/remark.h) as the printer does,
// so every face shows `%5` for the same node `show` prints as `%5`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/pass/remark.h"
#include "core/text/printer.h"

namespace passlab {

/// One print of a module with node names and text ranges, for looking up the
/// nodes of remarks about that module (an event's `before` snapshot).
class RemarkNodeIndex {
 public:
  /// Prints `mod` with `options` (names and ranges recorded).
  RemarkNodeIndex(const IRModule& mod, PrintOptions options);
  /// "%5" or "%x" as printed; for a node printed without a name, what it is
  /// ("add", "constant", "fn").
  std::string name(const Expr& node) const;
  /// Where the node was printed (line 0 when it was not).
  TextRange range(const Expr& node) const;
  /// True when `node` was printed under `name` (with or without the '%').
  bool named(const Expr& node, std::string_view name) const;
  /// The print itself (text, ranges, names).
  const PrintedModule& printed() const { return printed_; }

 private:
  PrintedModule printed_;
};

/// What a node is, for text that cannot name it: the op of a call ("nn.conv2d"),
/// "constant", "fn", the variable's name.
std::string describeNode(const Expr& node);
/// Appends describeNode(node) to `out` (remark messages are built in one
/// buffer; an op call's name is appended without a temporary).
void appendNodeDescription(std::string& out, const Expr& node);

/// A remark as JSON: {kind, rule, pass, function, [kernel,] message, context, nodes:[{name,
/// line, column}]}; without `index`, nodes are described (describeNode) with no position.
std::string remarkToJson(const Remark& remark, const RemarkNodeIndex* index);

}  // namespace passlab
