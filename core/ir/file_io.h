// Reading whole input files. Every place that reads a file the user named
// (models, scripts, edits, reproducers, the GUI's Open) goes through
// readRegularFile, so a directory or a special file (/dev/zero, a FIFO) where
// a file is expected is an error, not an empty input or a hang.
#pragma once

#include <optional>
#include <string>

namespace passlab {

/// Why `path` cannot be read as a regular file ("it is a directory", "it is
/// not a regular file", "no such file or directory", ...), or nullopt when it can.
std::optional<std::string> unreadableFileReason(const std::string& path);

/// The whole contents of the regular file `path`. Throws DiagnosticError
/// (rule "io"): "cannot read file 'PATH'" for a missing or unreadable file,
/// "cannot read file 'PATH': it is a directory" and the like for the rest.
std::string readRegularFile(const std::string& path);

}  // namespace passlab
