#include "gui/model/app_options.h"

#include <charconv>

namespace passlab::gui {

std::string appUsage() {
  return "usage: passlab-gui [FILE] [options passlab takes, below] [--script FILE] [--screenshot OUT.png]\n"
         "                   [--frames N] [--size WxH] [--state-dir DIR] [--no-restore] [--no-vsync]\n"
         "  FILE              model to load: Relay text, TVMScript or .onnx (default: the last session's)\n"
         "options shared with passlab (each takes --name=VALUE or --name VALUE; the pipeline is set, not run):\n" +
         sessionOptionsUsage() +
         "GUI options:\n"
         "  --script FILE     REPL commands (and `gui ...` commands), one per frame\n"
         "  --screenshot OUT  after the frames (and the script), write the window to OUT (PNG) and exit\n"
         "  --frames N        frames to draw before the screenshot or exit\n"
         "  --size WxH        window size (default 1600x1000)\n"
         "  --state-dir DIR   where session.json and imgui.ini live (default $PASSLAB_GUI_STATE,\n"
         "                    else $XDG_CONFIG_HOME/passlab, else ~/.config/passlab)\n"
         "  --no-restore      start without the saved model, pipeline and breakpoints\n"
         "Keys: F10 step over, F11 step in, Shift+F11 step out, F5 run, Backspace/Alt+Left back, Ctrl+F search.\n";
}

namespace {

bool parseInt(const std::string& text, int* out) {
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && end == text.data() + text.size();
}

}  // namespace

std::optional<AppOptions> parseAppOptions(const std::vector<std::string>& args, std::string* error) {
  AppOptions o;
  auto fail = [&](std::string message) -> std::optional<AppOptions> {
    if (error) *error = std::move(message);
    return std::nullopt;
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    // Both `--opt=value` and `--opt value`.
    auto value = [&](const std::string& name, std::string* out) -> bool {
      if (a == name) {
        if (i + 1 >= args.size()) return false;
        *out = args[++i];
        return true;
      }
      if (a.rfind(name + "=", 0) == 0) {
        *out = a.substr(name.size() + 1);
        return true;
      }
      return false;
    };
    auto is = [&](const std::string& name) { return a == name || a.rfind(name + "=", 0) == 0; };
    std::string v, shared;
    switch (parseSessionOption(args, i, o.session, &shared)) {
      case OptionParse::Taken: continue;
      case OptionParse::Error: return fail(shared);
      case OptionParse::NotMine: break;
    }
    if (a == "-h" || a == "--help") {
      o.help = true;
    } else if (is("--script")) {
      if (!value("--script", &o.scriptPath)) return fail("--script needs a file");
    } else if (is("--screenshot")) {
      if (!value("--screenshot", &o.screenshotPath)) return fail("--screenshot needs a file");
    } else if (is("--state-dir")) {
      if (!value("--state-dir", &o.stateDir)) return fail("--state-dir needs a directory");
    } else if (is("--frames")) {
      if (!value("--frames", &v) || !parseInt(v, &o.frames) || o.frames < 1)
        return fail("--frames needs a positive number, got '" + v + "'");
    } else if (is("--size")) {
      if (!value("--size", &v)) return fail("--size needs WxH");
      size_t x = v.find('x');
      if (x == std::string::npos || !parseInt(v.substr(0, x), &o.width) || !parseInt(v.substr(x + 1), &o.height) ||
          o.width < 200 || o.height < 150 || o.width > 16384 || o.height > 16384)
        return fail("--size needs WxH with W >= 200 and H >= 150, got '" + v + "'");
    } else if (a == "--no-restore") {
      o.noRestore = true;
    } else if (a == "--no-vsync") {
      o.vsync = false;
    } else if (!a.empty() && a[0] == '-') {
      return fail("unknown option '" + a + "'");
    } else if (o.modelPath.empty()) {
      o.modelPath = a;
    } else {
      return fail("more than one model file ('" + o.modelPath + "' and '" + a + "')");
    }
  }
  return o;
}

}  // namespace passlab::gui
