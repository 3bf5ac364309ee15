#include "gui/model/session_store.h"

#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <unistd.h>

#include "core/trace/trace_json.h"
#include "repl/model_files.h"

namespace passlab::gui {

std::string sessionToJson(const SavedSession& session) {
  std::string out = "{\n  \"version\": 1,\n  \"model\": " + jsonString(session.modelPath) +
                    ",\n  \"pipeline\": " + jsonString(session.pipeline) + ",\n  \"breakpoints\": [";
  for (size_t i = 0; i < session.breakpoints.size(); ++i) {
    const SavedBreakpoint& bp = session.breakpoints[i];
    out += std::string(i ? "," : "") + "\n    {\"kind\": " + jsonString(breakKindName(bp.kind)) +
           ", \"pattern\": " + jsonString(bp.pattern) + ", \"enabled\": " + (bp.enabled ? "true" : "false") + "}";
  }
  out += session.breakpoints.empty() ? "]\n}\n" : "\n  ]\n}\n";
  return out;
}

namespace {

/// Just enough JSON to read the session file back: objects, arrays, strings,
/// booleans, null and numbers (numbers are skipped; the session has none it needs).
struct JsonValue {
  enum class Kind { Null, Bool, Number, String, Array, Object } kind = Kind::Null;
  bool boolean = false;
  std::string string;
  std::vector<JsonValue> array;
  std::map<std::string, JsonValue> object;
};

class JsonReader {
 public:
  explicit JsonReader(std::string_view text) : s_(text) {}
  JsonValue parseDocument() {
    JsonValue v = parseValue(0);
    skipSpace();
    if (i_ != s_.size()) fail("unexpected text after the document");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(what + " at offset " + std::to_string(i_));
  }
  void skipSpace() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t')) ++i_;
  }
  bool consume(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) return false;
    i_ += word.size();
    return true;
  }
  JsonValue parseValue(int depth) {
    if (depth > 64) fail("nesting too deep");
    skipSpace();
    if (i_ >= s_.size()) fail("unexpected end");
    JsonValue v;
    char c = s_[i_];
    if (c == '{') {
      v.kind = JsonValue::Kind::Object;
      ++i_;
      skipSpace();
      if (i_ < s_.size() && s_[i_] == '}') return ++i_, v;
      while (true) {
        skipSpace();
        if (i_ >= s_.size() || s_[i_] != '"') fail("expected a key");
        std::string key = parseString();
        skipSpace();
        if (!consume(":")) fail("expected ':'");
        v.object[key] = parseValue(depth + 1);
        skipSpace();
        if (consume(",")) continue;
        if (consume("}")) return v;
        fail("expected ',' or '}'");
      }
    }
    if (c == '[') {
      v.kind = JsonValue::Kind::Array;
      ++i_;
      skipSpace();
      if (i_ < s_.size() && s_[i_] == ']') return ++i_, v;
      while (true) {
        v.array.push_back(parseValue(depth + 1));
        skipSpace();
        if (consume(",")) continue;
        if (consume("]")) return v;
        fail("expected ',' or ']'");
      }
    }
    if (c == '"') {
      v.kind = JsonValue::Kind::String;
      v.string = parseString();
      return v;
    }
    if (consume("true")) {
      v.kind = JsonValue::Kind::Bool;
      v.boolean = true;
      return v;
    }
    if (consume("false")) {
      v.kind = JsonValue::Kind::Bool;
      return v;
    }
    if (consume("null")) return v;
    if (c == '-' || (c >= '0' && c <= '9')) {
      v.kind = JsonValue::Kind::Number;
      while (i_ < s_.size() && std::string_view("+-0123456789.eE").find(s_[i_]) != std::string_view::npos) ++i_;
      return v;
    }
    fail("unexpected character");
  }
  std::string parseString() {
    ++i_;  // opening quote
    std::string out;
    while (i_ < s_.size() && s_[i_] != '"') {
      char c = s_[i_++];
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= s_.size()) fail("unterminated escape");
      char e = s_[i_++];
      switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'u': {
          if (i_ + 4 > s_.size()) fail("short \\u escape");
          unsigned code = static_cast<unsigned>(std::strtoul(std::string(s_.substr(i_, 4)).c_str(), nullptr, 16));
          i_ += 4;
          // Paths and pass names are ASCII in practice; encode the BMP as UTF-8.
          if (code < 0x80) {
            out += static_cast<char>(code);
          } else if (code < 0x800) {
            out += static_cast<char>(0xC0 | (code >> 6));
            out += static_cast<char>(0x80 | (code & 0x3F));
          } else {
            out += static_cast<char>(0xE0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (code & 0x3F));
          }
          break;
        }
        default: out += e; break;  // \" \\ \/
      }
    }
    if (i_ >= s_.size()) fail("unterminated string");
    ++i_;
    return out;
  }

  std::string_view s_;
  size_t i_ = 0;
};

const JsonValue* member(const JsonValue& obj, const std::string& key, JsonValue::Kind kind) {
  auto it = obj.object.find(key);
  return it != obj.object.end() && it->second.kind == kind ? &it->second : nullptr;
}

}  // namespace

