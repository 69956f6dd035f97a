#pragma once
// Aligned host allocations. Kept behind two functions so the caching policy can change in one place.
#include <cstddef>

namespace engine {

constexpr size_t kAlignment = 64;

void* allocate_buffer(size_t nbytes);
void free_buffer(void* ptr, size_t nbytes);

}  // namespace engine
