// Layouts off the caller's thread, cached per graph snapshot. The GUI asks for
// the layout of (graph, collapse state) every frame: the answer is the cached
// layout, or null while a worker thread computes it. The caller never waits
// for Graphviz. Graphs are shared between events whose pass did not touch the
// function, so their layout is computed once and reused.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>

#include "graph/graphviz_layout.h"

namespace passlab::graph {

/// The worker and its cache.
class LayoutService {
 public:
  /// Starts the worker; keeps up to `capacity` layouts (least recently used dropped first).
  explicit LayoutService(size_t capacity = 48);
  /// Stops the worker (a layout in progress finishes first; queued ones are dropped).
  ~LayoutService();
  LayoutService(const LayoutService&) = delete;
  LayoutService& operator=(const LayoutService&) = delete;

  /// What a request found.
  struct Result {
    /// The layout, or null while it is being computed (or failed).
    std::shared_ptr<const Layout> layout;
    /// Why Graphviz failed ("" when it did not).
    std::string error;
    /// True while queued or running.
    bool pending = false;
  };
  /// The layout of `g` drawn with `collapse`: from the cache, or queued (the
  /// newest request runs first) and pending. Never blocks on a layout.
  Result request(const std::shared_ptr<const FunctionGraph>& g, const CollapseState& collapse);
  /// Called on the worker thread after each layout (e.g. to wake an idle GUI
  /// loop). Once setOnReady returns, the previous callback is not running and
  /// will not be called again.
  void setOnReady(std::function<void()> callback);
  /// True while a layout is queued or running.
  bool busy() const;
  /// Blocks until nothing is queued or running (tests and benchmarks only).
  void waitIdle();

  /// Counters for tests and the status line.
  struct Stats {
    size_t layouts = 0;  ///< layouts computed
    size_t hits = 0;     ///< requests answered from the cache
    double lastMs = 0;   ///< time of the last layout
  };
  Stats stats() const;

 private:
  struct Key {
    const FunctionGraph* graph;
    uint64_t collapse;
    friend bool operator==(const Key&, const Key&) = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const { return std::hash<const void*>()(k.graph) ^ (k.collapse * 0x9e3779b97f4a7c15ull); }
  };
  struct Entry {
    /// Keeps the graph alive so its address cannot be reused by another while cached.
    std::shared_ptr<const FunctionGraph> graph;
    CollapseState collapse;
    std::shared_ptr<const Layout> layout;
    std::string error;
    bool done = false;
    std::list<Key>::iterator lru;
  };
  static uint64_t hashCollapse(const CollapseState& c);
  void run();
  void evict();

  size_t capacity_;
  mutable std::mutex mutex_;
  std::condition_variable wake_, idle_;
  std::unordered_map<Key, Entry, KeyHash> entries_;
  std::list<Key> lru_;  // most recent first
  std::deque<Key> queue_;
  bool running_ = false;
  bool stop_ = false;
  std::mutex callbackMutex_;
  std::function<void()> onReady_;  // guarded by callbackMutex_
  Stats stats_;
  std::thread worker_;
};

}  // namespace passlab::graph
