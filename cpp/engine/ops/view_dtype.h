#pragma once
// Tensor.view(dtype): the same bytes read as another dtype (PyTorch's view.dtype). Declared apart
// from ops.h: only its binding uses it.
#include "engine/core/tensor.h"

namespace engine::ops {

// A view of `a`'s storage whose elements are `dtype`. With equal element sizes it keeps a's
// shape and strides; otherwise the last dim (stride 1) grows or shrinks by the size ratio, with
// PyTorch 2.13's conditions and messages. The view records no gradient (PyTorch's is not
// differentiable). Viewing as bool bytes other than 0 and 1 raises instead of making an invalid
// bool tensor.
Tensor view_dtype(const Tensor& a, DType dtype);

}  // namespace engine::ops
