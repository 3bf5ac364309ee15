#include "gui/model/progress_model.h"

namespace passlab::gui {

void ProgressModel::begin(std::string command) {
  std::lock_guard<std::mutex> lock(mutex_);
  state_ = ProgressSnapshot{};
  state_.busy = true;
  state_.command = std::move(command);
  started_ = std::chrono::steady_clock::now();
}

void ProgressModel::update(std::string text, size_t done, size_t total) {
  std::lock_guard<std::mutex> lock(mutex_);
  state_.text = std::move(text);
  state_.done = done;
  state_.total = total;
  ++state_.updates;
}

void ProgressModel::markCancelling() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (state_.busy) state_.cancelling = true;
}

void ProgressModel::end() {
  std::lock_guard<std::mutex> lock(mutex_);
  state_.busy = false;
}

ProgressSnapshot ProgressModel::snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  ProgressSnapshot out = state_;
  if (out.busy) out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  return out;
}

void ProgressModel::requestScreenshot(std::string path) {
  std::lock_guard<std::mutex> lock(mutex_);
  screenshot_ = std::move(path);
}

std::string ProgressModel::takeScreenshotRequest() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (screenshot_.empty() || !state_.busy || state_.updates == 0) return "";
  std::string out;
  out.swap(screenshot_);
  return out;
}

}  // namespace passlab::gui
