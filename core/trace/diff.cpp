#include "core/trace/diff.h"
#include "core/trace/diff_views.h"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <unordered_map>

namespace passlab {

namespace {

std::vector<std::string_view> splitLines(const std::string& text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    lines.emplace_back(text.data() + start, nl - start);
    start = nl + 1;
  }
  return lines;
}

/// Myers' O(ND) search in its linear-space form (the middle-snake bisection of
/// the paper's section 4b, as in diff-match-patch), over integer line ids.
/// Subproblems live on an explicit stack, so deep recursion cannot overflow.
class MyersSearch {
 public:
  MyersSearch(const std::vector<int>& a, const std::vector<int>& b, int64_t budget)
      : a_(a), b_(b), budget_(budget), matchA_(a.size(), -1) {}

  /// matchA[i] = index in b matched with a[i], or -1.
  std::vector<int> run() {
    std::vector<Range> stack{{0, static_cast<int>(a_.size()), 0, static_cast<int>(b_.size())}};
    while (!stack.empty()) {
      Range r = stack.back();
      stack.pop_back();
      while (r.x0 < r.x1 && r.y0 < r.y1 && a_[r.x0] == b_[r.y0]) matchA_[r.x0++] = r.y0++;
      while (r.x0 < r.x1 && r.y0 < r.y1 && a_[r.x1 - 1] == b_[r.y1 - 1]) matchA_[--r.x1] = --r.y1;
      if (r.x0 == r.x1 || r.y0 == r.y1) continue;
      int sx = 0, sy = 0;
      if (!bisect(r, sx, sy)) continue;  // nothing in common (or out of budget): all changed
      int n = r.x1 - r.x0, m = r.y1 - r.y0;
      if ((sx == 0 && sy == 0) || (sx == n && sy == m)) continue;  // no progress possible
      stack.push_back({r.x0 + sx, r.x1, r.y0 + sy, r.y1});
      stack.push_back({r.x0, r.x0 + sx, r.y0, r.y0 + sy});
    }
    return std::move(matchA_);
  }

 private:
  struct Range {
    int x0, x1, y0, y1;
  };

  /// Finds a point (sx, sy) on an optimal path through the range, relative to its corner.
  bool bisect(const Range& r, int& sx, int& sy) {
    const int* A = a_.data() + r.x0;
    const int* B = b_.data() + r.y0;
    const int n = r.x1 - r.x0, m = r.y1 - r.y0;
    const int maxD = (n + m + 1) / 2;
    // Beyond dLimit edits the search stops looking for the optimal middle and
    // splits at the furthest forward point reached (GNU diff's "too expensive"
    // heuristic): still a correct diff, and the cost stays near-linear. The
    // diagonal arrays therefore never need more than dLimit entries each way.
    const int dLimit = std::max(256, static_cast<int>(std::sqrt(static_cast<double>(n + m))) * 2);
    const int cap = std::min(maxD, dLimit + 2);
    const int offset = cap;
    const int len = 2 * cap + 2;
    work_ += len;
    forward_.assign(static_cast<size_t>(len), -1);
    backward_.assign(static_cast<size_t>(len), -1);
    int* v1 = forward_.data();
    int* v2 = backward_.data();
    v1[offset + 1] = 0;
    v2[offset + 1] = 0;
    const int delta = n - m;
    const bool front = (delta % 2 != 0);
    int k1start = 0, k1end = 0, k2start = 0, k2end = 0;
    int bestX = 0, bestY = 0;
    for (int d = 0; d < cap; ++d) {
      if (work_ > budget_) return false;
      if (d > dLimit && bestX + bestY > 0 && !(bestX == n && bestY == m)) {
        sx = bestX;
        sy = bestY;
        return true;
      }
      for (int k1 = -d + k1start; k1 <= d - k1end; k1 += 2) {
        const int k1o = offset + k1;
        int x1 = (k1 == -d || (k1 != d && v1[k1o - 1] < v1[k1o + 1])) ? v1[k1o + 1] : v1[k1o - 1] + 1;
        int y1 = x1 - k1;
        const int snakeStart = x1;
        while (x1 < n && y1 < m && A[x1] == B[y1]) {
          ++x1;
          ++y1;
        }
        work_ += 1 + (x1 - snakeStart);
        v1[k1o] = x1;
        if (x1 <= n && y1 <= m && y1 >= 0 && x1 + y1 > bestX + bestY) {
          bestX = x1;
          bestY = y1;
        }
        if (x1 > n) {
          k1end += 2;
        } else if (y1 > m) {
          k1start += 2;
        } else if (front) {
          const int k2o = offset + delta - k1;
          if (k2o >= 0 && k2o < len && v2[k2o] != -1 && x1 >= n - v2[k2o]) {
            sx = x1;
            sy = y1;
            return true;
          }
        }
      }
      for (int k2 = -d + k2start; k2 <= d - k2end; k2 += 2) {
        const int k2o = offset + k2;
        int x2 = (k2 == -d || (k2 != d && v2[k2o - 1] < v2[k2o + 1])) ? v2[k2o + 1] : v2[k2o - 1] + 1;
        int y2 = x2 - k2;
        const int snakeStart = x2;
        while (x2 < n && y2 < m && A[n - x2 - 1] == B[m - y2 - 1]) {
          ++x2;
          ++y2;
        }
        work_ += 1 + (x2 - snakeStart);
        v2[k2o] = x2;
        if (x2 > n) {
          k2end += 2;
        } else if (y2 > m) {
          k2start += 2;
        } else if (!front) {
          const int k1o = offset + delta - k2;
          if (k1o >= 0 && k1o < len && v1[k1o] != -1) {
            const int x1 = v1[k1o];
            const int y1 = offset + x1 - k1o;
            if (x1 >= n - x2) {
              sx = x1;
              sy = y1;
              return true;
            }
          }
        }
      }
    }
    // No overlap found within `cap`: either nothing in common, or no usable split.
    return false;
  }

