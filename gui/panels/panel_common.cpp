#include "gui/panels/panel_common.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace passlab::gui {

void textColoured(ColourRole role, std::string_view text) {
  ImGui::PushStyleColor(ImGuiCol_Text, imColour(role));
  ImGui::TextUnformatted(text.data(), text.data() + text.size());
  ImGui::PopStyleColor();
}

bool splitter(const char* id, bool vertical, float total, float* size, float minSize, float thickness) {
  ImVec2 barSize = vertical ? ImVec2(thickness, ImGui::GetContentRegionAvail().y) : ImVec2(-1, thickness);
  if (!vertical) barSize.x = ImGui::GetContentRegionAvail().x;
  ImGui::InvisibleButton(id, barSize);
  bool active = ImGui::IsItemActive();
  bool hovered = ImGui::IsItemHovered();
  if (hovered || active) ImGui::SetMouseCursor(vertical ? ImGuiMouseCursor_ResizeEW : ImGuiMouseCursor_ResizeNS);
  if (active) {
    float delta = vertical ? ImGui::GetIO().MouseDelta.x : ImGui::GetIO().MouseDelta.y;
    *size += delta;
  }
  *size = std::clamp(*size, minSize, std::max(minSize, total - minSize - thickness));
  ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
  ImGuiCol col = active ? ImGuiCol_SeparatorActive : hovered ? ImGuiCol_SeparatorHovered : ImGuiCol_Separator;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  if (vertical) {
    float x = (a.x + b.x) * 0.5f;
    dl->AddLine(ImVec2(x, a.y), ImVec2(x, b.y), ImGui::GetColorU32(col), active || hovered ? 3.f : 1.f);
  } else {
    float y = (a.y + b.y) * 0.5f;
    dl->AddLine(ImVec2(a.x, y), ImVec2(b.x, y), ImGui::GetColorU32(col), active || hovered ? 3.f : 1.f);
  }
  return active;
}

namespace {
ImDrawCallback opaqueFill = nullptr;
}  // namespace

void setOpaqueFillCallback(ImDrawCallback callback) { opaqueFill = callback; }

void fillOpaqueRect(ImDrawList* dl, ImVec2 a, ImVec2 b, ImU32 colour) {
  if (!opaqueFill) {
    dl->AddRectFilled(a, b, colour);
    return;
  }
  // The callback clears the command's clip rectangle: make that the rectangle.
  dl->PushClipRect(a, b, true);
  dl->AddCallback(opaqueFill, reinterpret_cast<void*>(static_cast<uintptr_t>(colour | IM_COL32_A_MASK)));
  dl->PopClipRect();
}

void emptyState(std::string_view message) {
  ImVec2 avail = ImGui::GetContentRegionAvail();
  float wrap = std::max(200.f, avail.x * 0.8f);
  ImVec2 size = ImGui::CalcTextSize(message.data(), message.data() + message.size(), false, wrap);
  ImGui::SetCursorPosX(ImGui::GetCursorPosX() + std::max(0.f, (avail.x - size.x) * 0.5f));
  ImGui::SetCursorPosY(ImGui::GetCursorPosY() + std::max(0.f, (avail.y - size.y) * 0.35f));
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + wrap);
  ImGui::PushStyleColor(ImGuiCol_Text, imColour(ColourRole::TextDim));
  ImGui::TextUnformatted(message.data(), message.data() + message.size());
  ImGui::PopStyleColor();
  ImGui::PopTextWrapPos();
}

void helpMarker(const char* text) {
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 35.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

float charWidth() { return ImGui::CalcTextSize("0").x; }

}  // namespace passlab::gui
