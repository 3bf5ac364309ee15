// The console: REPL commands inside the GUI, with history and TAB completion.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <string>

#include "gui/panels/panels.h"

namespace passlab::gui {
namespace {

/// What the input callback needs: the console model and a place for candidates.
struct InputCallbackState {
  ConsoleModel* console;
  std::vector<std::string> candidates;
};

int inputCallback(ImGuiInputTextCallbackData* data) {
  auto* state = static_cast<InputCallbackState*>(data->UserData);
  std::string current(data->Buf, static_cast<size_t>(data->BufTextLen));
  std::string replacement;
  size_t cursor = 0;
  if (data->EventFlag == ImGuiInputTextFlags_CallbackCompletion) {
    CompletionEdit edit = state->console->complete(current, static_cast<size_t>(data->CursorPos));
    state->candidates = edit.candidates;
    replacement = edit.line;
    cursor = edit.cursor;
  } else if (data->EventFlag == ImGuiInputTextFlags_CallbackHistory) {
    replacement = data->EventKey == ImGuiKey_UpArrow ? state->console->historyPrevious(current)
                                                     : state->console->historyNext();
    cursor = replacement.size();
  } else {
    return 0;
  }
  if (replacement != current) {
    data->DeleteChars(0, data->BufTextLen);
    data->InsertChars(0, replacement.c_str());
  }
  data->CursorPos = data->SelectionStart = data->SelectionEnd = static_cast<int>(cursor);
  return 0;
}

ColourRole roleOf(ConsoleLine::Kind kind) {
  switch (kind) {
    case ConsoleLine::Kind::Echo: return ColourRole::GlobalName;
    case ConsoleLine::Kind::Output: return ColourRole::Text;
    case ConsoleLine::Kind::Error: return ColourRole::SeverityError;
  }
  return ColourRole::Text;
}

}  // namespace

void ConsolePanel::draw(GuiSession& session) {
  ConsoleModel& console = session.console();
  const float inputHeight = ImGui::GetFrameHeightWithSpacing();
  ImGui::BeginChild("##scrollback", ImVec2(0, -inputHeight), false, ImGuiWindowFlags_HorizontalScrollbar);
  const auto& lines = console.lines();
  const bool atBottom = ImGui::GetScrollY() >= ImGui::GetScrollMaxY() - 1.f;
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(lines.size()));
  while (clipper.Step())
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const ConsoleLine& line = lines[static_cast<size_t>(i)];
      textColoured(roleOf(line.kind), line.text.empty() ? std::string_view(" ") : std::string_view(line.text));
    }
  // Follow new output unless the user scrolled up to read something.
  if (console.revision() != seenRevision_) {
    if (atBottom || seenRevision_ == 0) ImGui::SetScrollHereY(1.f);
    seenRevision_ = console.revision();
  }
  ImGui::EndChild();

  InputCallbackState state{&console, {}};
  ImGui::TextUnformatted(CommandInterpreter::kPrompt);
  ImGui::SameLine(0, 0);
  ImGui::SetNextItemWidth(-1);
  if (focusInput_) {
    ImGui::SetKeyboardFocusHere();
    focusInput_ = false;
  }
  const ImGuiInputTextFlags flags =
      ImGuiInputTextFlags_EnterReturnsTrue | ImGuiInputTextFlags_CallbackCompletion | ImGuiInputTextFlags_CallbackHistory;
  if (ImGui::InputText("##input", &input_, flags, inputCallback, &state)) {
    std::string line = input_;
    input_.clear();
    session.runCommand(line, /*userTyped=*/true);
    focusInput_ = true;  // keep typing after Enter
  }
  if (!state.candidates.empty()) {
    std::string list;
    for (const std::string& c : state.candidates) list += c + "  ";
    console.log(ConsoleLine::Kind::Output, list);
  }
}

}  // namespace passlab::gui
