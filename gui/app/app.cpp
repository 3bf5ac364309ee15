#include "gui/app/app.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <cstdio>
#include <filesystem>

namespace passlab::gui {
namespace {

void glfwErrorCallback(int code, const char* description) {
  std::fprintf(stderr, "passlab-gui: GLFW error %d: %s\n", code, description);
}

}  // namespace

GuiApp::GuiApp(AppOptions options) : options_(std::move(options)) {}

GuiApp::~GuiApp() { shutdown(); }

bool GuiApp::init(std::string* error) {
  std::filesystem::path stateDir = options_.stateDir.empty() ? SessionStore::defaultDirectory()
                                                             : std::filesystem::path(options_.stateDir);
  session_ = std::make_unique<GuiSession>(SessionStore(stateDir / "session.json"));
  std::error_code ec;
  std::filesystem::create_directories(stateDir, ec);
  iniPath_ = (stateDir / "imgui.ini").string();

  glfwSetErrorCallback(glfwErrorCallback);
  if (!glfwInit()) {
    if (error) *error = "cannot initialise GLFW (is there a display? try xvfb-run)";
    return false;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  glfw_ = glfwCreateWindow(options_.width, options_.height, "passlab", nullptr, nullptr);
  if (!glfw_) {
    if (error) *error = "cannot create an OpenGL 3 window";
    glfwTerminate();
    return false;
  }
  glfwMakeContextCurrent(glfw_);
  glfwSwapInterval(options_.vsync ? 1 : 0);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = iniPath_.c_str();
  applyStyle();
  loadFonts(15.f);
  MainWindow::installSettingsHandler(session_->view());
  ImGui_ImplGlfw_InitForOpenGL(glfw_, true);
  ImGui_ImplOpenGL3_Init("#version 130");
  imguiReady_ = true;
  window_ = std::make_unique<MainWindow>(*session_);

  restoreAtStart();
  if (!options_.scriptPath.empty()) script_ = ScriptRunner::fromFile(options_.scriptPath);
  return true;
}

void GuiApp::restoreAtStart() {
  GuiSession& s = *session_;
  SavedSession wanted;
  if (!options_.noRestore && s.store()) {
    std::string error;
    if (auto saved = s.store()->load(&error))
      wanted = *saved;
    else if (!error.empty())
      s.console().log(ConsoleLine::Kind::Error, "session not restored: " + error);
  }
  // The command line overrides what was saved.
  if (!options_.modelPath.empty()) wanted.modelPath = options_.modelPath;
  if (options_.pipeline) wanted.pipeline = *options_.pipeline;
  if (!wanted.modelPath.empty() || !wanted.pipeline.empty() || !wanted.breakpoints.empty()) s.restore(wanted, true);
  for (const ConsoleLine& line : s.console().lines())
    if (line.kind == ConsoleLine::Kind::Error) std::fprintf(stderr, "passlab-gui: %s\n", line.text.c_str());
  s.enablePersistence();
}

void GuiApp::frame() {
  GuiSession& s = *session_;
  glfwPollEvents();
  if (script_ && !script_->finished()) {
    script_->tick(s);
    if (script_->finished()) {
      scriptDoneFrame_ = frames_;
      if (script_->failed()) {
        std::fprintf(stderr, "passlab-gui: %s\n", script_->message().c_str());
        exitStatus_ = 1;
      }
    }
  }
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  if (beforeNewFrame) beforeNewFrame();
  ImGui::NewFrame();
  window_->draw();
  ImGui::Render();
  int fbw = 0, fbh = 0;
  glfwGetFramebufferSize(glfw_, &fbw, &fbh);
  glViewport(0, 0, fbw, fbh);
  glClearColor(0.06f, 0.06f, 0.07f, 1.f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  ++frames_;

  // Screenshots read the back buffer now, before the swap makes it undefined.
  for (const std::string& path : s.screenshotRequests()) {
    std::string error;
    if (!writeScreenshot(path, &error)) {
      std::fprintf(stderr, "passlab-gui: %s\n", error.c_str());
      exitStatus_ = 1;
    }
  }
  s.screenshotRequests().clear();
  const bool scriptDone = !script_ || script_->finished();
  // A few frames after the script let scroll requests and layout settle.
  const int settle = scriptDone ? (scriptDoneFrame_ < 0 ? 0 : scriptDoneFrame_) + 3 : -1;
  if (!options_.screenshotPath.empty() && scriptDone) {
    int target = std::max(options_.frames, settle);
    if (frames_ >= target) {
      std::string error;
      if (!writeScreenshot(options_.screenshotPath, &error)) {
        std::fprintf(stderr, "passlab-gui: %s\n", error.c_str());
        exitStatus_ = 1;
      }
      finished_ = true;
    }
  } else if (options_.screenshotPath.empty() && options_.frames > 0 && scriptDone && frames_ >= std::max(options_.frames, settle)) {
    finished_ = true;
  }
  glfwSwapBuffers(glfw_);
  if (s.quitRequested()) finished_ = true;
}

bool GuiApp::done() const { return finished_ || (glfw_ && glfwWindowShouldClose(glfw_)); }

int GuiApp::run() {
  std::string error;
  if (!init(&error)) {
    std::fprintf(stderr, "passlab-gui: %s\n", error.c_str());
    return 1;
  }
  while (!done()) frame();
  shutdown();
  return exitStatus_;
}

void GuiApp::shutdown() {
  if (imguiReady_) {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    // DestroyContext writes imgui.ini (layout, open panels) one last time.
    ImGui::DestroyContext();
    imguiReady_ = false;
  }
  if (glfw_) {
    glfwDestroyWindow(glfw_);
    glfw_ = nullptr;
    glfwTerminate();
  }
}

}  // namespace passlab::gui
