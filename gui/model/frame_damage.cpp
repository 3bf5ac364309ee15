#include "gui/model/frame_damage.h"

#include <algorithm>
#include <utility>

namespace passlab::gui {

PixelRect unite(const PixelRect& a, const PixelRect& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return {std::min(a.x0, b.x0), std::min(a.y0, b.y0), std::max(a.x1, b.x1), std::max(a.y1, b.y1)};
}

PixelRect intersect(const PixelRect& a, const PixelRect& b) {
  PixelRect r{std::max(a.x0, b.x0), std::max(a.y0, b.y0), std::min(a.x1, b.x1), std::min(a.y1, b.y1)};
  return r.empty() ? PixelRect{} : r;
}

namespace {

/// The items of one list: [begin, end) of a frame's items.
struct ListSpan {
  size_t begin = 0, end = 0;
};

std::vector<std::pair<std::string, ListSpan>> listsOf(const std::vector<DrawItem>& items) {
  std::vector<std::pair<std::string, ListSpan>> lists;
  for (size_t i = 0; i < items.size(); ++i) {
    if (lists.empty() || lists.back().first != items[i].list) lists.push_back({items[i].list, {i, i}});
    lists.back().second.end = i + 1;
  }
  return lists;
}

/// Merges overlapping rectangles, then the pairs whose union adds the least
/// area, until at most `max` are left.
std::vector<PixelRect> merged(std::vector<PixelRect> rects, size_t max) {
  rects.erase(std::remove_if(rects.begin(), rects.end(), [](const PixelRect& r) { return r.empty(); }), rects.end());
  for (bool again = true; again;) {
    again = false;
    for (size_t i = 0; i < rects.size() && !again; ++i)
      for (size_t j = i + 1; j < rects.size() && !again; ++j)
        if (!intersect(rects[i], rects[j]).empty()) {
          rects[i] = unite(rects[i], rects[j]);
          rects.erase(rects.begin() + static_cast<std::ptrdiff_t>(j));
          again = true;
        }
  }
  while (rects.size() > max) {
    size_t bi = 0, bj = 1;
    long long best = -1;
    for (size_t i = 0; i < rects.size(); ++i)
      for (size_t j = i + 1; j < rects.size(); ++j) {
        long long added = unite(rects[i], rects[j]).area() - rects[i].area() - rects[j].area();
        if (best < 0 || added < best) best = added, bi = i, bj = j;
      }
    rects[bi] = unite(rects[bi], rects[bj]);
    rects.erase(rects.begin() + static_cast<std::ptrdiff_t>(bj));
    // A union can overlap a third rectangle: merge those too.
    const size_t n = rects.size();
    rects = merged(std::move(rects), n);
  }
  return rects;
}

}  // namespace

std::vector<PixelRect> FrameDamage::update(std::vector<DrawItem> items, const PixelRect& window) {
  std::vector<PixelRect> damage;
  const auto now = listsOf(items), before = listsOf(last_);
  bool whole = !valid_ || !(window == window_);
  // Lists present in both frames must keep their order (a window brought to
  // the front covers others differently): otherwise redraw everything.
  if (!whole) {
    std::vector<std::string> a, b;
    for (const auto& [name, span] : now)
      if (std::any_of(before.begin(), before.end(), [&](const auto& l) { return l.first == name; })) a.push_back(name);
    for (const auto& [name, span] : before)
      if (std::any_of(now.begin(), now.end(), [&](const auto& l) { return l.first == name; })) b.push_back(name);
    whole = a != b;
  }
  if (whole) {
    damage.push_back(window);
  } else {
    auto whole = [](const DrawItem& item) {
      PixelRect r;
      for (const PixelRect& t : item.rects) r = unite(r, t);
      return r;
    };
    auto addAll = [&](const std::vector<DrawItem>& v, ListSpan s) {
      for (size_t i = s.begin; i < s.end; ++i) damage.push_back(whole(v[i]));
    };
    for (const auto& [name, span] : now) {
      auto old = std::find_if(before.begin(), before.end(), [&](const auto& l) { return l.first == name; });
      if (old == before.end()) {
        addAll(items, span);
        continue;
      }
      const ListSpan o = old->second;
      if (o.end - o.begin != span.end - span.begin) {
        addAll(items, span);
        addAll(last_, o);
        continue;
      }
      for (size_t k = 0; k < span.end - span.begin; ++k) {
        const DrawItem &n = items[span.begin + k], &p = last_[o.begin + k];
        if (n.head != p.head) {
          damage.push_back(whole(n));
          damage.push_back(whole(p));
          continue;
        }
        // The triangles between the common head and tail changed.
        const size_t nn = n.triangles.size(), pn = p.triangles.size();
        size_t head = 0, tail = 0;
        while (head < nn && head < pn && n.triangles[head] == p.triangles[head] && n.rects[head] == p.rects[head]) ++head;
        while (tail < nn - head && tail < pn - head && n.triangles[nn - 1 - tail] == p.triangles[pn - 1 - tail] &&
               n.rects[nn - 1 - tail] == p.rects[pn - 1 - tail])
          ++tail;
        PixelRect changed;
        for (size_t t = head; t < nn - tail; ++t) changed = unite(changed, n.rects[t]);
        for (size_t t = head; t < pn - tail; ++t) changed = unite(changed, p.rects[t]);
        damage.push_back(changed);
      }
    }
    for (const auto& [name, span] : before)
      if (std::none_of(now.begin(), now.end(), [&](const auto& l) { return l.first == name; })) addAll(last_, span);
    for (PixelRect& r : damage) r = intersect(r, window);
    damage = merged(std::move(damage), kMaxRects);
  }
  last_ = std::move(items);
  window_ = window;
  valid_ = true;
  return damage;
}

}  // namespace passlab::gui
