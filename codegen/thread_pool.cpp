// The process's thread pool for compiled kernels' parallel loops (host JIT):
// `passlab_parallel_for`, which the code of a kernel built with parallel
// loops calls (EmitRequest::parallel), splits an iteration range into one
// contiguous chunk per thread; the calling thread runs the first chunk and
// waits for the others. One pool per process, 1 thread until setThreadCount.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "codegen/codegen.h"

namespace passlab::codegen {

namespace {

using Task = void (*)(void*, int64_t, int64_t);

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

class Pool {
 public:
  static Pool& instance() {
    static Pool pool;
    return pool;
  }

  void resize(int n) {
    std::lock_guard<std::mutex> run(runMutex_);
    stopWorkers();
    size_ = std::max(1, n);
    busyNs_ = std::vector<std::atomic<int64_t>>(static_cast<size_t>(size_));
    // A new worker waits for the next job, not one of the old pool's (whose
    // task and closure are gone): it starts from the current generation.
    const uint64_t current = generation_;
    for (int i = 1; i < size_; ++i) workers_.emplace_back([this, i, current] { work(i, current); });
  }

  int size() const { return size_; }

  std::vector<int64_t> busy() const {
    std::vector<int64_t> out;
    for (const auto& b : busyNs_) out.push_back(b.load());
    return out;
  }

  void resetBusy() {
    for (auto& b : busyNs_) b.store(0);
  }

  void run(Task task, void* closure, int64_t begin, int64_t end) {
    const int64_t total = end - begin;
    if (total <= 0) return;
    // One thread, one iteration, or a parallel loop inside a task: inline.
    if (size_ == 1 || total == 1 || inTask_) {
      timed(0, task, closure, begin, end);
      return;
    }
    std::unique_lock<std::mutex> run(runMutex_);
    const int chunks = static_cast<int>(std::min<int64_t>(size_, total));
    {
      std::lock_guard<std::mutex> lock(mutex_);
      task_ = task, closure_ = closure, begin_ = begin, end_ = end, chunks_ = chunks;
      pending_ = chunks - 1;
      ++generation_;
    }
    wake_.notify_all();
    inTask_ = true;
    timed(0, task, closure, begin, chunkEnd(0, begin, end, chunks));
    inTask_ = false;
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return pending_ == 0; });
  }

 private:
  Pool() { busyNs_ = std::vector<std::atomic<int64_t>>(1); }
  ~Pool() { stopWorkers(); }

  static int64_t chunkEnd(int chunk, int64_t begin, int64_t end, int chunks) { return begin + (end - begin) * (chunk + 1) / chunks; }

  void timed(int thread, Task task, void* closure, int64_t lo, int64_t hi) {
    int64_t t0 = nowNs();
    task(closure, lo, hi);
    busyNs_[static_cast<size_t>(thread)] += nowNs() - t0;
  }

  void work(int index, uint64_t seen) {
    inTask_ = true;
    for (;;) {
      Task task;
      void* closure;
      int64_t begin, end;
      int chunks;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        task = task_, closure = closure_, begin = begin_, end = end_, chunks = chunks_;
      }
      if (index < chunks) timed(index, task, closure, chunkEnd(index - 1, begin, end, chunks), chunkEnd(index, begin, end, chunks));
      if (index < chunks) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (--pending_ == 0) done_.notify_one();
      }
    }
  }

  void stopWorkers() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
    workers_.clear();
    stop_ = false;
  }

  int size_ = 1;
  std::vector<std::thread> workers_;
  std::vector<std::atomic<int64_t>> busyNs_;
  std::mutex runMutex_, mutex_;
  std::condition_variable wake_, done_;
  bool stop_ = false;
  uint64_t generation_ = 0;
  Task task_ = nullptr;
  void* closure_ = nullptr;
  int64_t begin_ = 0, end_ = 0;
  int chunks_ = 0, pending_ = 0;
  static thread_local bool inTask_;
};

thread_local bool Pool::inTask_ = false;

}  // namespace

void setThreadCount(int threads) { Pool::instance().resize(threads); }

int threadCount() { return Pool::instance().size(); }

std::vector<int64_t> threadBusyNs() { return Pool::instance().busy(); }

void resetThreadBusy() { Pool::instance().resetBusy(); }

}  // namespace passlab::codegen

extern "C" void passlab_parallel_for(void (*task)(void*, int64_t, int64_t), void* closure, int64_t begin, int64_t end) {
  passlab::codegen::Pool::instance().run(task, closure, begin, end);
}
