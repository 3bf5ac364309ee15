// passlab-gui: command-line entry point; the work is in GuiApp.
#include <cstdio>
#include <string>
#include <vector>

#include "gui/app/app.h"
#include "gui/model/app_options.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  std::string error;
  auto options = passlab::gui::parseAppOptions(args, &error);
  if (!options) {
    std::fprintf(stderr, "passlab-gui: error: %s\n%s", error.c_str(), passlab::gui::appUsage().c_str());
    return 2;
  }
  if (options->help) {
    std::fputs(passlab::gui::appUsage().c_str(), stdout);
    return 0;
  }
  passlab::gui::GuiApp app(*options);
  return app.run();
}