  const std::vector<int>& a_;
  const std::vector<int>& b_;
  const int64_t budget_;
  int64_t work_ = 0;
  std::vector<int> matchA_;
  std::vector<int> forward_, backward_;
};

/// Diagonal steps the search may take before a region is reported as all
/// changed. Typical IR diffs need far fewer; this caps worst cases at well under a second.
constexpr int64_t kWorkBudget = 20'000'000;

}  // namespace

std::vector<DiffLine> diffLines(const std::string& oldText, const std::string& newText) {
  const std::vector<std::string_view> oldLines = splitLines(oldText);
  const std::vector<std::string_view> newLines = splitLines(newText);
  return diffLineViews(oldLines, newLines, oldLines, newLines);
}

std::vector<DiffLine> diffLineViews(const std::vector<std::string_view>& oldLines, const std::vector<std::string_view>& newLines,
                                    const std::vector<std::string_view>& oldText, const std::vector<std::string_view>& newText) {
  const size_t n = oldLines.size(), m = newLines.size();

  // Common prefix and suffix are matched without any search.
  size_t prefix = 0;
  while (prefix < n && prefix < m && oldLines[prefix] == newLines[prefix]) ++prefix;
  size_t suffix = 0;
  while (suffix < n - prefix && suffix < m - prefix && oldLines[n - 1 - suffix] == newLines[m - 1 - suffix]) ++suffix;

  // Interning turns line comparison into integer comparison.
  std::unordered_map<std::string_view, int> ids;
  ids.reserve((n - prefix - suffix) + (m - prefix - suffix));
  std::vector<int> oldIds, newIds;
  oldIds.reserve(n - prefix - suffix);
  newIds.reserve(m - prefix - suffix);
  std::vector<int> oldCount, newCount;
  auto intern = [&](std::string_view line, std::vector<int>& seqIds, std::vector<int>& counts, std::vector<int>& otherCounts) {
    auto [it, inserted] = ids.emplace(line, static_cast<int>(ids.size()));
    if (inserted) {
      counts.push_back(0);
      otherCounts.push_back(0);
    }
    seqIds.push_back(it->second);
    ++counts[static_cast<size_t>(it->second)];
  };
  for (size_t i = prefix; i < n - suffix; ++i) intern(oldLines[i], oldIds, oldCount, newCount);
  for (size_t j = prefix; j < m - suffix; ++j) intern(newLines[j], newIds, newCount, oldCount);

  // A line that occurs on one side only can never match: leave it out of the search.
  std::vector<int> oldKept, newKept;      // ids
  std::vector<size_t> oldIndex, newIndex;  // positions in oldIds/newIds
  for (size_t i = 0; i < oldIds.size(); ++i)
    if (newCount[static_cast<size_t>(oldIds[i])] > 0) {
      oldKept.push_back(oldIds[i]);
      oldIndex.push_back(i);
    }
  for (size_t j = 0; j < newIds.size(); ++j)
    if (oldCount[static_cast<size_t>(newIds[j])] > 0) {
      newKept.push_back(newIds[j]);
      newIndex.push_back(j);
    }
  std::vector<int> keptMatch = MyersSearch(oldKept, newKept, kWorkBudget).run();
  std::vector<int> middleMatch(oldIds.size(), -1);  // position in oldIds -> position in newIds
  for (size_t k = 0; k < keptMatch.size(); ++k)
    if (keptMatch[k] >= 0) middleMatch[oldIndex[k]] = static_cast<int>(newIndex[static_cast<size_t>(keptMatch[k])]);

  std::vector<DiffLine> out;
  out.reserve(std::max(n, m));
  // A line in both reads as the new side writes it (the same text when the keys are the lines).
  auto same = [&](size_t i, size_t j) {
    out.push_back({DiffLine::Kind::Same, static_cast<uint32_t>(i + 1), static_cast<uint32_t>(j + 1), std::string(newText[j])});
  };
  auto removed = [&](size_t i) { out.push_back({DiffLine::Kind::Removed, static_cast<uint32_t>(i + 1), 0, std::string(oldText[i])}); };
  auto added = [&](size_t j) { out.push_back({DiffLine::Kind::Added, 0, static_cast<uint32_t>(j + 1), std::string(newText[j])}); };

  for (size_t i = 0; i < prefix; ++i) same(i, i);
  size_t j = 0;  // next unconsumed position in newIds
  for (size_t i = 0; i < oldIds.size(); ++i) {
    if (middleMatch[i] < 0) {
      removed(prefix + i);
      continue;
    }
    for (; j < static_cast<size_t>(middleMatch[i]); ++j) added(prefix + j);
    same(prefix + i, prefix + j);
    ++j;
  }
  for (; j < newIds.size(); ++j) added(prefix + j);
  for (size_t k = 0; k < suffix; ++k) same(n - suffix + k, m - suffix + k);

  // Within a change, removed lines first: the conventional reading order.
  for (size_t begin = 0; begin < out.size();) {
    if (out[begin].kind == DiffLine::Kind::Same) {
      ++begin;
      continue;
    }
    size_t end = begin;
    while (end < out.size() && out[end].kind != DiffLine::Kind::Same) ++end;
    std::stable_partition(out.begin() + static_cast<long>(begin), out.begin() + static_cast<long>(end),
                          [](const DiffLine& l) { return l.kind == DiffLine::Kind::Removed; });
    begin = end;
  }
  return out;
}

