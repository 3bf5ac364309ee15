#include "gui/app/app.h"

#include <GL/gl.h>
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <csignal>
#include <cstdio>
#include <filesystem>

namespace passlab::gui {
namespace {

/// Set by SIGINT/SIGTERM: the frame loop ends normally, so imgui.ini is written
/// (session.json never waits for exit: it is saved on every change).
std::atomic<bool> terminateRequested{false};
extern "C" void onTerminateSignal(int) { terminateRequested.store(true); }

void glfwErrorCallback(int code, const char* description) {
  std::fprintf(stderr, "passlab-gui: GLFW error %d: %s\n", code, description);
}

// Installed before ImGui's GLFW backend, which chains to them: they only note
// that something happened, so the frame loop keeps drawing while the user acts.
GuiApp* appOf(GLFWwindow* w) { return static_cast<GuiApp*>(glfwGetWindowUserPointer(w)); }
void onKey(GLFWwindow* w, int, int, int, int) { appOf(w)->noteInput(); }
void onChar(GLFWwindow* w, unsigned) { appOf(w)->noteInput(); }
void onMouseButton(GLFWwindow* w, int, int, int) { appOf(w)->noteInput(); }
void onCursor(GLFWwindow* w, double, double) { appOf(w)->noteInput(); }
void onScroll(GLFWwindow* w, double, double) { appOf(w)->noteInput(); }
void onFocus(GLFWwindow* w, int) { appOf(w)->noteInput(); }
void onEnter(GLFWwindow* w, int) { appOf(w)->noteInput(); }
void onSize(GLFWwindow* w, int, int) { appOf(w)->noteInput(); }
// The window was uncovered or its contents lost: the next frame shows all of it.
void onRefresh(GLFWwindow* w) {
  appOf(w)->invalidatePicture();
  appOf(w)->noteInput();
}

/// The framebuffer height of the draw data being rendered (fillOpaqueRect's
/// callback turns ImGui's top-down clip rectangles into GL's bottom-up scissor).
int renderTargetHeight = 0;

/// fillOpaqueRect's callback: a scissored clear of the command's clip
/// rectangle. The backend sets the scissor again before its next draw call.
void clearClipRect(const ImDrawList*, const ImDrawCmd* cmd) {
  const ImVec4 r = cmd->ClipRect;
  if (r.z <= r.x || r.w <= r.y) return;
  const auto colour = static_cast<ImU32>(reinterpret_cast<uintptr_t>(cmd->UserCallbackData));
  const ImVec4 c = ImGui::ColorConvertU32ToFloat4(colour);
  glScissor(static_cast<int>(r.x), static_cast<int>(static_cast<float>(renderTargetHeight) - r.w), static_cast<int>(r.z - r.x),
            static_cast<int>(r.w - r.y));
  glClearColor(c.x, c.y, c.z, c.w);
  glClear(GL_COLOR_BUFFER_BIT);
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
  glfwSetWindowUserPointer(glfw_, this);
  glfwSetKeyCallback(glfw_, onKey);
  glfwSetCharCallback(glfw_, onChar);
  glfwSetMouseButtonCallback(glfw_, onMouseButton);
  glfwSetCursorPosCallback(glfw_, onCursor);
  glfwSetScrollCallback(glfw_, onScroll);
  glfwSetWindowFocusCallback(glfw_, onFocus);
  glfwSetCursorEnterCallback(glfw_, onEnter);
  glfwSetFramebufferSizeCallback(glfw_, onSize);
  glfwSetWindowRefreshCallback(glfw_, onRefresh);

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = iniPath_.c_str();
  applyStyle();
  loadFonts(15.f);
  MainWindow::installSettingsHandler(session_->view());
  ImGui_ImplGlfw_InitForOpenGL(glfw_, true);
  ImGui_ImplOpenGL3_Init("#version 130");
  setOpaqueFillCallback(clearClipRect);
  retained_.init(glfw_);
  imguiReady_ = true;
  window_ = std::make_unique<MainWindow>(*session_);
  // Layouts finish on a worker thread: wake the idle loop to show them.
  session_->setBackgroundWake([] { glfwPostEmptyEvent(); });
  // Long commands run on a worker thread while this one draws their progress bar.
  session_->setBusyPump([this] { busyFrame(); });

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
  const SessionOptions& cli = options_.session;
  if (!options_.modelPath.empty()) wanted.modelPath = options_.modelPath;
  if (cli.hasPipeline) wanted.pipeline = cli.pipeline;
  LoadOptions load;
  load.typeCheck = cli.typeCheck;
  applyPrintOptions(s.workbench(), cli);
  if (!wanted.modelPath.empty() || !wanted.pipeline.empty() || !wanted.breakpoints.empty())
    s.restore(wanted, true, cli.inputShapes, load);
  s.applyRunSettings(cli);
  for (const ConsoleLine& line : s.console().lines())
    if (line.kind == ConsoleLine::Kind::Error) std::fprintf(stderr, "passlab-gui: %s\n", line.text.c_str());
  s.enablePersistence();
}

namespace {
double msBetween(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}
double threadCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}
}  // namespace


void GuiApp::frame() {
  GuiSession& s = *session_;
  if (busyFrames_ > 0) {
    // Keys released while the bar's context was current never reached this
    // one: a step key would otherwise stay down and repeat the move.
    ImGuiIO& io = ImGui::GetIO();
    for (bool& down : io.KeysDown) down = false;
    io.KeyCtrl = io.KeyShift = io.KeyAlt = io.KeySuper = false;
  }
  busyFrames_ = 0;  // the next command's bar takes a new backdrop
  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = threadCpuMs();
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
  if (!fontFilterSet_) {
    // Glyphs are drawn 1:1 at whole-pixel positions, so nearest filtering gives
    // the same pixels as the backend's linear filter, and a software rasteriser
    // samples it several times faster.
    GLuint texture = static_cast<GLuint>(reinterpret_cast<intptr_t>(ImGui::GetIO().Fonts->TexID));
    if (texture != 0) {
      glBindTexture(GL_TEXTURE_2D, texture);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
      glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
      fontFilterSet_ = true;
    }
  }
  ImGui_ImplGlfw_NewFrame();
  if (beforeNewFrame) beforeNewFrame();
  ImGui::NewFrame();
  window_->draw();
  ImGui::Render();
  const auto t1 = std::chrono::steady_clock::now();
  timing_.uiCpuMs = threadCpuMs() - cpu0;
  int fbw = 0, fbh = 0;
  glfwGetFramebufferSize(glfw_, &fbw, &fbh);
  // The main window has no background of its own (see ColourRole::WindowBg).
  const Rgba bg = colourOf(ColourRole::WindowBg);
  renderTargetHeight = fbh;
  // Only what changed since the last frame is drawn again (retained_frame.h).
  retained_.render(ImGui::GetDrawData(), fbw, fbh, ImVec4(bg.r / 255.f, bg.g / 255.f, bg.b / 255.f, 1.f), ImGui_ImplOpenGL3_RenderDrawData);
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
  retained_.present(options_.vsync);
  timing_.uiMs = msBetween(t0, t1);
  timing_.renderMs = msBetween(t1, std::chrono::steady_clock::now());
  if (s.quitRequested()) finished_ = true;
}

void GuiApp::busyFrame() {
  GuiSession& s = *session_;
  int fbw = 0, fbh = 0;
  glfwGetFramebufferSize(glfw_, &fbw, &fbh);
  if (busyFrames_ == 0) {
    // The last frame the user saw is the bar's backdrop: the back buffer holds
    // it when frames are retained (never swapped); else the front buffer, which
    // a software renderer need not keep after a swap.
    if (!busyTexture_) glGenTextures(1, &busyTexture_);
    glBindTexture(GL_TEXTURE_2D, busyTexture_);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glReadBuffer(retained_.retained() ? GL_BACK : GL_FRONT);
    glCopyTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 0, 0, fbw, fbh, 0);
    glReadBuffer(GL_BACK);
    busyTextureW_ = fbw;
    busyTextureH_ = fbh;
    // The bar's frames are drawn whole and swapped: the next main frame too.
    retained_.invalidate();
  }
  ++busyFrames_;
  ImGuiContext* outer = ImGui::GetCurrentContext();
  if (!busyContext_) {
    busyContext_ = ImGui::CreateContext();
    ImGui::SetCurrentContext(busyContext_);
    ImGui::GetIO().IniFilename = nullptr;
    applyStyle();
    loadFonts(15.f);
    // The main context's backend owns GLFW's callbacks; they feed whichever
    // context is current, so this one gets the clicks of its own frames.
    ImGui_ImplGlfw_InitForOpenGL(glfw_, false);
    ImGui_ImplOpenGL3_Init("#version 130");
  }
  ImGui::SetCurrentContext(busyContext_);
  struct Restore {
    ImGuiContext* outer;
    ~Restore() { ImGui::SetCurrentContext(outer); }
  } restore{outer};
  glfwPollEvents();
  if (glfwWindowShouldClose(glfw_) || terminateRequested.load() || glfwGetKey(glfw_, GLFW_KEY_ESCAPE) == GLFW_PRESS) s.cancelLongCommand();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  drawProgressOverlay(s, reinterpret_cast<ImTextureID>(static_cast<intptr_t>(busyTexture_)),
                      ImVec2(static_cast<float>(busyTextureW_), static_cast<float>(busyTextureH_)));
  ImGui::Render();
  glViewport(0, 0, fbw, fbh);
  const Rgba bg = colourOf(ColourRole::WindowBg);
  glClearColor(bg.r / 255.f, bg.g / 255.f, bg.b / 255.f, 1.f);
  glClear(GL_COLOR_BUFFER_BIT);
  renderTargetHeight = fbh;
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  // A new ImGui window is hidden for its first frames while it sizes itself.
  if (std::string path = busyFrames_ >= 4 ? s.progress().takeScreenshotRequest() : std::string(); !path.empty()) {
    std::string error;
    if (!writeScreenshot(path, &error)) {
      std::fprintf(stderr, "passlab-gui: %s\n", error.c_str());
      exitStatus_ = 1;
    }
  }
  glfwSwapBuffers(glfw_);
}

