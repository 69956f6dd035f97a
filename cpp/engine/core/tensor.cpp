#include "engine/core/tensor.h"

#include "engine/core/allocator.h"
#include "engine/core/checked.h"
#include "engine/core/error.h"
#include "engine/core/fast_tls.h"

namespace engine {

namespace {
ENGINE_FAST_TLS thread_local bool t_inference_mode = false;
uint8_t no_view_creation_meta() { return 0; }
}  // namespace

bool inference_mode_enabled() { return t_inference_mode; }
void set_inference_mode_enabled(bool enabled) { t_inference_mode = enabled; }
uint8_t (*current_view_creation_meta)() = &no_view_creation_meta;

TensorImpl::TensorImpl(std::shared_ptr<Storage> storage_, Dims shape_, Dims strides_, int64_t offset_, DType dtype_)
    : storage(std::move(storage_)), shape(std::move(shape_)), strides(std::move(strides_)), offset(offset_),
      dtype(dtype_), is_inference(t_inference_mode) {
  refresh_layout();
}

TensorImpl::~TensorImpl() = default;

void TensorImpl::refresh_layout() {
  numel = numel_of(shape);
  is_contiguous = true;
  int64_t expected = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    if (shape[i] == 1) continue;
    if (strides[i] != expected) {
      is_contiguous = false;
      break;
    }
    expected *= shape[i];
  }
}

void Tensor::throw_meta_data_access() {
  throw NotImplementedError("Cannot copy out of meta tensor; no data!");
}

Tensor Tensor::empty(const Dims& shape, DType dtype) {
  for (int64_t s : shape) {
    ENGINE_CHECK(s >= 0, std::runtime_error, "Trying to create tensor with negative dimension ", s, ": ",
                 dims_str(shape));
  }
  const int64_t nbytes = contiguous_nbytes(shape, static_cast<int64_t>(itemsize(dtype)));
  // Both headers come from the small-object lists (see allocate_object): a tensor made per op
  // would otherwise cost two malloc/free pairs.
  auto storage = std::allocate_shared<Storage>(ObjectAllocator<Storage>(), static_cast<size_t>(nbytes));
  return Tensor(std::allocate_shared<TensorImpl>(ObjectAllocator<TensorImpl>(), std::move(storage), shape,
                                                 contiguous_strides(shape), 0, dtype));
}

Tensor Tensor::as_strided(const Dims& shape, const Dims& strides, int64_t offset) const {
  check_view_bounds(shape, strides, offset);
  auto impl = std::allocate_shared<TensorImpl>(ObjectAllocator<TensorImpl>(), impl_->storage, shape, strides, offset,
                                               impl_->dtype);
  // Views of views point at the root, so "is this a view of a leaf" is one step.
  impl->view_base = impl_->view_base ? impl_->view_base : impl_;
  impl->is_inference = impl_->is_inference;
  impl->own_version = impl_->own_version;
  // A view of a view keeps how its parent was made unless it is made in a restricted mode itself
  // (PyTorch's propagate_creation_meta; the values are autograd's CreationMeta, 2 = inference).
  const uint8_t now = current_view_creation_meta();
  const uint8_t parent = impl_->view_base ? impl_->view_creation_meta : 0;
  impl->view_creation_meta = (now == 0 || parent == 2) ? parent : now;
  Tensor view(std::move(impl));
  view.get()->view_created_version = view.version();
  return view;
}

void Tensor::check_view_bounds(const Dims& shape, const Dims& strides, int64_t offset) const {
  ENGINE_ASSERT(shape.size() == strides.size());
  for (size_t i = 0; i < shape.size(); ++i) {
    ENGINE_CHECK(shape[i] >= 0, std::runtime_error, "Trying to create tensor with negative dimension ", shape[i],
                 ": ", dims_str(shape));
    ENGINE_CHECK(strides[i] >= 0, std::runtime_error, "as_strided: Negative strides are not supported at the moment, "
                 "got strides: ", dims_str(strides));
  }
  ENGINE_CHECK(offset >= 0, std::runtime_error, "Tensor: invalid storage offset ", offset);
  const int64_t isz = static_cast<int64_t>(itemsize(impl_->dtype));
  const int64_t extent = storage_extent(shape, strides, offset);
  const int64_t have = static_cast<int64_t>(impl_->storage->nbytes());
  int64_t need = 0;
  ENGINE_CHECK(extent == 0 || (mul_fits(extent, isz, &need) && need <= have), std::runtime_error,
               "setStorage: sizes ", dims_str(shape), ", strides ", dims_str(strides), ", storage offset ", offset,
               ", and itemsize ", isz, " requiring a storage size of ", need, " are out of bounds for storage of size ",
               have);
}

int64_t Tensor::size(int64_t d) const { return impl_->shape[wrap_dim(d, dim())]; }

}  // namespace engine
