#include "engine/core/allocator.h"

#include <cstdlib>
#include <map>
#include <mutex>
#include <new>

namespace engine {

namespace {

// Large buffers are kept when freed and handed out again for a request of the same rounded size:
// a fresh 40 MB buffer costs a page fault per 4 KiB page on first touch, a cached one nothing.
// A buffer enters the cache only when its last Storage is destroyed, so a cached block is never
// reachable from a live tensor. The cache is bounded; beyond the bound blocks go back to the system.
constexpr size_t kCacheMin = size_t(1) << 20;    // smaller blocks come from malloc's own pools
constexpr size_t kCacheLimit = size_t(1) << 29;  // total bytes kept idle at most

struct Cache {
  std::mutex mu;
  std::multimap<size_t, void*> free_blocks;  // rounded size -> block
  size_t idle_bytes = 0;

  ~Cache() {
    for (auto& kv : free_blocks) std::free(kv.second);
  }
};

Cache& cache() {
  static Cache* c = new Cache();  // never destroyed: tensors may outlive static destruction
  return *c;
}

size_t round_size(size_t nbytes) {
  size_t rounded = (nbytes + kAlignment - 1) / kAlignment * kAlignment;
  if (rounded == 0) rounded = kAlignment;
  // Large sizes are rounded to 64 KiB so that nearby sizes share blocks.
  if (rounded >= kCacheMin) rounded = (rounded + 65535) / 65536 * 65536;
  return rounded;
}

}  // namespace

void* allocate_buffer(size_t nbytes) {
  // aligned_alloc needs a size that is a multiple of the alignment; zero-size tensors still get a
  // valid, unique pointer.
  const size_t rounded = round_size(nbytes);
  if (rounded >= kCacheMin) {
    Cache& c = cache();
    std::lock_guard<std::mutex> lock(c.mu);
    auto it = c.free_blocks.find(rounded);
    if (it != c.free_blocks.end()) {
      void* p = it->second;
      c.free_blocks.erase(it);
      c.idle_bytes -= rounded;
      return p;
    }
  }
  void* p = std::aligned_alloc(kAlignment, rounded);
  if (!p) {
    release_cached_buffers();
    p = std::aligned_alloc(kAlignment, rounded);
    if (!p) throw std::bad_alloc();
  }
  return p;
}

void free_buffer(void* ptr, size_t nbytes) {
  const size_t rounded = round_size(nbytes);
  if (rounded >= kCacheMin) {
    Cache& c = cache();
    std::lock_guard<std::mutex> lock(c.mu);
    // Make room by dropping the largest idle blocks first.
    while (c.idle_bytes + rounded > kCacheLimit && !c.free_blocks.empty()) {
      auto last = std::prev(c.free_blocks.end());
      std::free(last->second);
      c.idle_bytes -= last->first;
      c.free_blocks.erase(last);
    }
    if (rounded <= kCacheLimit) {
      c.free_blocks.emplace(rounded, ptr);
      c.idle_bytes += rounded;
      return;
    }
  }
  std::free(ptr);
}

size_t cached_bytes() {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  return c.idle_bytes;
}

void release_cached_buffers() {
  Cache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  for (auto& kv : c.free_blocks) std::free(kv.second);
  c.free_blocks.clear();
  c.idle_bytes = 0;
}

}  // namespace engine
