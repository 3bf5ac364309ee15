#include "core/trace/change_index.h"

#include <algorithm>

namespace passlab {

ChangeIndex::ChangeIndex(size_t matchingsKept) : matchingsKept_(std::max<size_t>(matchingsKept, 1)) {}

std::shared_ptr<const ModuleEdits> ChangeIndex::edits(const IRModule& before, const IRModule& after) const {
  for (size_t i = 0; i < matchings_.size(); ++i) {
    if (matchings_[i].before == before && matchings_[i].after == after) {
      std::rotate(matchings_.begin(), matchings_.begin() + static_cast<long>(i), matchings_.begin() + static_cast<long>(i) + 1);
      return matchings_.front().edits;
    }
  }
  auto result = matchModules(before, after);
  matchings_.insert(matchings_.begin(), Matching{before, after, result});
  if (matchings_.size() > matchingsKept_) matchings_.pop_back();
  return result;
}

std::shared_ptr<const ModuleEdits> ChangeIndex::allEdits(const IRModule& before, const IRModule& after) const {
  MatchOptions options;
  options.keepAll = true;
  return matchModules(before, after, options);
}

std::string ChangeIndex::summary(const IRModule& before, const IRModule& after) const {
  auto key = std::make_pair(before.get(), after.get());
  auto it = summaries_.find(key);
  if (it != summaries_.end()) return it->second.line;
  std::shared_ptr<const ModuleEdits> matching;
  for (const Matching& m : matchings_)
    if (m.before == before && m.after == after) matching = m.edits;
  if (!matching) matching = matchModules(before, after);
  std::string line = changeSummary(*matching);
  summaries_.emplace(key, Summary{before, after, line});
  return line;
}

void ChangeIndex::clear() {
  matchings_.clear();
  summaries_.clear();
}

}  // namespace passlab
