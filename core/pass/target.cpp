#include "core/pass/target.h"

#include <algorithm>
#include <cctype>

#include "core/ir/diagnostic.h"
#include "core/support/strings.h"

namespace passlab {

namespace {

[[noreturn]] void targetError(std::string_view text, const std::string& what) {
  Diagnostic d;
  d.message = "malformed target '" + std::string(text) + "': " + what;
  d.rule = "target";
  throw DiagnosticError(std::move(d));
}

/// Splits on whitespace outside double quotes; quotes are removed.
std::vector<std::string> tokenize(std::string_view text) {
  std::vector<std::string> tokens;
  std::string cur;
  bool inToken = false, quoted = false;
  for (char c : text) {
    if (c == '"') {
      quoted = !quoted;
      inToken = true;
      continue;
    }
    if (!quoted && std::isspace(static_cast<unsigned char>(c))) {
      if (inToken) tokens.push_back(cur);
      cur.clear();
      inToken = false;
      continue;
    }
    cur += c;
    inToken = true;
  }
  if (quoted) targetError(text, "unterminated quote");
  if (inToken) tokens.push_back(cur);
  return tokens;
}

bool isInteger(std::string_view s) {
  size_t i = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
  if (i == s.size() || s.size() - i > 18) return false;
  for (; i < s.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

AttrValue typedValue(const std::string& raw) {
  if (isInteger(raw)) return AttrValue::integer(std::stoll(raw));
  if (raw == "true") return AttrValue::boolean(true);
  if (raw == "false") return AttrValue::boolean(false);
  if (raw.find(',') != std::string::npos) {
    std::vector<AttrValue> items;
    for (std::string_view item : split(raw, ',')) items.push_back(AttrValue::string(std::string(item)));
    return AttrValue::array(std::move(items));
  }
  return AttrValue::string(raw);
}

std::string_view stripDashes(std::string_view key) {
  while (!key.empty() && key.front() == '-') key.remove_prefix(1);
  return key;
}

}  // namespace

TargetSpec parseTarget(std::string_view text) {
  TargetSpec spec;
  std::vector<std::string> tokens = tokenize(text);
  if (tokens.empty()) targetError(text, "empty target");
  if (tokens[0].empty() || tokens[0][0] == '-') targetError(text, "expected a target kind before '" + tokens[0] + "'");
  spec.kind = tokens[0];
  for (size_t i = 1; i < tokens.size(); ++i) {
    const std::string& tok = tokens[i];
    if (tok.empty() || tok[0] != '-') targetError(text, "expected '-key=value', got '" + tok + "'");
    size_t eq = tok.find('=');
    std::string key(stripDashes(std::string_view(tok).substr(0, eq)));
    if (key.empty()) targetError(text, "option without a name in '" + tok + "'");
    AttrValue value = eq == std::string::npos ? AttrValue::boolean(true) : typedValue(tok.substr(eq + 1));
    spec.options.set(std::move(key), std::move(value));
  }
  return spec;
}

std::span<const std::string_view> knownTargetKinds() {
  static constexpr std::string_view kKinds[] = {"c",      "composite", "cpu",    "cuda", "ext_dev", "hexagon", "host",  "hybrid",
                                                "llvm",   "metal",     "nvptx",  "opencl", "rocm",  "stackvm", "test", "vulkan",
                                                "webgpu"};
  return kKinds;
}

TargetSpec parseKnownTarget(std::string_view text) {
  TargetSpec spec = parseTarget(text);
  std::span<const std::string_view> kinds = knownTargetKinds();
  if (std::find(kinds.begin(), kinds.end(), spec.kind) == kinds.end()) {
    std::string known;
    for (std::string_view k : kinds) known += (known.empty() ? "" : ", ") + std::string(k);
    Diagnostic d;
    d.message = "unknown target kind '" + spec.kind + "' in target '" + std::string(text) + "'; known kinds: " + known;
    d.rule = "target";
    throw DiagnosticError(std::move(d));
  }
  return spec;
}

std::optional<AttrValue> targetOption(const TargetSpec& target, std::string_view key) {
  key = stripDashes(key);
  if (key == "kind") return AttrValue::string(target.kind);
  if (const AttrValue* v = target.options.find(key)) return *v;
  return std::nullopt;
}

}  // namespace passlab
