// What the GUI must never lose: the loaded model's path, the pipeline and the
// breakpoints. Saved as JSON every time one of them changes (written to a
// temporary file and renamed, so a crash or kill mid-write leaves the previous
// file intact) and restored at start.
//
// Location: the directory $PASSLAB_GUI_STATE when set, else
// $XDG_CONFIG_HOME/passlab, else ~/.config/passlab; the file is session.json
// (imgui.ini with the window layout sits next to it).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/workbench/break_kind.h"
#include "core/workbench/workbench.h"

namespace passlab::gui {

/// One saved breakpoint.
struct SavedBreakpoint {
  BreakKind kind = BreakKind::Pass;
  std::string pattern;
  bool enabled = true;
  friend bool operator==(const SavedBreakpoint&, const SavedBreakpoint&) = default;
};

/// The persistent part of a session.
struct SavedSession {
  /// Absolute path of the loaded model ("" when none).
  std::string modelPath;
  /// Pipeline text ("" when none).
  std::string pipeline;
  std::vector<SavedBreakpoint> breakpoints;
  friend bool operator==(const SavedSession&, const SavedSession&) = default;
};

/// The session as JSON text.
std::string sessionToJson(const SavedSession& session);
/// Parses sessionToJson's output; on malformed text returns nullopt and sets `error`.
std::optional<SavedSession> sessionFromJson(std::string_view text, std::string* error = nullptr);

/// What the workbench holds now (the model path made absolute when it names a file).
SavedSession captureSession(const Workbench& wb);

/// Restores `session` into `wb`: loads the model (unless `loadModel` is false),
/// sets the pipeline, adds the breakpoints. Each part that fails is skipped and
/// described in the returned messages (a moved model file must not lose the
/// pipeline and breakpoints).
/// `inputShapes` (NAME=D0,... as passlab's --input-shape) and `load` apply to the model.
std::vector<std::string> restoreSession(Workbench& wb, const SavedSession& session, bool loadModel = true,
                                        const std::vector<std::string>& inputShapes = {}, const LoadOptions& load = {});

/// The file a session lives in.
class SessionStore {
 public:
  /// A store writing `file`.
  explicit SessionStore(std::filesystem::path file) : file_(std::move(file)) {}
  /// The state directory described at the top of this header.
  static std::filesystem::path defaultDirectory();
  /// The saved session, or nullopt when there is none or it cannot be read
  /// (`error` says why when the file exists but is broken).
  std::optional<SavedSession> load(std::string* error = nullptr) const;
  /// Writes `session` if it differs from what this store last wrote; returns
  /// false (with `error`) when the file cannot be written.
  bool save(const SavedSession& session, std::string* error = nullptr);
  /// The file.
  const std::filesystem::path& file() const { return file_; }
  /// How many times the file was actually written.
  int writes() const { return writes_; }

 private:
  std::filesystem::path file_;
  std::optional<SavedSession> lastWritten_;
  int writes_ = 0;
};

}  // namespace passlab::gui
