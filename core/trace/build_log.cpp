// The builds of a session (see build_log.h).
#include "core/trace/build_log.h"

#include <algorithm>

namespace passlab {

void BuildLog::addBuild(int build, int builtFrom, std::string summary) {
  Entry& e = entries_[build];
  e.build = build;
  e.builtFrom = builtFrom;
  e.artifacts.push_back({"", std::move(summary)});
  builds_.push_back(build);
}

void BuildLog::addStage(int build, int stage, std::string name, std::vector<CodegenArtifact> artifacts) {
  Entry& e = entries_[stage];
  e.build = build;
  e.stage = std::move(name);
  e.artifacts = std::move(artifacts);
}

bool BuildLog::isBuild(int event) const {
  auto it = entries_.find(event);
  return it != entries_.end() && it->second.build == event;
}

int BuildLog::buildOf(int event) const {
  auto it = entries_.find(event);
  return it == entries_.end() ? -1 : it->second.build;
}

int BuildLog::builtFrom(int event) const {
  const int build = buildOf(event);
  return build < 0 ? event : entries_.at(build).builtFrom;
}

int BuildLog::stage(int build, std::string_view name) const {
  // Stage ids follow their build's in the trace (they are its children), so
  // the build's stages are the entries right after it.
  for (auto it = entries_.upper_bound(build); it != entries_.end() && it->second.build == build; ++it)
    if (it->second.stage == name) return it->first;
  return -1;
}

int BuildLog::current(int cursor) const {
  const int own = buildOf(cursor);
  return own >= 0 ? own : latest();
}

std::vector<int> BuildLog::buildsFrom(int event) const {
  std::vector<int> out;
  for (int build : builds_)
    if (entries_.at(build).builtFrom == event) out.push_back(build);
  return out;
}

const std::vector<CodegenArtifact>& BuildLog::artifacts(int event) const {
  static const std::vector<CodegenArtifact> kNone;
  auto it = entries_.find(event);
  return it == entries_.end() ? kNone : it->second.artifacts;
}

void BuildLog::truncate(int firstRemoved) {
  entries_.erase(entries_.lower_bound(firstRemoved), entries_.end());
  std::erase_if(builds_, [&](int build) { return build >= firstRemoved; });
}

void BuildLog::clear() {
  entries_.clear();
  builds_.clear();
}

}  // namespace passlab
