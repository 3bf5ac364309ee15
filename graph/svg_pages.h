// Pages of a tall graph picture. A 700-op model's dataflow is a column
// thousands of points tall even with its chains folded; an image taller than
// a few screens cannot be read in a report or an image viewer, and shrinking
// it to fit makes its labels dots. paginateSvg cuts the column into pages no
// taller than a limit, between rows of nodes (never through a box), and sets
// the pages side by side in one SVG, like a newspaper's columns: read down a
// page, then on at the top of the next. Edges that cross a cut run off the
// bottom of one page and on at the top of the next.
//
// Works on the SVG Graphviz writes (graphviz_layout.h): the `graph0` group
// with its one transform, and one top-level <g> per node, edge and box. Any
// other SVG comes back unchanged. No Graphviz here.
#pragma once

#include <string>
#include <vector>

namespace passlab::graph {

/// The page height the faces use by default, in points: about 3,900 px at the
/// CSS 96 dpi a browser draws `pt` at, with the page's caption line (the issue's
/// "no page taller than about 4,000 px").
inline constexpr double kSvgPageHeightPt = 2900;

/// What paginateSvg did.
struct SvgPages {
  /// The paginated SVG (the input itself when it fit on one page).
  std::string svg;
  /// Pages (1 when nothing was cut).
  int pages = 1;
  /// Height of the tallest page (caption included) and the whole width, in points.
  double pageHeight = 0, width = 0;
};

/// Cuts `svg` into pages no taller than `maxPageHeight` points, side by side.
/// `maxPageHeight` <= 0, a picture that fits, or an SVG not in Graphviz's
/// form: returned unchanged (pages = 1).
SvgPages paginateSvg(const std::string& svg, double maxPageHeight = kSvgPageHeightPt);

/// Where paginateSvg cuts a column of `height` points whose node boxes occupy
/// `bands` ({top, bottom} pairs, any order, may overlap): the y of each cut, in
/// order, balanced so the pages come out about equally tall, each at most
/// `maxPageHeight` (unless one box is taller), and each cut in a gap between
/// boxes when a gap lies within reach.
std::vector<double> pageCuts(double height, std::vector<std::pair<double, double>> bands, double maxPageHeight);

}  // namespace passlab::graph
