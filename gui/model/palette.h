// The GUI's colours as semantic roles. View models say *what* a row or token
// is (added line, failed event, watched attribute, ...); the palette says what
// colour that is. Kept free of ImGui so tests can check colours without a
// display, and so the screenshot test can look for the exact diff colours.
#pragma once

#include <cstdint>

namespace passlab::gui {

/// An 8-bit sRGB colour with alpha.
struct Rgba {
  uint8_t r = 0, g = 0, b = 0, a = 255;
  /// Exact equality (tests compare palette entries and screenshot pixels).
  friend bool operator==(const Rgba&, const Rgba&) = default;
};

/// What a colour means. Every colour the panels draw comes from one of these.
enum class ColourRole : uint8_t {
  // Text and syntax.
  Text,
  TextDim,
  Keyword,
  GlobalName,
  LocalName,
  OpName,
  Number,
  String,
  Comment,
  TypeName,
  AttrKey,
  /// Compiler, Extern, Inline, Primitive, global_symbol, target, link_params, phase.
  WatchedAttr,
  // Diff backgrounds (opaque, so the screenshot test finds them pixel-exact).
  DiffAddedBg,
  DiffRemovedBg,
  DiffChangedBg,
  /// The changed part inside a changed line.
  DiffIntraline,
  /// Empty filler on the side of an added/removed line.
  DiffFillerBg,
  /// A line the pass only moved (FuseOps' regrouping): muted, not a change.
  DiffMovedBg,
  /// Marker of a watched attribute that changed at the event.
  AttrChangeMarker,
  SearchMatchBg,
  /// The line a diagnostic points at.
  DiagnosticLineBg,
  // Events.
  EventChanged,
  EventUnchanged,
  EventSkipped,
  EventFailed,
  EventPending,
  CursorBg,
  TimingBar,
  Breakpoint,
  // Diagnostics.
  SeverityError,
  SeverityWarning,
  SeverityNote,
  // Tables.
  CellChangedBg,
  ConflictBg,
  /// The window background. The app clears the framebuffer to it and the main
  /// window draws no background of its own: with a software rasteriser every
  /// full-screen layer saved is frame time saved.
  WindowBg,
  Count,
};

/// The colour of a role in passlab's dark theme.
Rgba colourOf(ColourRole role);

/// The name of a role, for tests and debugging ("DiffAddedBg").
const char* colourRoleName(ColourRole role);

}  // namespace passlab::gui
