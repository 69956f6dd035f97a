#pragma once
// A reference-counted, 64-byte aligned buffer shared by a tensor and all of its views.
// The version counter lives here because every alias of the memory must see in-place writes.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

namespace engine {

class Storage {
 public:
  // Owns a fresh allocation of `nbytes` (uninitialised).
  explicit Storage(size_t nbytes);
  // Borrows external memory (a NumPy array, say); `release` runs when the last user lets go.
  Storage(void* data, size_t nbytes, std::function<void()> release);
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  void* data() const { return data_; }
  size_t nbytes() const { return nbytes_; }

  uint32_t version() const { return version_.load(std::memory_order_relaxed); }
  void bump_version() { version_.fetch_add(1, std::memory_order_relaxed); }
  void set_version(uint32_t v) { version_.store(v, std::memory_order_relaxed); }

 private:
  void* data_;
  size_t nbytes_;
  std::function<void()> release_;
  std::atomic<uint32_t> version_{0};
};

}  // namespace engine
