#pragma once
// TensorImpl: a strided view of a Storage. Tensor: the cheap, nullable handle everybody passes around.
// Autograd state hangs off an opaque interface so this layer stays free of graph concepts.
#include <atomic>
#include <cstdint>
#include <memory>

#include "engine/core/allocator.h"
#include "engine/core/dtype.h"
#include "engine/core/shape.h"
#include "engine/core/storage.h"

namespace engine {

// Pooled (see allocate_object): most tensors that take part in autograd get one.
struct AutogradMetaInterface : PooledObject {
  virtual ~AutogradMetaInterface() = default;
};

// State an upper layer attaches to one tensor and core only owns: the Python layer keeps the
// function transforms' state here (a forward-mode tangent, a vmap batch dimension).
struct TensorExtension {
  virtual ~TensorExtension() = default;
};

// Inference mode (thread-local): tensors allocated while it is on are inference tensors.
bool inference_mode_enabled();
void set_inference_mode_enabled(bool enabled);
// The creation mode recorded on every new view; set by the autograd layer (core knows no grad mode).
extern uint8_t (*current_view_creation_meta)();

struct TensorImpl {
  TensorImpl(std::shared_ptr<Storage> storage, Dims shape, Dims strides, int64_t offset, DType dtype);
  ~TensorImpl();

  std::shared_ptr<Storage> storage;
  Dims shape;
  Dims strides;    // in elements
  int64_t offset;  // in elements
  DType dtype;
  int64_t numel;
  bool is_contiguous;
  // A Python number promoted to a 0-d tensor for an operation: it takes part in type promotion
  // with lower priority than real tensors, as in PyTorch.
  bool is_wrapped_number = false;
  // For a wrapped number: the dtype PyTorch gives it (int64 for a Python int, float64 for a
  // float). The number may be stored in the other operand's floating dtype instead when that is
  // exact (x * 2 with x float32 then needs no conversion); the saved-tensor getters show it in
  // this dtype.
  DType wrapped_dtype = DType::Float32;
  std::unique_ptr<AutogradMetaInterface> autograd_meta;
  // Views remember their base so in-place writes through them can be checked.
  std::shared_ptr<TensorImpl> view_base;
  // Made while inference mode was on (PyTorch's inference tensors): never saved for backward, never
  // written in place outside inference mode. Views and aliases inherit it from their source.
  bool is_inference = false;
  // For a view: the mode it was created in (autograd's CreationMeta, see view_meta.h), which
  // decides whether it may be written in place later.
  uint8_t view_creation_meta = 0;
  // For a view: its version counter's value when it was made. A view made without history (under
  // no_grad, say) whose counter has moved since was written through its base or a sibling.
  uint32_t view_created_version = 0;
  // A version counter of its own, shared with its views, when this tensor's does not follow its
  // storage's (null otherwise): `x.data` is a tensor with a fresh counter, and `x.data = y` keeps
  // x's counter while x takes y's memory, as in PyTorch.
  std::shared_ptr<std::atomic<uint32_t>> own_version;
  // Transform state (see TensorExtension); never copied to views or results by core.
  std::shared_ptr<TensorExtension> extension;
  // The Python object that stands for this tensor, if it has one (borrowed: the object owns this
  // TensorImpl). The Python layer sets it when it makes the object and clears it when the object
  // is deallocated, with the GIL held, so a tensor going out to Python again is found in one load.
  void* py_object = nullptr;

  void refresh_layout();
};

class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(std::shared_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}

  // A fresh, uninitialised, contiguous tensor.
  static Tensor empty(const Dims& shape, DType dtype);
  // A view sharing this tensor's storage; every element it reaches must lie inside that storage.
  Tensor as_strided(const Dims& shape, const Dims& strides, int64_t offset) const;
  // Raises unless a view (shape, strides, offset) of this tensor's storage stays inside it.
  void check_view_bounds(const Dims& shape, const Dims& strides, int64_t offset) const;

  bool defined() const { return static_cast<bool>(impl_); }
  TensorImpl* get() const { return impl_.get(); }
  const std::shared_ptr<TensorImpl>& impl() const { return impl_; }
  long use_count() const { return impl_.use_count(); }

  const Dims& shape() const { return impl_->shape; }
  const Dims& strides() const { return impl_->strides; }
  int64_t offset() const { return impl_->offset; }
  int64_t dim() const { return static_cast<int64_t>(impl_->shape.size()); }
  int64_t size(int64_t d) const;
  int64_t numel() const { return impl_->numel; }
  DType dtype() const { return impl_->dtype; }
  bool is_contiguous() const { return impl_->is_contiguous; }
  bool is_wrapped_number() const { return impl_->is_wrapped_number; }
  bool is_view() const { return static_cast<bool>(impl_->view_base); }

  bool is_meta() const { return impl_->storage->is_meta(); }
  // The first element's address. A meta tensor has none: asking raises NotImplementedError
  // (PyTorch's "Cannot copy out of meta tensor; no data!"), so no kernel can touch absent memory.
  void* raw_data() const {
    if (impl_->storage->is_meta()) throw_meta_data_access();
    return static_cast<char*>(impl_->storage->data()) + impl_->offset * static_cast<int64_t>(itemsize(impl_->dtype));
  }
  template <typename T>
  T* data() const { return static_cast<T*>(raw_data()); }

  uint32_t version() const {
    return impl_->own_version ? impl_->own_version->load(std::memory_order_relaxed) : impl_->storage->version();
  }
  void bump_version() const {
    if (impl_->own_version) {
      impl_->own_version->fetch_add(1, std::memory_order_relaxed);
    } else {
      impl_->storage->bump_version();
    }
  }

  // Overwrites the version (PyTorch's _unsafe_set_version_counter): views sharing the counter see it.
  void set_version(uint32_t v) const {
    if (impl_->own_version) {
      impl_->own_version->store(v, std::memory_order_relaxed);
    } else {
      impl_->storage->set_version(v);
    }
  }

  [[noreturn]] static void throw_meta_data_access();

  bool is_same(const Tensor& o) const { return impl_ == o.impl_; }

 private:
  std::shared_ptr<TensorImpl> impl_;
};

using TensorList = std::vector<Tensor>;

}  // namespace engine
