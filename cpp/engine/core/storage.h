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
  // A storage on the "meta" device: it has a size in bytes but no memory at all (shapes, strides
  // and dtypes are worked out without data). Nothing may read or write it (see Tensor::raw_data).
  static std::shared_ptr<Storage> meta(size_t nbytes);
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  void* data() const { return data_; }
  size_t nbytes() const { return nbytes_; }
  bool is_meta() const { return is_meta_; }

  uint32_t version() const { return counter_->load(std::memory_order_relaxed); }
  void bump_version() { counter_->fetch_add(1, std::memory_order_relaxed); }
  void set_version(uint32_t v) { counter_->store(v, std::memory_order_relaxed); }
  // The counter as an object of its own, made on first request; from then on this storage counts
  // there. A tensor that moves to other memory (`x.data = y`) keeps it, so x and the views it had
  // of this storage go on sharing one counter, as in PyTorch, without keeping this memory alive.
  std::shared_ptr<std::atomic<uint32_t>> shared_counter() {
    if (!shared_version_) {
      shared_version_ = std::make_shared<std::atomic<uint32_t>>(version_.load());
      counter_ = shared_version_.get();
    }
    return shared_version_;
  }

 private:
  void* data_;
  size_t nbytes_;
  std::function<void()> release_;
  bool is_meta_ = false;
  std::atomic<uint32_t> version_{0};
  std::atomic<uint32_t>* counter_ = &version_;  // version_, or shared_version_ once made
  std::shared_ptr<std::atomic<uint32_t>> shared_version_;
};

}  // namespace engine
