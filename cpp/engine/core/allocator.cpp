#include "engine/core/allocator.h"

#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "engine/core/error.h"
#include "engine/core/fast_tls.h"

namespace engine {

namespace {

// Large buffers are kept when freed and handed out again for a request of the same rounded size:
// a fresh 40 MB buffer costs a page fault per 4 KiB page on first touch, a cached one nothing.
// A buffer enters the cache only when its last Storage is destroyed, so a cached block is never
// reachable from a live tensor. The cache is bounded; beyond the bound blocks go back to the system.
constexpr size_t kCacheMin = size_t(1) << 17;  // from 128 KiB, where malloc would mmap (and unmap on free)
constexpr size_t kCacheLimit = size_t(1) << 29;  // total bytes kept idle at most
constexpr size_t kHugePage = size_t(2) << 20;
constexpr size_t kHugeMin = size_t(4) << 20;  // from here, blocks start on a huge page (fresh_block)

struct Cache {
  std::mutex mu;
  std::multimap<size_t, void*> free_blocks;  // rounded size -> block
  size_t idle_bytes = 0;

  ~Cache() {
    for (auto& kv : free_blocks) std::free(kv.second);
  }
};

// Small buffers (the 0-d and few-element tensors of per-call overhead) are recycled by size class:
// aligned_alloc and free of tiny blocks otherwise dominate the cost of a small op. Each thread keeps
// its own lists, so the hot path takes no lock; a block freed on another thread joins that
// thread's lists. A thread's lists are freed when the thread ends; a buffer freed after that (a
// tensor dropped during the thread's exit) goes straight back to the system.
constexpr size_t kSmallMax = 1024;
constexpr size_t kSmallClasses = kSmallMax / kAlignment;
constexpr size_t kSmallKeep = 256;  // blocks kept per class and thread

struct SmallCache;
ENGINE_FAST_TLS thread_local bool t_small_cache_gone = false;
ENGINE_FAST_TLS thread_local SmallCache* t_small_cache = nullptr;  // this thread's, once made

struct SmallCache {
  std::vector<void*> blocks[kSmallClasses];
  ~SmallCache() {
    t_small_cache_gone = true;
    t_small_cache = nullptr;
    release();
  }
  void release() {
    for (auto& list : blocks) {
      for (void* p : list) std::free(p);
      list.clear();
    }
  }
};

// This thread's lists; null once they have been destroyed.
SmallCache* small_cache() {
  if (t_small_cache) return t_small_cache;
  if (t_small_cache_gone) return nullptr;
  // On the heap, so the library's thread-local block stays small (see fast_tls.h); destroyed at
  // thread exit, which clears t_small_cache.
  thread_local std::unique_ptr<SmallCache> owner(new SmallCache());
  t_small_cache = owner.get();
  return t_small_cache;
}

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

// The small-object lists (allocate_object): size classes of 16 bytes up to 1 KiB, each an intrusive
// singly linked list (the link lives in the idle block) with a count bounding it to ~128 KiB.
#if defined(__SANITIZE_ADDRESS__)
#define ENGINE_OBJECT_POOL 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ENGINE_OBJECT_POOL 0
#endif
#endif
#ifndef ENGINE_OBJECT_POOL
#define ENGINE_OBJECT_POOL 1
#endif

constexpr size_t kObjectGrain = 16;
constexpr size_t kObjectMax = 1024;
constexpr size_t kObjectClasses = kObjectMax / kObjectGrain;
constexpr size_t kObjectKeepBytes = size_t(128) << 10;

struct ObjectLists;
ENGINE_FAST_TLS thread_local bool t_object_lists_gone = false;
ENGINE_FAST_TLS thread_local ObjectLists* t_object_lists = nullptr;

struct ObjectLists {
  struct Idle {
    Idle* next;
  };
  Idle* head[kObjectClasses] = {};
  uint32_t count[kObjectClasses] = {};
  ~ObjectLists() {
    t_object_lists_gone = true;
    t_object_lists = nullptr;
    release();
  }
  void release() {
    for (size_t i = 0; i < kObjectClasses; ++i) {
      while (Idle* h = head[i]) {
        head[i] = h->next;
        ::operator delete(h);
      }
      count[i] = 0;
    }
  }
};

ObjectLists* object_lists() {
  if (t_object_lists) return t_object_lists;
  if (t_object_lists_gone) return nullptr;
  thread_local std::unique_ptr<ObjectLists> owner(new ObjectLists());
  t_object_lists = owner.get();
  return t_object_lists;
}

}  // namespace

void* allocate_object(size_t nbytes) {
#if ENGINE_OBJECT_POOL
  if (nbytes - 1 < kObjectMax) {  // 1..kObjectMax (0 wraps around)
    const size_t cls = (nbytes - 1) / kObjectGrain;
    if (ObjectLists* lists = object_lists()) {
      if (ObjectLists::Idle* block = lists->head[cls]) {
        lists->head[cls] = block->next;
        --lists->count[cls];
        return block;
      }
    }
    return ::operator new((cls + 1) * kObjectGrain);
  }
#endif
  return ::operator new(nbytes);
}

void free_object(void* ptr, size_t nbytes) noexcept {
#if ENGINE_OBJECT_POOL
  if (ptr && nbytes - 1 < kObjectMax) {
    const size_t cls = (nbytes - 1) / kObjectGrain;
    ObjectLists* lists = t_object_lists ? t_object_lists : (t_object_lists_gone ? nullptr : object_lists());
    const size_t keep = kObjectKeepBytes / ((cls + 1) * kObjectGrain);
    if (lists && lists->count[cls] < keep) {
      auto* block = static_cast<ObjectLists::Idle*>(ptr);
      block->next = lists->head[cls];
      lists->head[cls] = block;
      ++lists->count[cls];
      return;
    }
  }
#else
  (void)nbytes;
#endif
  ::operator delete(ptr);
}

// A new block from the system. Large ones start on a 2 MiB boundary and ask for transparent huge
// pages (where the system grants them only on request, as in Linux's default "madvise" mode): a
// first touch then faults once per 2 MiB instead of once per 4 KiB page, and a sweep over the
// buffer misses the TLB far less often (10M-element sums and products 3-5 % faster).
void* fresh_block(size_t rounded) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (rounded >= kHugeMin) {
    void* p = nullptr;  // posix_memalign: aligned_alloc would want a size that is a whole number of pages
    if (posix_memalign(&p, kHugePage, rounded) != 0) return nullptr;
    madvise(p, rounded, MADV_HUGEPAGE);  // advice only: a refusal changes nothing
    return p;
  }
#endif
  return std::aligned_alloc(kAlignment, rounded);
}

