#pragma once
// Copies into and out of complex tensors. A complex tensor's memory is its real view's (pairs of
// float32 or float64), so every copy here is a real copy between such views.
#include "engine/core/tensor.h"

namespace engine::kernels {

// The bytes of complex `z` as real elements (float32 for complex64): shape z.shape + [2], the last
// dim holding (real, imaginary). A raw view: no autograd, no checks beyond the layout's own.
Tensor complex_as_real(const Tensor& z);
// The real (part 0) or imaginary (part 1) halves of complex `z`, as a raw real view of z's shape.
Tensor complex_part(const Tensor& z, int part);
// dst = src (src broadcast to dst's shape) where either is complex: complex <- complex converts
// each half, complex <- real writes a zero imaginary part. complex -> real is refused: discarding
// the imaginary part is a decision for the op that asks for it (to(), .real), never a cast.
void copy_complex(const Tensor& dst, const Tensor& src);
// Every element of complex `dst` set to re + im*j.
void fill_complex(const Tensor& dst, double re, double im);

}  // namespace engine::kernels
