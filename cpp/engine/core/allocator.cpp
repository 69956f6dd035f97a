#include "engine/core/allocator.h"

#include <cstdlib>
#include <new>

namespace engine {

void* allocate_buffer(size_t nbytes) {
  // aligned_alloc needs a size that is a multiple of the alignment; zero-size tensors still get a
  // valid, unique pointer.
  size_t rounded = (nbytes + kAlignment - 1) / kAlignment * kAlignment;
  if (rounded == 0) rounded = kAlignment;
  void* p = std::aligned_alloc(kAlignment, rounded);
  if (!p) throw std::bad_alloc();
  return p;
}

void free_buffer(void* ptr, size_t) { std::free(ptr); }

}  // namespace engine
