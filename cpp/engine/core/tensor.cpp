#include "engine/core/tensor.h"

#include "engine/core/error.h"

namespace engine {

TensorImpl::TensorImpl(std::shared_ptr<Storage> storage_, Dims shape_, Dims strides_, int64_t offset_, DType dtype_)
    : storage(std::move(storage_)), shape(std::move(shape_)), strides(std::move(strides_)), offset(offset_),
      dtype(dtype_) {
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

Tensor Tensor::empty(const Dims& shape, DType dtype) {
  for (int64_t s : shape) {
    ENGINE_CHECK(s >= 0, std::runtime_error, "Trying to create tensor with negative dimension ", s, ": ",
                 dims_str(shape));
  }
  int64_t n = numel_of(shape);
  auto storage = std::make_shared<Storage>(static_cast<size_t>(n) * itemsize(dtype));
  return Tensor(std::make_shared<TensorImpl>(std::move(storage), shape, contiguous_strides(shape), 0, dtype));
}

Tensor Tensor::as_strided(const Dims& shape, const Dims& strides, int64_t offset) const {
  auto impl = std::make_shared<TensorImpl>(impl_->storage, shape, strides, offset, impl_->dtype);
  // Views of views point at the root, so "is this a view of a leaf" is one step.
  impl->view_base = impl_->view_base ? impl_->view_base : impl_;
  return Tensor(std::move(impl));
}

int64_t Tensor::size(int64_t d) const { return impl_->shape[wrap_dim(d, dim())]; }

}  // namespace engine
