#include "engine/core/storage.h"

#include <cstdlib>
#include <new>

#include "engine/core/allocator.h"

namespace engine {

Storage::Storage(size_t nbytes) : data_(allocate_buffer(nbytes)), nbytes_(nbytes) {}

Storage::Storage(void* data, size_t nbytes, std::function<void()> release)
    : data_(data), nbytes_(nbytes), release_(std::move(release)) {}

std::shared_ptr<Storage> Storage::meta(size_t nbytes) {
  auto storage = std::make_shared<Storage>(nullptr, nbytes, [] {});
  storage->is_meta_ = true;
  return storage;
}

Storage::~Storage() {
  if (release_) {
    release_();
  } else {
    free_buffer(data_, nbytes_);
  }
}

}  // namespace engine
