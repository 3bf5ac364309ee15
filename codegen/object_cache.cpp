// The compiled-unit cache (see object_cache.h).
#include "codegen/object_cache.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "codegen/codegen.h"

namespace passlab::codegen {

namespace fs = std::filesystem;

namespace {

/// Files start with this: a file of another format version is a miss.
constexpr char kMagic[] = "PASSLAB-UNIT-1\n";
constexpr const char* kSuffix = ".unit";

/// 64-bit FNV-1a of `s` from `seed`.
uint64_t fnv1a(const std::string& s, uint64_t seed) {
  uint64_t h = seed;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

/// The file of `key` in `dir`: two independent 64-bit hashes of the key. The
/// file holds the whole key too, so a collision is a miss, never a wrong object.
fs::path fileOf(const std::string& dir, const std::string& key) {
  char name[64];
  std::snprintf(name, sizeof name, "%016llx%016llx%s", static_cast<unsigned long long>(fnv1a(key, 0xcbf29ce484222325ull)),
                static_cast<unsigned long long>(fnv1a(key, 0x84222325cbf29ce4ull)), kSuffix);
  return fs::path(dir) / name;
}

void putCount(std::string& out, uint64_t n) { out.append(reinterpret_cast<const char*>(&n), sizeof n); }

void putString(std::string& out, const std::string& s) {
  putCount(out, s.size());
  out += s;
}

bool getCount(const std::string& in, size_t& at, uint64_t& n) {
  if (in.size() - at < sizeof n) return false;
  std::copy_n(in.data() + at, sizeof n, reinterpret_cast<char*>(&n));
  at += sizeof n;
  return true;
}

bool getString(const std::string& in, size_t& at, std::string& s) {
  uint64_t n = 0;
  if (!getCount(in, at, n) || in.size() - at < n) return false;
  s.assign(in, at, n);
  at += n;
  return true;
}

std::string serialize(const std::string& key, const CompiledUnit& unit) {
  std::string out = kMagic;
  putString(out, key);
  putCount(out, unit.warnings.size());
  for (const std::string& w : unit.warnings) putString(out, w);
  putString(out, unit.object);
  return out;
}

/// The unit in `bytes` when they are a whole file of `key`, else null.
std::shared_ptr<CompiledUnit> deserialize(const std::string& key, const std::string& bytes) {
  const size_t magic = sizeof kMagic - 1;
  if (bytes.compare(0, magic, kMagic) != 0) return nullptr;
  size_t at = magic;
  std::string storedKey;
  uint64_t warnings = 0;
  if (!getString(bytes, at, storedKey) || storedKey != key || !getCount(bytes, at, warnings) || warnings > bytes.size()) return nullptr;
  auto unit = std::make_shared<CompiledUnit>();
  unit->warnings.resize(warnings);
  for (std::string& w : unit->warnings)
    if (!getString(bytes, at, w)) return nullptr;
  if (!getString(bytes, at, unit->object) || at != bytes.size() || unit->object.empty()) return nullptr;
  return unit;
}

}  // namespace

std::string defaultObjectCacheDir() {
  if (const char* dir = std::getenv("PASSLAB_CACHE_DIR")) return std::string(dir) == "off" ? "" : dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::string(xdg) + "/passlab/kernels";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/passlab/kernels";
  return "";
}

void forgetCompiledKernelsInMemory() { ObjectCache::process().forgetInMemory(); }

ObjectCache& ObjectCache::process() {
  static ObjectCache cache;
  return cache;
}

std::shared_ptr<const CompiledUnit> ObjectCache::find(const std::string& key, const std::string& dir, bool* fromDisk) {
  if (fromDisk) *fromDisk = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = entries_.find(key);
    if (it != entries_.end()) return it->second;
  }
  if (dir.empty()) return nullptr;
  fs::path file = fileOf(dir, key);
  std::ifstream in(file, std::ios::binary);
  if (!in) return nullptr;
  std::stringstream bytes;
  bytes << in.rdbuf();
  std::shared_ptr<CompiledUnit> unit = deserialize(key, bytes.str());
  if (!unit) return nullptr;
  std::error_code ec;
  fs::last_write_time(file, fs::file_time_type::clock::now(), ec);  // a use: trimming keeps it longer
  keepInMemory(key, unit);
  if (fromDisk) *fromDisk = true;
  return unit;
}

void ObjectCache::insert(const std::string& key, std::shared_ptr<const CompiledUnit> unit, const std::string& dir) {
  if (!dir.empty()) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    static std::atomic<unsigned> serial{0};
    fs::path file = fileOf(dir, key);
    fs::path temp = file;
    temp += ".tmp" + std::to_string(::getpid()) + "-" + std::to_string(serial++);
    {
      std::ofstream out(temp, std::ios::binary | std::ios::trunc);
      std::string bytes = serialize(key, *unit);
      out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
      out.close();
      if (!out) ec = std::make_error_code(std::errc::io_error);
    }
    if (!ec) fs::rename(temp, file, ec);
    if (ec) fs::remove(temp, ec);
  }
  keepInMemory(key, std::move(unit));
}

void ObjectCache::keepInMemory(const std::string& key, std::shared_ptr<const CompiledUnit> unit) {
  std::lock_guard<std::mutex> lock(mutex_);
  size_t size = unit->object.size();
  if (!entries_.emplace(key, std::move(unit)).second) return;
  order_.push_back(key);
  bytes_ += size;
  while (bytes_ > kMemoryCapacityBytes && order_.size() > 1) {
    auto old = entries_.find(order_.front());
    bytes_ -= old->second->object.size();
    entries_.erase(old);
    order_.pop_front();
  }
}

void ObjectCache::forgetInMemory() {
  std::lock_guard<std::mutex> lock(mutex_);
  entries_.clear();
  order_.clear();
  bytes_ = 0;
}

void ObjectCache::trimDirectory(const std::string& dir, uint64_t maxBytes) {
  if (dir.empty()) return;
  struct Entry {
    fs::path path;
    fs::file_time_type used;
    uint64_t bytes;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() != kSuffix) continue;
    std::error_code e1, e2;
    uint64_t bytes = it->file_size(e1);
    fs::file_time_type used = it->last_write_time(e2);
    if (e1 || e2) continue;
    entries.push_back({it->path(), used, bytes});
    total += bytes;
  }
  if (total <= maxBytes) return;
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
  for (const Entry& e : entries) {
    if (total <= maxBytes) break;
    if (fs::remove(e.path, ec)) total -= e.bytes;
  }
}

}  // namespace passlab::codegen
