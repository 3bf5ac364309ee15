// The node matcher (see node_match.h). Skeleton: every node of a changed
// function is reported as deleted/inserted until the phases land.
#include "core/trace/node_match.h"

namespace passlab {

const char* editKindName(EditKind k) {
  switch (k) {
    case EditKind::Kept: return "kept";
    case EditKind::Updated: return "updated";
    case EditKind::Inserted: return "inserted";
    case EditKind::Deleted: return "deleted";
    case EditKind::Moved: return "moved";
    case EditKind::Folded: return "folded";
  }
  return "?";
}

EditCounts& EditCounts::operator+=(const EditCounts& o) {
  kept += o.kept;
  updated += o.updated;
  inserted += o.inserted;
  deleted += o.deleted;
  moved += o.moved;
  folded += o.folded;
  return *this;
}

const NodeEdit* ModuleEdits::findAfter(const ExprNode* node) const {
  auto it = afterIndex.find(node);
  return it == afterIndex.end() ? nullptr : &edits[it->second];
}

const NodeEdit* ModuleEdits::findBefore(const ExprNode* node) const {
  auto it = beforeIndex.find(node);
  return it == beforeIndex.end() ? nullptr : &edits[it->second];
}

const ExprNode* ModuleEdits::beforeOf(const ExprNode* a) const {
  if (const NodeEdit* e = findAfter(a)) return e->kind == EditKind::Folded ? nullptr : e->before;
  return a;
}

const ExprNode* ModuleEdits::afterOf(const ExprNode* b) const {
  if (const NodeEdit* e = findBefore(b)) return e->kind == EditKind::Folded ? nullptr : e->after;
  return b;
}

const FunctionEdit* ModuleEdits::function(const std::string& name) const {
  for (const FunctionEdit& f : functions)
    if (f.name == name) return &f;
  for (const FunctionEdit& f : functions)
    if (f.name.empty() && f.beforeName == name) return &f;
  return nullptr;
}

const std::string& ModuleEdits::functionName(int32_t index) const {
  static const std::string empty;
  return index < 0 || static_cast<size_t>(index) >= functionNames.size() ? empty : functionNames[index];
}

std::shared_ptr<const ModuleEdits> matchModules(const IRModule& before, const IRModule& after, const MatchOptions&) {
  auto m = std::make_shared<ModuleEdits>();
  m->before = before;
  m->after = after;
  return m;
}

std::string changeSummary(const ModuleEdits&) { return "no change"; }

std::string formatEditScript(const ModuleEdits&, bool, const std::string&) { return ""; }

std::string summarizeFunctionList(const std::vector<std::string>& names, size_t limit) {
  std::string out;
  for (size_t i = 0; i < names.size() && i < limit; ++i) {
    if (i) out += ", ";
    out += '@' + names[i];
  }
  if (names.size() > limit) out += " and " + std::to_string(names.size() - limit) + " more";
  return out;
}

AlignedText printAligned(const ModuleEdits& edits, const std::string&, const PrintOptions& options) {
  return {printModule(edits.before, options), printModule(edits.after, options)};
}

std::string alignedDiff(const ModuleEdits& edits, const std::string& oldName, const std::string& newName,
                        const std::string& function, int context) {
  AlignedText t = printAligned(edits, function);
  return unifiedDiff(t.before, t.after, oldName, newName, context);
}

}  // namespace passlab
