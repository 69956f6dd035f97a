// Tensor.view(dtype). The layout rules are PyTorch's at::native::view_dtype: the element size
// ratio scales the last dim and every other stride and the storage offset, which must divide
// evenly when the elements grow.
#include "engine/ops/view_dtype.h"

#include <cstdint>
#include <string>

#include "engine/core/error.h"
#include "engine/ops/ops.h"

namespace engine::ops {

namespace {

// The bytes of a bool view must be 0 or 1: C++ (and the kernels) may not read any other byte
// as a bool. PyTorch 2.13 makes such a tensor silently; engine names the first offending byte.
void check_bool_bytes(const Tensor& view, DType source) {
  Tensor bytes = view.as_strided(view.shape(), view.strides(), view.offset());
  bytes.get()->dtype = DType::UInt8;
  bytes = contiguous(bytes);
  const uint8_t* p = bytes.data<uint8_t>();
  for (int64_t i = 0; i < bytes.numel(); ++i) {
    ENGINE_CHECK(p[i] <= 1, std::runtime_error, "view(): the ", scalar_type_name(source),
                 " tensor holds the byte ", static_cast<int>(p[i]), " at element ", i,
                 " of the bool view, which is not a valid bool (0 or 1); compare instead "
                 "(t != 0) for a bool tensor of the nonzero elements");
  }
}

std::string what(DType from, DType to) {
  return std::string(" to view ") + scalar_type_name(from) + " as " + scalar_type_name(to) +
         " (different element sizes)";
}

}  // namespace

Tensor view_dtype(const Tensor& a, DType dtype) {
  const DType from = a.dtype();
  const int64_t from_size = static_cast<int64_t>(itemsize(from)), to_size = static_cast<int64_t>(itemsize(dtype));
  Dims shape = a.shape(), strides = a.strides();
  int64_t offset = a.offset();
  if (from_size != to_size) {
    const int64_t nd = a.dim();
    ENGINE_CHECK(nd > 0, std::runtime_error, "self.dim() cannot be 0", what(from, dtype));
    if (from_size > to_size) {
      const int64_t ratio = from_size / to_size;
      ENGINE_CHECK(strides[nd - 1] == 1, std::runtime_error, "self.stride(-1) must be 1", what(from, dtype),
                   ", but got ", strides[nd - 1]);
      for (int64_t i = 0; i < nd - 1; ++i) strides[i] *= ratio;
      shape[nd - 1] *= ratio;
      offset *= ratio;
    } else {
      const int64_t ratio = to_size / from_size;
      ENGINE_CHECK(shape[nd - 1] % ratio == 0, std::runtime_error, "self.size(-1) must be divisible by ", ratio,
                   what(from, dtype), ", but got ", shape[nd - 1]);
      ENGINE_CHECK(strides[nd - 1] == 1, std::runtime_error, "self.stride(-1) must be 1", what(from, dtype),
                   ", but got ", strides[nd - 1]);
      ENGINE_CHECK(offset % ratio == 0, std::runtime_error, "self.storage_offset() must be divisible by ", ratio,
                   what(from, dtype), ", but got ", offset);
      for (int64_t i = 0; i < nd - 1; ++i) {
        ENGINE_CHECK(strides[i] % ratio == 0, std::runtime_error, "self.stride(", i, ") must be divisible by ", ratio,
                     what(from, dtype), ", but got ", strides[i]);
        strides[i] /= ratio;
      }
      shape[nd - 1] /= ratio;
      offset /= ratio;
    }
  }
  // A view made the usual way (base, version, creation mode, inference flag), then retyped: the
  // new layout addresses exactly the bytes of the old one, so it stays inside the storage.
  Tensor out = a.as_strided(a.shape(), a.strides(), a.offset());
  TensorImpl* impl = out.get();
  impl->dtype = dtype;
  impl->shape = shape;
  impl->strides = strides;
  impl->offset = offset;
  impl->refresh_layout();
  if (dtype == DType::Bool && from != DType::Bool) check_bool_bytes(out, from);
  return out;
}

}  // namespace engine::ops
