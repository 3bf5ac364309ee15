#include "graph/svg_pages.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace passlab::graph {

std::vector<double> pageCuts(double height, std::vector<std::pair<double, double>> bands, double maxPageHeight) {
  std::vector<double> cuts;
  if (maxPageHeight <= 0 || height <= maxPageHeight) return cuts;
  // Occupied intervals, merged; the gaps between them are where a cut may go.
  for (auto& b : bands)
    if (b.first > b.second) std::swap(b.first, b.second);
  std::sort(bands.begin(), bands.end());
  std::vector<std::pair<double, double>> gaps;
  double free = 0;
  for (const auto& [top, bottom] : bands) {
    if (top > free) gaps.emplace_back(free, top);
    free = std::max(free, bottom);
  }
  if (free < height) gaps.emplace_back(free, height);
  double start = 0;
  while (height - start > maxPageHeight) {
    // Pages counted with 5% to spare, so a cut near each target finds a gap
    // between rows without leaving the last page too tall.
    const double pagesLeft = std::ceil((height - start) / (0.95 * maxPageHeight));
    const double target = start + (height - start) / pagesLeft, limit = start + maxPageHeight;
    double best = -1, bestDistance = 0;
    for (const auto& [a, b] : gaps) {
      if (b <= start || a >= limit) continue;
      // Away from the boxes on either side when the gap allows it.
      const double margin = std::min(6.0, (b - a) / 2);
      double lo = std::max(a + margin, start + 1), hi = std::min(b - margin, limit);
      if (lo > hi) continue;
      double y = std::clamp(target, lo, hi), distance = std::abs(y - target);
      if (best < 0 || distance < bestDistance) best = y, bestDistance = distance;
    }
    // No gap within reach (one box taller than a page): cut through it.
    if (best <= start) best = limit;
    cuts.push_back(best);
    start = best;
  }
  return cuts;
}

namespace {

/// The value of attribute `name` in the tag starting at `tag` ("" when absent).
std::string_view attrOf(std::string_view text, size_t tag, std::string_view name) {
  size_t end = text.find('>', tag);
  std::string needle = " " + std::string(name) + "=\"";
  size_t at = text.find(needle, tag);
  if (at == std::string_view::npos || at > end) return {};
  at += needle.size();
  size_t close = text.find('"', at);
  return close == std::string_view::npos ? std::string_view{} : text.substr(at, close - at);
}

/// The numbers in `text`, in order ("M1,-2C3.5,-4" gives 1 -2 3.5 -4).
std::vector<double> numbersIn(std::string_view text) {
  std::vector<double> out;
  std::string buf(text);
  const char* p = buf.c_str();
  while (*p) {
    if ((*p >= '0' && *p <= '9') || *p == '-' || *p == '.') {
      char* end = nullptr;
      double v = std::strtod(p, &end);
      if (end == p) {
        ++p;
        continue;
      }
      out.push_back(v);
      p = end;
    } else {
      ++p;
    }
  }
  return out;
}

/// One top-level element of the graph group: a node, an edge or a box, with the
/// comment Graphviz writes before it.
struct Item {
  std::string_view text;
  bool node = false;
  /// Vertical extent in the group's coordinates; valid when `top <= bottom`.
  double top = 1, bottom = 0;
};

/// The y range of everything drawn in `text` (points and path data give x,y
/// pairs; text and ellipses their y).
void extentOf(Item& item) {
  std::string_view t = item.text;
  auto take = [&](double y) {
    if (item.top > item.bottom) {
      item.top = item.bottom = y;
    } else {
      item.top = std::min(item.top, y), item.bottom = std::max(item.bottom, y);
    }
  };
  for (size_t at = t.find('<'); at != std::string_view::npos; at = t.find('<', at + 1)) {
    for (std::string_view pairs : {attrOf(t, at, "points"), attrOf(t, at, "d")}) {
      std::vector<double> v = numbersIn(pairs);
      for (size_t i = 1; i < v.size(); i += 2) take(v[i]);
    }
    std::string_view y = attrOf(t, at, "y");
    if (!y.empty()) take(std::atof(std::string(y).c_str()));
    std::string_view cy = attrOf(t, at, "cy"), ry = attrOf(t, at, "ry");
    if (!cy.empty()) {
      double c = std::atof(std::string(cy).c_str()), r = ry.empty() ? 0 : std::atof(std::string(ry).c_str());
      take(c - r), take(c + r);
    }
  }
}

/// Offset of the `</g>` closing the <g> that starts at `open` (npos when unbalanced).
size_t closingOf(std::string_view text, size_t open) {
  int depth = 0;
  size_t at = open;
  while (at < text.size()) {
    size_t lt = text.find('<', at);
    if (lt == std::string_view::npos) return lt;
    if (text.compare(lt, 3, "</g") == 0) {
      if (--depth == 0) return lt;
    } else if (text.compare(lt, 3, "<g ") == 0 || text.compare(lt, 3, "<g>") == 0) {
      ++depth;
    }
    at = lt + 1;
  }
  return std::string_view::npos;
}

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  return buf;
}

