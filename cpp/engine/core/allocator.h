#pragma once
// Aligned host allocations. Kept behind two functions so the caching policy can change in one place.
// Large buffers (>= 1 MiB) are cached on free and reused for requests of the same rounded size.
#include <cstddef>
#include <new>

namespace engine {

constexpr size_t kAlignment = 64;

void* allocate_buffer(size_t nbytes);
void free_buffer(void* ptr, size_t nbytes);
// Bytes held idle in the large-buffer cache, and a way to give idle buffers back to the system (the
// large ones, and the small ones the calling thread keeps).
size_t cached_bytes();
void release_cached_buffers();

// Small fixed-size objects made on every op (tensor headers with their shared_ptr control blocks,
// graph nodes, the ctx of a custom Function). glibc's per-thread cache keeps only 7 blocks per size,
// so a graph of 100 nodes freed in one backward pass sends most frees down its slow path; these
// functions keep idle blocks per size class and thread instead (a bounded list each). Blocks are
// aligned for any fundamental type; one freed on another thread joins that thread's lists. In a
// sanitizer build they are plain operator new and delete, so use after free stays visible.
void* allocate_object(size_t nbytes);
void free_object(void* ptr, size_t nbytes) noexcept;

// A standard allocator over allocate_object, for std::allocate_shared and containers.
template <typename T>
struct ObjectAllocator {
  using value_type = T;
  ObjectAllocator() = default;
  template <typename U>
  ObjectAllocator(const ObjectAllocator<U>&) {}  // NOLINT: implicit, as allocators rebind
  T* allocate(size_t n) {
    static_assert(alignof(T) <= alignof(std::max_align_t), "over-aligned type");
    return static_cast<T*>(allocate_object(n * sizeof(T)));
  }
  void deallocate(T* p, size_t n) noexcept { free_object(p, n * sizeof(T)); }
  template <typename U>
  bool operator==(const ObjectAllocator<U>&) const { return true; }
  template <typename U>
  bool operator!=(const ObjectAllocator<U>&) const { return false; }
};

// Class-scope operator new and delete through allocate_object: a class that derives from this gets
// its heap instances (and those of its subclasses, given a virtual destructor) from the pool.
struct PooledObject {
  static void* operator new(size_t nbytes) { return allocate_object(nbytes); }
  static void operator delete(void* ptr, size_t nbytes) noexcept { free_object(ptr, nbytes); }
  // Declaring the above hides the global placement form, which containers of these still need.
  static void* operator new(size_t, void* where) noexcept { return where; }
};

}  // namespace engine
