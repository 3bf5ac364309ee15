// Printed modules for the IR view: the text with its line index, the node →
// text ranges the printer recorded, and the line range of every function.
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ir/module.h"
#include "core/text/printer.h"
#include "gui/model/text_index.h"

namespace passlab::gui {

/// One module printed once, with everything the IR view needs to find lines.
struct PrintedText {
  /// The module printed (kept alive so the node pointers in `nodes` stay valid).
  IRModule module;
  TextIndex index;
  /// Node → text range, from printModuleWithRanges, and bound node or variable
  /// → the name it was printed under (without '%'), so the faces name a node
  /// as this text does (remarks).
  PrintedNodes nodes;
  /// Functions in text order with the lines they span.
  std::vector<std::pair<std::string, LineRange>> functions;

  /// The lines of global function `name` (empty range when absent).
  LineRange functionRange(const std::string& name) const;
  /// The function whose definition contains `line`, or "" (module header/attributes).
  std::string functionAt(uint32_t line) const;
};

/// Prints `mod` with ranges (in the syntax of `options`) and indexes the text.
std::shared_ptr<const PrintedText> printForView(const IRModule& mod, const PrintOptions& options = {});
/// Indexes an already printed `mod` (e.g. an aligned print for a diff).
std::shared_ptr<const PrintedText> viewOfPrinted(const IRModule& mod, PrintedModule printed);

/// A small most-recently-used cache of printed modules keyed by module pointer.
/// Stepping shows the after-module of one event as the before-module of the
/// next, so one step usually prints one module, not two.
class PrintCache {
 public:
  /// A cache holding up to `capacity` modules.
  explicit PrintCache(size_t capacity = 6) : capacity_(capacity) {}
  /// The printed form of `mod` (printed now unless cached).
  std::shared_ptr<const PrintedText> get(const IRModule& mod);
  /// How many modules were printed (not served from the cache) so far.
  size_t misses() const { return misses_; }
  /// Forgets everything (e.g. after loading another model).
  void clear() { entries_.clear(); }
  /// How modules print (the workbench's print syntax, constant style and
  /// session numbering, so the panes' `meta[relay.Constant][N]` are the N of
  /// `show const N`); a change forgets everything and returns true.
  bool setOptions(const PrintOptions& options);
  const PrintOptions& options() const { return options_; }

 private:
  size_t capacity_;
  size_t misses_ = 0;
  PrintOptions options_;
  std::deque<std::shared_ptr<const PrintedText>> entries_;
};

}  // namespace passlab::gui
