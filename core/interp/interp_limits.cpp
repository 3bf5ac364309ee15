#include "core/interp/interp_limits.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>

namespace passlab::interp {

namespace {
std::atomic<int64_t> gMaxBytes{-1};  // -1: not set yet, use the default
std::atomic<bool> gInterrupt{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the interrupt flag is set from a signal handler");
}  // namespace

int64_t defaultMaxBytes() {
  long pages = ::sysconf(_SC_PHYS_PAGES);
  long pageSize = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0) return int64_t{4} << 30;
  return static_cast<int64_t>(pages) * pageSize / 4;
}

int64_t maxBytes() {
  int64_t v = gMaxBytes.load(std::memory_order_relaxed);
  return v > 0 ? v : defaultMaxBytes();
}

void setMaxBytes(int64_t bytes) { gMaxBytes.store(std::max<int64_t>(bytes, int64_t{1} << 20), std::memory_order_relaxed); }

std::string maxBytesHint() {
  return " (the interpreter's limit interp-max-bytes; raise it with `set interp-max-bytes N`, e.g. 16G)";
}

void requestInterrupt() noexcept { gInterrupt.store(true, std::memory_order_relaxed); }
void clearInterrupt() noexcept { gInterrupt.store(false, std::memory_order_relaxed); }
bool interruptRequested() noexcept { return gInterrupt.load(std::memory_order_relaxed); }

}  // namespace passlab::interp
