#pragma once
// Aligned host allocations. Kept behind two functions so the caching policy can change in one place.
// Large buffers (>= 1 MiB) are cached on free and reused for requests of the same rounded size.
#include <cstddef>

namespace engine {

constexpr size_t kAlignment = 64;

void* allocate_buffer(size_t nbytes);
void free_buffer(void* ptr, size_t nbytes);
// Bytes held idle in the large-buffer cache, and a way to give idle buffers back to the system (the
// large ones, and the small ones the calling thread keeps).
size_t cached_bytes();
void release_cached_buffers();

}  // namespace engine