std::optional<SavedSession> sessionFromJson(std::string_view text, std::string* error) {
  try {
    JsonValue doc = JsonReader(text).parseDocument();
    if (doc.kind != JsonValue::Kind::Object) throw std::runtime_error("the session is not a JSON object");
    SavedSession s;
    if (const JsonValue* v = member(doc, "model", JsonValue::Kind::String)) s.modelPath = v->string;
    if (const JsonValue* v = member(doc, "pipeline", JsonValue::Kind::String)) s.pipeline = v->string;
    if (const JsonValue* list = member(doc, "breakpoints", JsonValue::Kind::Array)) {
      for (const JsonValue& item : list->array) {
        const JsonValue* kind = member(item, "kind", JsonValue::Kind::String);
        const JsonValue* pattern = member(item, "pattern", JsonValue::Kind::String);
        if (!kind || !pattern) throw std::runtime_error("a breakpoint needs \"kind\" and \"pattern\"");
        auto k = breakKindFromName(kind->string);
        if (!k) throw std::runtime_error("unknown breakpoint kind \"" + kind->string + "\"");
        const JsonValue* enabled = member(item, "enabled", JsonValue::Kind::Bool);
        s.breakpoints.push_back(SavedBreakpoint{*k, pattern->string, enabled ? enabled->boolean : true});
      }
    }
    return s;
  } catch (const std::exception& e) {
    if (error) *error = e.what();
    return std::nullopt;
  }
}

SavedSession captureSession(const Workbench& wb) {
  SavedSession s;
  if (wb.loaded()) {
    std::error_code ec;
    std::filesystem::path p(wb.sourceName());
    s.modelPath = std::filesystem::is_regular_file(p, ec) ? std::filesystem::absolute(p, ec).lexically_normal().string()
                                                          : wb.sourceName();
  }
  s.pipeline = wb.pipelineSpec();
  for (const Breakpoint& bp : wb.breakpoints()) s.breakpoints.push_back(SavedBreakpoint{bp.kind, bp.pattern, bp.enabled});
  return s;
}

std::vector<std::string> restoreSession(Workbench& wb, const SavedSession& session, bool loadModel,
                                        const std::vector<std::string>& inputShapes, const LoadOptions& load) {
  std::vector<std::string> messages;
  auto attempt = [&](const std::string& what, auto&& action) {
    try {
      action();
    } catch (const DiagnosticError& e) {
      messages.push_back("could not restore " + what + ": " + e.diagnostics().front().message);
    } catch (const std::exception& e) {
      messages.push_back("could not restore " + what + ": " + e.what());
    }
  };
  if (loadModel && !session.modelPath.empty())
    attempt("the model " + session.modelPath, [&] {
      LoadModelOptions model;
      for (const std::string& binding : inputShapes) addInputShapeBinding(binding, model.onnx);
      loadModelInto(wb, session.modelPath, load, model);
    });
  if (!session.pipeline.empty()) attempt("the pipeline", [&] { wb.setPipeline(session.pipeline); });
  for (const SavedBreakpoint& bp : session.breakpoints) {
    attempt("breakpoint '" + std::string(breakKindName(bp.kind)) + " " + bp.pattern + "'", [&] {
      int id = wb.addBreakpoint(bp.kind, bp.pattern);
      if (!bp.enabled) wb.enableBreakpoint(id, false);
    });
  }
  return messages;
}

std::filesystem::path SessionStore::defaultDirectory() {
  if (const char* dir = std::getenv("PASSLAB_GUI_STATE"); dir && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return std::filesystem::path(xdg) / "passlab";
  if (const char* home = std::getenv("HOME"); home && *home) return std::filesystem::path(home) / ".config" / "passlab";
  return std::filesystem::current_path() / ".passlab";
}

std::optional<SavedSession> SessionStore::load(std::string* error) const {
  std::ifstream in(file_, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream buf;
  buf << in.rdbuf();
  auto session = sessionFromJson(buf.str(), error);
  if (!session && error) *error = file_.string() + ": " + *error;
  return session;
}

bool SessionStore::save(const SavedSession& session, std::string* error) {
  if (lastWritten_ && *lastWritten_ == session) return true;
  std::error_code ec;
  std::filesystem::create_directories(file_.parent_path(), ec);
  // Write beside the target and rename: rename is atomic, so the file is always
  // either the old session or the new one, never half of each.
  std::filesystem::path tmp = file_;
  tmp += ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << sessionToJson(session);
    out.flush();
    if (!out) {
      if (error) *error = "cannot write " + tmp.string();
      std::filesystem::remove(tmp, ec);
      return false;
    }
  }
  std::filesystem::rename(tmp, file_, ec);
  if (ec) {
    if (error) *error = "cannot replace " + file_.string() + ": " + ec.message();
    std::filesystem::remove(tmp, ec);
    return false;
  }
  lastWritten_ = session;
  ++writes_;
  return true;
}

}  // namespace passlab::gui
