#include "core/ir/file_io.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/ir/diagnostic.h"

namespace passlab {

namespace {
/// Set when the path exists but is no regular file: the reason is worth a clause.
std::optional<std::string> notRegular(const struct stat& st) {
  if (S_ISDIR(st.st_mode)) return "it is a directory";
  if (!S_ISREG(st.st_mode)) return "it is not a regular file";
  return std::nullopt;
}
}  // namespace

std::optional<std::string> unreadableFileReason(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::string(std::strerror(errno));
  if (std::optional<std::string> why = notRegular(st)) return why;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::string("permission denied or unreadable");
  return std::nullopt;
}

std::string readRegularFile(const std::string& path) {
  auto fail = [&](const std::string& suffix) {
    Diagnostic d;
    d.message = "cannot read file '" + path + "'" + suffix;
    d.rule = "io";
    throw DiagnosticError(std::move(d));
  };
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0)
    if (std::optional<std::string> why = notRegular(st)) fail(": " + *why);
  std::ifstream in(path, std::ios::binary);
  if (!in) fail("");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) fail(": a read error");
  return std::move(buffer).str();
}

}  // namespace passlab
