// The process's thread pool for compiled kernels' parallel loops (host JIT):
// `passlab_parallel_for`, which the code of a kernel built with parallel
// loops calls (EmitRequest::parallel), splits an iteration range into a few
// contiguous chunks per thread, and the threads claim chunks one at a time
// from a shared counter; the calling thread claims them too. One pool per
// process, 1 thread until setThreadCount.
//
// Why claimed chunks rather than one fixed chunk per thread: on a machine
// whose cores are shared (the usual case for a laptop, and for the machines
// this project is measured on), a worker that is not running when a job
// starts would make the caller wait for it — a whole scheduler time slice,
// milliseconds, for a kernel of 50 microseconds. With claimed chunks the
// caller runs every chunk nobody else took and waits only for chunks another
// thread is running. Each iteration is still run by exactly one thread with
// the same code, so the numerics are those of one thread.
//
// Waiting: after a job a worker spins for the next one for kSpinNs (the gap
// between two kernels of a model), then sleeps on a condition variable. So
// workers spin only while a model runs, never while the process is idle (a
// pool that spun between REPL commands or tests burned a core).
#include <algorithm>
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

/// How long a worker looks for the next job before it sleeps: longer than
/// most serial kernels between two parallel ones, short enough that an idle
/// pool costs nothing measurable.
constexpr int64_t kSpinNs = 200'000;
/// Chunks per thread: enough that the threads that run finish the work of
/// one that was descheduled, few enough that claiming costs nothing.
constexpr int kChunksPerThread = 4;

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void pause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

/// The job word: generation (32 bits) | chunks (16) | next chunk to claim (16).
constexpr uint64_t jobWord(uint32_t generation, uint32_t chunks, uint32_t next) {
  return uint64_t{generation} << 32 | uint64_t{chunks} << 16 | next;
}
constexpr uint32_t generationOf(uint64_t w) { return static_cast<uint32_t>(w >> 32); }
constexpr uint32_t chunksOf(uint64_t w) { return static_cast<uint32_t>(w >> 16) & 0xffff; }
constexpr uint32_t nextOf(uint64_t w) { return static_cast<uint32_t>(w) & 0xffff; }

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
    const uint32_t current = generationOf(job_.load());
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
    std::lock_guard<std::mutex> run(runMutex_);
    const auto chunks = static_cast<uint32_t>(std::min<int64_t>({total, int64_t{size_} * kChunksPerThread, 0xffff}));
    // The job's fields before the job word that publishes them (release);
    // a thread reads them only after claiming a chunk of this generation,
    // and the next job rewrites them only once every chunk has finished.
    task_ = task, closure_ = closure, begin_ = begin, end_ = end;
    finished_.store(0, std::memory_order_relaxed);
    const uint32_t generation = generationOf(job_.load()) + 1;
    job_.store(jobWord(generation, chunks, 0));
    // Sleepers count themselves before they look at the job word, and this
    // reads them after storing it (both sequentially consistent): either a
    // sleeper sees the new job, or it is counted here and woken.
    if (sleepers_.load() > 0) {
      std::lock_guard<std::mutex> lock(mutex_);
      wake_.notify_all();
    }
    inTask_ = true;
    claim(0, generation);
    inTask_ = false;
    // Only chunks another thread claimed and is running are left.
    for (int spins = 0; finished_.load(std::memory_order_acquire) < chunks; ++spins)
      if (spins < 4096) pause();
      else std::this_thread::yield();
  }

 private:
  Pool() { busyNs_ = std::vector<std::atomic<int64_t>>(1); }
  ~Pool() { stopWorkers(); }

  int64_t chunkBegin(uint32_t chunk, uint32_t chunks) const { return begin_ + (end_ - begin_) * chunk / chunks; }

  void timed(int thread, Task task, void* closure, int64_t lo, int64_t hi) {
    int64_t t0 = nowNs();
    task(closure, lo, hi);
    busyNs_[static_cast<size_t>(thread)] += nowNs() - t0;
  }

  /// Runs chunks of job `generation` until none is left to claim.
  void claim(int thread, uint32_t generation) {
    uint64_t w = job_.load(std::memory_order_acquire);
    while (generationOf(w) == generation && nextOf(w) < chunksOf(w)) {
      if (!job_.compare_exchange_weak(w, w + 1, std::memory_order_acq_rel, std::memory_order_acquire)) continue;
      const uint32_t chunk = nextOf(w), chunks = chunksOf(w);
      timed(thread, task_, closure_, chunkBegin(chunk, chunks), chunkBegin(chunk + 1, chunks));
      finished_.fetch_add(1, std::memory_order_release);
      w = job_.load(std::memory_order_acquire);
    }
  }

  void work(int index, uint32_t seen) {
    inTask_ = true;
    for (;;) {
      // Spin for the next job, then sleep.
      const int64_t until = nowNs() + kSpinNs;
      for (int i = 0; generationOf(job_.load(std::memory_order_acquire)) == seen && !stop_.load(std::memory_order_relaxed); ++i) {
        pause();
        if (i % 64 == 63 && nowNs() > until) {
          std::unique_lock<std::mutex> lock(mutex_);
          sleepers_.fetch_add(1);
          wake_.wait(lock, [&] { return stop_.load() || generationOf(job_.load()) != seen; });
          sleepers_.fetch_sub(1);
          break;
        }
      }
      if (stop_.load()) return;
      seen = generationOf(job_.load(std::memory_order_acquire));
      claim(index, seen);
    }
  }

  void stopWorkers() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_.store(true);
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
    workers_.clear();
    stop_.store(false);
  }

  int size_ = 1;
  std::vector<std::thread> workers_;
  std::vector<std::atomic<int64_t>> busyNs_;
  /// runMutex_: one job at a time (and no resize during one); mutex_: sleeping.
  std::mutex runMutex_, mutex_;
  std::condition_variable wake_;
  std::atomic<bool> stop_{false};
  std::atomic<int> sleepers_{0};
  /// The current job (jobWord); claiming a chunk increments it.
  std::atomic<uint64_t> job_{0};
  /// Chunks of the current job that have finished.
  std::atomic<uint32_t> finished_{0};
  Task task_ = nullptr;
  void* closure_ = nullptr;
  int64_t begin_ = 0, end_ = 0;
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