bool GuiApp::done() const {
  return finished_ || terminateRequested.load() || (glfw_ && glfwWindowShouldClose(glfw_));
}

bool GuiApp::idle() const {
  if (script_ && !script_->finished()) return false;
  if (!options_.screenshotPath.empty() || options_.frames > 0) return false;
  if (!session_->screenshotRequests().empty()) return false;
  return frames_ - lastInputFrame_ > 5;
}

int GuiApp::run() {
  std::string error;
  if (!init(&error)) {
    std::fprintf(stderr, "passlab-gui: %s\n", error.c_str());
    return 1;
  }
  std::signal(SIGINT, onTerminateSignal);
  std::signal(SIGTERM, onTerminateSignal);
  while (!done()) {
    // Wake at least twice a second anyway (ImGui's blinking cursor, tooltips' delays).
    if (idle()) glfwWaitEventsTimeout(0.5);
    frame();
  }
  shutdown();
  return exitStatus_;
}

void GuiApp::shutdown() {
  setOpaqueFillCallback(nullptr);
  if (session_) {
    session_->setBackgroundWake(nullptr);
    session_->setBusyPump(nullptr);
  }
  if (busyContext_) {
    ImGuiContext* outer = ImGui::GetCurrentContext();
    ImGui::SetCurrentContext(busyContext_);
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext(busyContext_);
    busyContext_ = nullptr;
    ImGui::SetCurrentContext(outer);
  }
  if (busyTexture_ && glfw_) {
    glDeleteTextures(1, &busyTexture_);
    busyTexture_ = 0;
  }
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