std::string unifiedDiff(const std::string& oldText, const std::string& newText, const std::string& oldName,
                        const std::string& newName, int context) {
  return renderUnifiedDiff(diffLines(oldText, newText), oldName, newName, context);
}

std::string unifiedDiffIgnoringIndent(const std::string& oldText, const std::string& newText, const std::string& oldName,
                                      const std::string& newName, int context) {
  return renderUnifiedDiff(diffLinesIgnoringIndent(oldText, newText), oldName, newName, context);
}

std::vector<DiffLine> diffLinesIgnoringIndent(const std::string& oldText, const std::string& newText) {
  return diffLineViewsIgnoringIndent(oldText, newText);
}

std::vector<DiffLine> diffLineViewsIgnoringIndent(std::string_view oldText, std::string_view newText) {
  // Compare the lines without their leading blanks, then print the real lines
  // (a line common to both shows as the new side writes it). Both are views
  // of the texts: nothing is copied but the lines of the result.
  auto split = [](std::string_view text, std::vector<std::string_view>& lines, std::vector<std::string_view>& stripped) {
    size_t start = 0;
    while (start < text.size()) {
      size_t nl = text.find('\n', start);
      size_t end = nl == std::string_view::npos ? text.size() : nl;
      lines.push_back(text.substr(start, end - start));
      size_t first = start;
      while (first < end && (text[first] == ' ' || text[first] == '\t')) ++first;
      stripped.push_back(text.substr(first, end - first));
      start = end + 1;
    }
  };
  std::vector<std::string_view> oldLines, newLines, oldKeys, newKeys;
  split(oldText, oldLines, oldKeys);
  split(newText, newLines, newKeys);
  return diffLineViews(oldKeys, newKeys, oldLines, newLines);
}

