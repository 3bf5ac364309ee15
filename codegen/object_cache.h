// Compiled host code units kept for reuse: in this process's memory, and
// optionally in a directory so that the next process (the workbench opened
// again on the same model) links them instead of compiling them. Internal
// to codegen/; no LLVM types.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace passlab::codegen {

/// A compiled unit: its object file and the LLVM warnings compiling it gave
/// (replayed when it is reused, so a reused build reports what a fresh one does).
struct CompiledUnit {
  std::string object;
  std::vector<std::string> warnings;
};

/// Compiled units by key (the SHA-1 of a unit's bitcode plus the target
/// machine's signature). Memory is bounded by bytes and drops the oldest
/// first; a cache directory is bounded by trimDirectory. Disk errors are
/// misses: a cache never fails a build.
class ObjectCache {
 public:
  /// The process's cache.
  static ObjectCache& process();

  /// The unit stored under `key`: from memory, else from `dir` when it is
  /// not "" (and then kept in memory too). `fromDisk` says which.
  std::shared_ptr<const CompiledUnit> find(const std::string& key, const std::string& dir, bool* fromDisk = nullptr);

  /// Keeps `unit` under `key` in memory and, when `dir` is not "", in a file
  /// of `dir` (written to a temporary name and renamed, so a concurrent
  /// reader sees the whole file or none).
  void insert(const std::string& key, std::shared_ptr<const CompiledUnit> unit, const std::string& dir);

  /// Deletes the least recently used files of `dir` until its units take at
  /// most `maxBytes` (a reuse counts as a use).
  static void trimDirectory(const std::string& dir, uint64_t maxBytes);

  /// Forgets every unit held in memory (the directory is untouched).
  void forgetInMemory();

 private:
  /// Objects of a few hundred kernels are a few megabytes; this holds many models' worth.
  static constexpr size_t kMemoryCapacityBytes = size_t{256} << 20;
  void keepInMemory(const std::string& key, std::shared_ptr<const CompiledUnit> unit);

  std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<const CompiledUnit>> entries_;
  std::deque<std::string> order_;
  size_t bytes_ = 0;
};

/// The size limit of a cache directory: 512 MiB, about a hundred models' kernels.
constexpr uint64_t kObjectCacheDirectoryBytes = uint64_t{512} << 20;

}  // namespace passlab::codegen
