#include "gui/model/view_state.h"

namespace passlab::gui {
namespace {

struct PanelInfo {
  std::string_view key;
  const char* title;
};

constexpr std::array<PanelInfo, kPanelCount> kPanels = {{
#define PASSLAB_PANEL(id, key, title) {key, title},
#include "gui/model/panels.def"
}};

}  // namespace

std::string_view panelKey(PanelId id) { return kPanels[static_cast<size_t>(id)].key; }

const char* panelTitle(PanelId id) { return kPanels[static_cast<size_t>(id)].title; }

std::optional<PanelId> panelFromKey(std::string_view key) {
  for (size_t i = 0; i < kPanelCount; ++i)
    if (kPanels[i].key == key) return static_cast<PanelId>(i);
  return std::nullopt;
}

std::vector<std::string> panelKeys() {
  std::vector<std::string> keys;
  for (const PanelInfo& p : kPanels) keys.emplace_back(p.key);
  return keys;
}

void ViewState::showPanel(PanelId id) {
  open[static_cast<size_t>(id)] = true;
  if (id != PanelId::Trace && id != PanelId::IrView) focusTab = id;
}

}  // namespace passlab::gui
