#include "gui/model/text_index.h"

#include <algorithm>

namespace passlab::gui {

TextIndex::TextIndex(std::string text) : text_(std::make_shared<const std::string>(std::move(text))) {
  const std::string& t = *text_;
  size_t pos = 0;
  while (pos < t.size()) {
    starts_.push_back(static_cast<uint32_t>(pos));
    size_t nl = t.find('\n', pos);
    size_t end = nl == std::string::npos ? t.size() : nl;
    maxLength_ = std::max(maxLength_, end - pos);
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
}

std::string_view TextIndex::line(size_t line) const {
  if (line == 0 || line > starts_.size()) return {};
  const std::string& t = *text_;
  size_t begin = starts_[line - 1];
  size_t end = line < starts_.size() ? starts_[line] - 1 : t.size();
  // The last line may or may not end in a newline.
  if (end > begin && end <= t.size() && end == t.size() && t[end - 1] == '\n') --end;
  return std::string_view(t).substr(begin, end - begin);
}

}  // namespace passlab::gui
