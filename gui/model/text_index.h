// Line index over a large printed text. The IR view draws only the lines on
// screen; this index makes "line N" an O(1) lookup so a frame never walks the
// whole text (100k-op modules print to hundreds of thousands of lines).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace passlab::gui {

/// Immutable text plus the byte offset of every line start. Cheap to copy
/// (the text is shared).
class TextIndex {
 public:
  /// An empty text (zero lines).
  TextIndex() = default;
  /// Indexes `text`. Lines are split at '\n'; a final newline does not start an
  /// empty line (as core/trace/diff.h counts lines, so line numbers agree).
  explicit TextIndex(std::string text);
  /// Number of lines.
  size_t lineCount() const { return starts_.size(); }
  /// The text of 1-based line `line` without its newline ("" when out of range).
  std::string_view line(size_t line) const;
  /// Length in bytes of the longest line (to size horizontal scrolling once).
  size_t maxLineLength() const { return maxLength_; }
  /// The whole text.
  const std::string& text() const { return *text_; }
  /// The shared text (the same object for every copy of this index).
  const std::shared_ptr<const std::string>& sharedText() const { return text_; }

 private:
  std::shared_ptr<const std::string> text_ = std::make_shared<const std::string>();
  std::vector<uint32_t> starts_;
  size_t maxLength_ = 0;
};

/// Inclusive 1-based line range; empty when `first` is 0 or `last < first`.
struct LineRange {
  uint32_t first = 0;
  uint32_t last = 0;
  /// True when `line` lies in the range.
  bool contains(uint32_t line) const { return first != 0 && line >= first && line <= last; }
  /// True when the range holds no line.
  bool empty() const { return first == 0 || last < first; }
};

}  // namespace passlab::gui
