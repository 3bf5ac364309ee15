// Terminal styling for command output: ANSI colours and Unicode markers only
// when writing to a terminal (and never with NO_COLOR), so scripts, pipes,
// transcripts and the GUI console get plain text.
#pragma once

#include <string>
#include <string_view>

namespace passlab {

/// How command output is decorated.
struct Style {
  /// Emit ANSI colour escapes.
  bool colour = false;
  /// Use Unicode markers (●, ○, ⊘, ✗) instead of ASCII (*, =, -, !).
  bool unicode = false;

  /// Plain text: no colour, ASCII markers (scripts, tests, the GUI console).
  static Style plain() { return {}; }
  /// Decoration for a stream: colour and Unicode when `fd` is a terminal,
  /// colour off when NO_COLOR is set (https://no-color.org), Unicode only in a UTF-8 locale.
  static Style forTerminal(int fd);

  std::string red(std::string_view s) const { return wrap("31", s); }
  std::string green(std::string_view s) const { return wrap("32", s); }
  std::string yellow(std::string_view s) const { return wrap("33", s); }
  std::string cyan(std::string_view s) const { return wrap("36", s); }
  std::string bold(std::string_view s) const { return wrap("1", s); }
  std::string dim(std::string_view s) const { return wrap("2", s); }

 private:
  std::string wrap(std::string_view code, std::string_view s) const {
    if (!colour || s.empty()) return std::string(s);
    return "\x1b[" + std::string(code) + "m" + std::string(s) + "\x1b[0m";
  }
};

}  // namespace passlab
