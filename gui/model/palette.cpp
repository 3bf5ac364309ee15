#include "gui/model/palette.h"

#include <array>
#include <cstddef>

namespace passlab::gui {
namespace {

using std::size_t;

struct Entry {
  ColourRole role;
  const char* name;
  Rgba colour;
};

// Backgrounds are dark and clearly distinct from each other and from the
// window background (ImGui's dark theme, about rgb(15,15,15)) so both a human
// and the screenshot test can tell added, removed and changed lines apart.
constexpr std::array<Entry, static_cast<size_t>(ColourRole::Count)> kPalette = {{
    {ColourRole::Text, "Text", {220, 220, 220, 255}},
    {ColourRole::TextDim, "TextDim", {128, 128, 128, 255}},
    {ColourRole::Keyword, "Keyword", {198, 120, 221, 255}},
    {ColourRole::GlobalName, "GlobalName", {97, 175, 239, 255}},
    {ColourRole::LocalName, "LocalName", {224, 178, 120, 255}},
    {ColourRole::OpName, "OpName", {86, 182, 194, 255}},
    {ColourRole::Number, "Number", {209, 154, 102, 255}},
    {ColourRole::String, "String", {152, 195, 121, 255}},
    {ColourRole::Comment, "Comment", {110, 118, 129, 255}},
    {ColourRole::TypeName, "TypeName", {229, 192, 123, 255}},
    {ColourRole::AttrKey, "AttrKey", {171, 178, 191, 255}},
    {ColourRole::WatchedAttr, "WatchedAttr", {255, 215, 0, 255}},
    {ColourRole::DiffAddedBg, "DiffAddedBg", {28, 72, 40, 255}},
    {ColourRole::DiffRemovedBg, "DiffRemovedBg", {92, 32, 36, 255}},
    {ColourRole::DiffChangedBg, "DiffChangedBg", {30, 52, 92, 255}},
    {ColourRole::DiffIntraline, "DiffIntraline", {52, 88, 150, 255}},
    {ColourRole::DiffFillerBg, "DiffFillerBg", {34, 34, 38, 255}},
    {ColourRole::DiffMovedBg, "DiffMovedBg", {44, 44, 62, 255}},
    {ColourRole::AttrChangeMarker, "AttrChangeMarker", {255, 140, 0, 255}},
    {ColourRole::SearchMatchBg, "SearchMatchBg", {120, 100, 20, 255}},
    {ColourRole::DiagnosticLineBg, "DiagnosticLineBg", {110, 40, 100, 255}},
    {ColourRole::EventChanged, "EventChanged", {120, 200, 120, 255}},
    {ColourRole::EventUnchanged, "EventUnchanged", {140, 140, 140, 255}},
    {ColourRole::EventSkipped, "EventSkipped", {200, 170, 80, 255}},
    {ColourRole::EventFailed, "EventFailed", {240, 90, 90, 255}},
    {ColourRole::EventPending, "EventPending", {90, 90, 100, 255}},
    {ColourRole::CursorBg, "CursorBg", {50, 70, 110, 255}},
    {ColourRole::TimingBar, "TimingBar", {70, 110, 170, 255}},
    {ColourRole::Breakpoint, "Breakpoint", {230, 60, 60, 255}},
    {ColourRole::SeverityError, "SeverityError", {240, 90, 90, 255}},
    {ColourRole::SeverityWarning, "SeverityWarning", {230, 190, 80, 255}},
    {ColourRole::SeverityNote, "SeverityNote", {120, 170, 230, 255}},
    {ColourRole::CellChangedBg, "CellChangedBg", {100, 70, 20, 255}},
    {ColourRole::ConflictBg, "ConflictBg", {110, 30, 30, 255}},
    {ColourRole::WindowBg, "WindowBg", {18, 19, 22, 255}},
}};

// The table is indexed by role; this catches an entry added out of order.
constexpr bool paletteInOrder() {
  for (size_t i = 0; i < kPalette.size(); ++i)
    if (static_cast<size_t>(kPalette[i].role) != i) return false;
  return true;
}
static_assert(paletteInOrder(), "kPalette must list the roles in enum order");

}  // namespace

Rgba colourOf(ColourRole role) {
  size_t i = static_cast<size_t>(role);
  return i < kPalette.size() ? kPalette[i].colour : Rgba{255, 0, 255, 255};
}

const char* colourRoleName(ColourRole role) {
  size_t i = static_cast<size_t>(role);
  return i < kPalette.size() ? kPalette[i].name : "?";
}

}  // namespace passlab::gui