/// `text` with every id renamed for page `page` (an element drawn on two pages
/// keeps its ids unique in the document).
std::string renameIds(std::string_view text, int page) {
  std::string out;
  const std::string prefix = " id=\"p" + std::to_string(page) + "_";
  size_t at = 0;
  for (size_t hit = text.find(" id=\""); hit != std::string_view::npos; hit = text.find(" id=\"", at)) {
    out.append(text.substr(at, hit - at));
    out += prefix;
    at = hit + 5;
  }
  out.append(text.substr(at));
  return out;
}

}  // namespace

SvgPages paginateSvg(const std::string& svg, double maxPageHeight) {
  SvgPages out;
  out.svg = svg;
  const std::string_view s(svg);
  const size_t root = s.find("<svg");
  if (root == std::string_view::npos) return out;
  const double width = std::atof(std::string(attrOf(s, root, "width")).c_str());
  const double height = std::atof(std::string(attrOf(s, root, "height")).c_str());
  out.width = width, out.pageHeight = height;
  if (maxPageHeight <= 0 || height <= maxPageHeight) return out;
  std::vector<double> box = numbersIn(attrOf(s, root, "viewBox"));
  const size_t group = s.find("<g id=\"graph0\"", root);
  if (box.size() != 4 || group == std::string_view::npos || std::abs(box[3] - height) > 1) return out;
  // transform="scale(1 1) rotate(0) translate(4 4690)": group y → page y is sy*y + ty.
  std::vector<double> t = numbersIn(attrOf(s, group, "transform"));
  if (t.size() != 5 || t[2] != 0) return out;
  const double sy = t[1], ty = t[4];
  const size_t groupEnd = closingOf(s, group), bodyStart = s.find('>', group) + 1;
  if (groupEnd == std::string_view::npos) return out;
  const std::string_view groupTag = s.substr(group, bodyStart - group);

  // The group's own elements (title, background) come first; then one <g> per item.
  std::vector<Item> items;
  std::string_view prelude;
  size_t at = bodyStart, itemStart = std::string_view::npos;
  while (at < groupEnd) {
    size_t lt = s.find('<', at);
    if (lt == std::string_view::npos || lt >= groupEnd) break;
    if (s.compare(lt, 4, "<!--") == 0) {
      if (itemStart == std::string_view::npos) itemStart = lt;
      at = s.find("-->", lt) + 3;
      continue;
    }
    if (s.compare(lt, 3, "<g ") == 0) {
      if (itemStart == std::string_view::npos) itemStart = lt;
      if (prelude.empty()) prelude = s.substr(bodyStart, itemStart - bodyStart);
      size_t close = closingOf(s, lt);
      if (close == std::string_view::npos) return out;
      close += 4;  // "</g>"
      Item item;
      item.text = s.substr(itemStart, close - itemStart);
      item.node = attrOf(s, lt, "class") == "node";
      extentOf(item);
      items.push_back(item);
      itemStart = std::string_view::npos;
      at = close;
      continue;
    }
    if (!items.empty() || itemStart != std::string_view::npos) return out;  // something Graphviz does not write
    at = s.find('>', lt) + 1;
  }
  if (items.empty()) return out;
  if (prelude.empty()) prelude = s.substr(bodyStart, 0);

  std::vector<std::pair<double, double>> bands;
  for (const Item& it : items)
    if (it.node && it.top <= it.bottom) bands.emplace_back(sy * it.top + ty, sy * it.bottom + ty);
  std::vector<double> cuts = pageCuts(height, bands, maxPageHeight);
  if (cuts.empty()) return out;
  std::vector<double> edges{0};
  edges.insert(edges.end(), cuts.begin(), cuts.end());
  edges.push_back(height);
  const int pages = static_cast<int>(edges.size()) - 1;

  // Background colour: the fill of the prelude's polygon (Graphviz's bgcolor).
  std::string background = "#ffffff";
  size_t poly = prelude.find("<polygon");
  if (poly != std::string_view::npos) {
    std::string_view fill = attrOf(prelude, poly, "fill");
    if (!fill.empty() && fill != "transparent") background = std::string(fill);
  }
  std::string textColour = "#808080";
  size_t text = s.find("<text", bodyStart);
  if (text != std::string_view::npos && text < groupEnd) {
    std::string_view fill = attrOf(s, text, "fill");
    if (!fill.empty()) textColour = std::string(fill);
  }

  constexpr double kCaption = 20, kGap = 24;
  double tallest = 0;
  for (int p = 0; p < pages; ++p) tallest = std::max(tallest, edges[static_cast<size_t>(p) + 1] - edges[static_cast<size_t>(p)]);
  const double total = pages * width + (pages - 1) * kGap, pageHeight = tallest + kCaption;

  std::string o;
  o.reserve(svg.size() + svg.size() / 4);
  o += s.substr(0, root);
  o += "<svg width=\"" + num(total) + "pt\" height=\"" + num(pageHeight) + "pt\" viewBox=\"0.00 0.00 " + num(total) + " " +
       num(pageHeight) + "\" xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n";
  o += "<rect x=\"0\" y=\"0\" width=\"" + num(total) + "\" height=\"" + num(pageHeight) + "\" fill=\"" + background + "\"/>\n";
  std::vector<int> firstPage(items.size(), -1);
  for (int p = 0; p < pages; ++p) {
    const double y0 = edges[static_cast<size_t>(p)], y1 = edges[static_cast<size_t>(p) + 1], x = p * (width + kGap);
    std::string caption = "page " + std::to_string(p + 1) + " of " + std::to_string(pages);
    if (p + 1 < pages) caption += "; continues at the top of page " + std::to_string(p + 2);
    o += "<text x=\"" + num(x + 4) + "\" y=\"14\" font-family=\"Courier,monospace\" font-size=\"10.00\" fill=\"" + textColour + "\">" +
         caption + "</text>\n";
    o += "<svg x=\"" + num(x) + "\" y=\"" + num(kCaption) + "\" width=\"" + num(width) + "\" height=\"" + num(y1 - y0) +
         "\" viewBox=\"" + num(box[0]) + " " + num(y0) + " " + num(width) + " " + num(y1 - y0) + "\" overflow=\"hidden\">\n";
    o += p == 0 ? std::string(groupTag) : renameIds(groupTag, p + 1);
    o += prelude;
    for (size_t i = 0; i < items.size(); ++i) {
      const Item& it = items[i];
      // Items with no coordinates found go on every page.
      bool valid = it.top <= it.bottom;
      double a = valid ? std::min(sy * it.top + ty, sy * it.bottom + ty) : y0, b = valid ? std::max(sy * it.top + ty, sy * it.bottom + ty) : y1;
      if (b < y0 || a > y1) continue;
      if (firstPage[i] < 0) {
        firstPage[i] = p;
        o += it.text;
      } else {
        o += renameIds(it.text, p + 1);
      }
      o += "\n";
    }
    o += "</g>\n</svg>\n";
    if (p + 1 < pages)
      o += "<line x1=\"" + num(x) + "\" y1=\"" + num(kCaption + y1 - y0) + "\" x2=\"" + num(x + width) + "\" y2=\"" +
           num(kCaption + y1 - y0) + "\" stroke=\"" + textColour + "\" stroke-dasharray=\"4 4\"/>\n";
  }
  o += "</svg>\n";
  out.svg = std::move(o);
  out.pages = pages;
  out.pageHeight = pageHeight;
  out.width = total;
  return out;
}

}  // namespace passlab::graph
