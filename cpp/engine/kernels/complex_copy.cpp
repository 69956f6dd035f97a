#include "engine/kernels/complex_copy.h"

#include "engine/core/error.h"
#include "engine/kernels/elementwise.h"

namespace engine::kernels {

namespace {
// A view of z's storage retyped to z's real value type, with the given layout in real elements.
Tensor complex_retyped_view(const Tensor& z, Dims shape, Dims strides, int64_t offset) {
  Tensor v = z.as_strided(z.shape(), z.strides(), z.offset());
  TensorImpl* impl = v.get();
  impl->dtype = complex_value_type(z.dtype());
  impl->shape = std::move(shape);
  impl->strides = std::move(strides);
  impl->offset = offset;
  impl->refresh_layout();
  return v;
}

Dims complex_doubled_strides(const Dims& strides) {
  Dims out = strides;
  for (auto& s : out) s *= 2;
  return out;
}
}  // namespace

Tensor complex_as_real(const Tensor& z) {
  ENGINE_ASSERT(is_complex(z.dtype()));
  Dims shape = z.shape(), strides = complex_doubled_strides(z.strides());
  shape.push_back(2);
  strides.push_back(1);
  return complex_retyped_view(z, std::move(shape), std::move(strides), z.offset() * 2);
}

Tensor complex_part(const Tensor& z, int part) {
  ENGINE_ASSERT(is_complex(z.dtype()) && (part == 0 || part == 1));
  return complex_retyped_view(z, z.shape(), complex_doubled_strides(z.strides()), z.offset() * 2 + part);
}

void copy_complex(const Tensor& dst, const Tensor& src) {
  if (!is_complex(dst.dtype())) throw_not_implemented_for("copy_", src.dtype());
  if (is_complex(src.dtype())) {
    copy(complex_as_real(dst), complex_as_real(src));
    return;
  }
  copy(complex_part(dst, 0), src);
  fill(complex_part(dst, 1), 0.0);
}

void fill_complex(const Tensor& dst, double re, double im) {
  fill(complex_part(dst, 0), re);
  fill(complex_part(dst, 1), im);
}

}  // namespace engine::kernels
