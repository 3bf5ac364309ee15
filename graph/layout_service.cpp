#include "graph/layout_service.h"

namespace passlab::graph {

LayoutService::LayoutService(size_t capacity) : capacity_(capacity) { worker_ = std::thread([this] { run(); }); }

LayoutService::~LayoutService() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
    queue_.clear();
  }
  wake_.notify_all();
  worker_.join();
}

uint64_t LayoutService::hashCollapse(const CollapseState& c) {
  uint64_t h = 1469598103934665603ull ^ c.size();
  for (size_t i = 0; i < c.size(); ++i)
    if (c[i]) h = (h ^ (i + 1)) * 1099511628211ull;
  return h;
}

LayoutService::Result LayoutService::request(const std::shared_ptr<const FunctionGraph>& g, const CollapseState& collapse) {
  Result r;
  if (!g) return r;
  Key key{g.get(), hashCollapse(collapse)};
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = entries_.find(key);
  if (it != entries_.end() && it->second.collapse == collapse) {
    Entry& e = it->second;
    lru_.splice(lru_.begin(), lru_, e.lru);
    if (e.done) {
      ++stats_.hits;
      r.layout = e.layout;
      r.error = e.error;
      return r;
    }
    // Still queued: move it to the front, the view wants it now.
    for (auto q = queue_.begin(); q != queue_.end(); ++q)
      if (*q == key) {
        queue_.erase(q);
        queue_.push_front(key);
        break;
      }
    r.pending = true;
    return r;
  }
  if (it != entries_.end()) entries_.erase(it);  // a hash collision of collapse states: replace
  lru_.push_front(key);
  Entry e;
  e.graph = g;
  e.collapse = collapse;
  e.lru = lru_.begin();
  entries_.emplace(key, std::move(e));
  queue_.push_front(key);
  evict();
  wake_.notify_one();
  r.pending = true;
  return r;
}

void LayoutService::evict() {
  while (entries_.size() > capacity_ && !lru_.empty()) {
    Key victim = lru_.back();
    auto it = entries_.find(victim);
    // Entries being computed stay until done (the worker writes into them).
    if (it != entries_.end() && !it->second.done) break;
    lru_.pop_back();
    if (it != entries_.end()) entries_.erase(it);
  }
}

void LayoutService::setOnReady(std::function<void()> callback) {
  std::lock_guard<std::mutex> lock(callbackMutex_);
  onReady_ = std::move(callback);
}

bool LayoutService::busy() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return running_ || !queue_.empty();
}

void LayoutService::waitIdle() {
  std::unique_lock<std::mutex> lock(mutex_);
  idle_.wait(lock, [&] { return !running_ && queue_.empty(); });
}

LayoutService::Stats LayoutService::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

void LayoutService::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stop_ || !queue_.empty(); });
    if (stop_) return;
    Key key = queue_.front();
    queue_.pop_front();
    auto it = entries_.find(key);
    if (it == entries_.end() || it->second.done) continue;
    std::shared_ptr<const FunctionGraph> graph = it->second.graph;
    CollapseState collapse = it->second.collapse;
    running_ = true;
    lock.unlock();
    std::shared_ptr<const Layout> layout;
    std::string error;
    try {
      layout = std::make_shared<const Layout>(layoutGraph(*graph, collapse));
    } catch (const std::exception& e) {
      error = e.what();
    }
    lock.lock();
    running_ = false;
    it = entries_.find(key);
    if (it != entries_.end()) {
      it->second.layout = layout;
      it->second.error = error;
      it->second.done = true;
    }
    ++stats_.layouts;
    if (layout) stats_.lastMs = layout->ms;
    evict();
    if (queue_.empty()) idle_.notify_all();
    lock.unlock();
    {
      std::lock_guard<std::mutex> callback(callbackMutex_);
      if (onReady_) onReady_();
    }
    lock.lock();
  }
}

}  // namespace passlab::graph