std::string renderUnifiedDiff(const std::vector<DiffLine>& lines, const std::string& oldName, const std::string& newName,
                              int context) {
  const size_t total = lines.size();
  const size_t ctx = static_cast<size_t>(std::max(0, context));
  auto isChange = [&](size_t i) { return lines[i].kind != DiffLine::Kind::Same; };

  // Old/new line counts before each position, for hunk headers.
  std::vector<uint32_t> oldBefore(total + 1, 0), newBefore(total + 1, 0);
  for (size_t i = 0; i < total; ++i) {
    oldBefore[i + 1] = oldBefore[i] + (lines[i].kind != DiffLine::Kind::Added ? 1 : 0);
    newBefore[i + 1] = newBefore[i] + (lines[i].kind != DiffLine::Kind::Removed ? 1 : 0);
  }
  auto range = [](uint32_t before, uint32_t count) {
    // GNU diff: "start" for one line, "start,count" otherwise; an empty range
    // names the line before it.
    if (count == 1) return std::to_string(before + 1);
    return std::to_string(count == 0 ? before : before + 1) + "," + std::to_string(count);
  };

  std::string out;
  size_t i = 0;
  while (i < total) {
    while (i < total && !isChange(i)) ++i;
    if (i == total) break;
    size_t start = i >= ctx ? i - ctx : 0;
    size_t j = i;
    while (true) {
      while (j < total && isChange(j)) ++j;
      size_t next = j;
      while (next < total && !isChange(next)) ++next;
      // Changes closer than two contexts share one hunk.
      if (next < total && next - j <= 2 * ctx) {
        j = next;
        continue;
      }
      break;
    }
    size_t end = std::min(total, j + ctx);
    if (out.empty()) out = "--- " + oldName + "\n+++ " + newName + "\n";
    out += "@@ -" + range(oldBefore[start], oldBefore[end] - oldBefore[start]) + " +" +
           range(newBefore[start], newBefore[end] - newBefore[start]) + " @@\n";
    for (size_t k = start; k < end; ++k) {
      const DiffLine& l = lines[k];
      char mark = l.kind == DiffLine::Kind::Same ? ' ' : l.kind == DiffLine::Kind::Added ? (l.moved ? '>' : '+') : (l.moved ? '<' : '-');
      out += mark;
      out += lines[k].text;
      out += '\n';
    }
    i = end;
  }
  return out;
}

static void diffDicts(const std::string& function, const AttrDict& before, const AttrDict& after, std::vector<AttrChange>& out) {
  for (const auto& [key, value] : before.entries()) {
    const AttrValue* now = after.find(key);
    if (!now)
      out.push_back({function, key, AttrChange::Kind::Removed, value.toString(), ""});
    else if (*now != value)
      out.push_back({function, key, AttrChange::Kind::Changed, value.toString(), now->toString()});
  }
  for (const auto& [key, value] : after.entries())
    if (!before.contains(key)) out.push_back({function, key, AttrChange::Kind::Added, "", value.toString()});
}

std::vector<AttrChange> diffAttrs(const IRModule& before, const IRModule& after) {
  std::vector<AttrChange> out;
  static const AttrDict kEmpty;
  diffDicts("<module>", before ? before->attrs : kEmpty, after ? after->attrs : kEmpty, out);
  static const std::map<std::string, Expr> kNoFunctions;
  const auto& oldFns = before ? before->functions : kNoFunctions;
  const auto& newFns = after ? after->functions : kNoFunctions;
  // Both maps are sorted by name: walk them together.
  auto o = oldFns.begin();
  auto n = newFns.begin();
  while (o != oldFns.end() || n != newFns.end()) {
    if (n == newFns.end() || (o != oldFns.end() && o->first < n->first)) {
      diffDicts(o->first, functionAttrs(o->second), kEmpty, out);
      ++o;
    } else if (o == oldFns.end() || n->first < o->first) {
      diffDicts(n->first, kEmpty, functionAttrs(n->second), out);
      ++n;
    } else {
      if (o->second != n->second) diffDicts(o->first, functionAttrs(o->second), functionAttrs(n->second), out);
      ++o;
      ++n;
    }
  }
  return out;
}

}  // namespace passlab