void* allocate_buffer(size_t nbytes) {
  // aligned_alloc needs a size that is a multiple of the alignment; zero-size tensors still get a
  // valid, unique pointer.
  const size_t rounded = round_size(nbytes);
  SmallCache* small = rounded <= kSmallMax ? small_cache() : nullptr;
  if (small) {
    auto& list = small->blocks[rounded / kAlignment - 1];
    if (!list.empty()) {
      void* p = list.back();
      list.pop_back();
      return p;
    }
  } else if (rounded >= kCacheMin) {
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
  void* p = fresh_block(rounded);
  if (!p) {
    release_cached_buffers();
    p = fresh_block(rounded);
    if (!p) {
      throw OutOfMemoryError(str_cat("DefaultCPUAllocator: not enough memory: you tried to allocate ", nbytes,
                                     " bytes."));
    }
  }
  return p;
}

void free_buffer(void* ptr, size_t nbytes) {
  const size_t rounded = round_size(nbytes);
  SmallCache* small = rounded <= kSmallMax ? small_cache() : nullptr;
  if (small) {
    auto& list = small->blocks[rounded / kAlignment - 1];
    if (list.size() < kSmallKeep) {
      if (list.capacity() == 0) list.reserve(kSmallKeep);
      list.push_back(ptr);
      return;
    }
  }
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
  if (SmallCache* small = small_cache()) small->release();  // this thread's small blocks
  if (ObjectLists* lists = t_object_lists) lists->release();
}

}  // namespace engine
