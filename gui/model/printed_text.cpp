#include "gui/model/printed_text.h"

#include <algorithm>

namespace passlab::gui {

LineRange PrintedText::functionRange(const std::string& name) const {
  for (const auto& [fn, range] : functions)
    if (fn == name) return range;
  return {};
}

std::string PrintedText::functionAt(uint32_t line) const {
  // `functions` is sorted by first line: the last one starting at or before `line`.
  auto it = std::upper_bound(functions.begin(), functions.end(), line,
                             [](uint32_t l, const auto& entry) { return l < entry.second.first; });
  if (it == functions.begin()) return {};
  --it;
  return it->second.contains(line) ? it->first : std::string();
}

std::shared_ptr<const PrintedText> printForView(const IRModule& mod, const PrintOptions& options) {
  auto out = std::make_shared<PrintedText>();
  out->module = mod;
  if (!mod) return out;
  PrintOptions named = options;
  named.recordNames = true;
  return viewOfPrinted(mod, printModuleWithRanges(mod, named));
}

std::shared_ptr<const PrintedText> viewOfPrinted(const IRModule& mod, PrintedModule printed) {
  auto out = std::make_shared<PrintedText>();
  out->module = mod;
  out->index = TextIndex(std::move(printed.text));
  out->nodes = std::move(printed.nodes);
  std::vector<std::pair<std::string, uint32_t>> starts(printed.functionLines.begin(), printed.functionLines.end());
  std::sort(starts.begin(), starts.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  const uint32_t lastLine = static_cast<uint32_t>(out->index.lineCount());
  for (size_t i = 0; i < starts.size(); ++i) {
    uint32_t first = starts[i].second;
    uint32_t last = i + 1 < starts.size() ? starts[i + 1].second - 1 : lastLine;
    // Blank separator lines between definitions belong to no function.
    while (last > first && out->index.line(last).find_first_not_of(" \t") == std::string_view::npos) --last;
    out->functions.emplace_back(starts[i].first, LineRange{first, last});
  }
  return out;
}

bool PrintCache::setOptions(const PrintOptions& options) {
  if (options.syntax == options_.syntax && options.spelling == options_.spelling && options.constants == options_.constants &&
      options.numbering == options_.numbering)
    return false;
  options_.syntax = options.syntax;
  options_.spelling = options.spelling;
  options_.constants = options.constants;
  options_.numbering = options.numbering;
  entries_.clear();
  return true;
}

std::shared_ptr<const PrintedText> PrintCache::get(const IRModule& mod) {
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if ((*it)->module == mod) {
      auto hit = *it;
      entries_.erase(it);
      entries_.push_front(hit);
      return hit;
    }
  }
  ++misses_;
  auto printed = printForView(mod, options_);
  entries_.push_front(printed);
  while (entries_.size() > capacity_) entries_.pop_back();
  return printed;
}

}  // namespace passlab::gui
