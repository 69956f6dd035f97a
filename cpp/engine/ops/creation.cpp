#include <cmath>
#include <cstdint>

#include "engine/core/error.h"
#include "engine/kernels/elementwise.h"
#include "engine/ops/ops.h"

namespace engine::ops {

Tensor empty(const Dims& shape, DType dtype) { return Tensor::empty(shape, dtype); }

Tensor full(const Dims& shape, double value, DType dtype) {
  Tensor t = Tensor::empty(shape, dtype);
  kernels::fill(t, value);
  return t;
}

Tensor full(const Dims& shape, const Tensor& value, DType dtype) {
  ENGINE_ASSERT(value.dim() == 0);
  if (is_integral(dtype, false) && dtype != DType::Int64 && dtype != DType::Int32) {
    // The narrow types: PyTorch's checked conversion. Floats must lie in the type's range; integers
    // may also be negatives down to -max for an unsigned type (they wrap: -1 is 255 in uint8).
    const char* name = dtype == DType::UInt8 ? "uint8_t" : dtype == DType::Int8 ? "int8_t" : "int16_t";
    const double hi = dtype == DType::UInt8 ? 255.0 : dtype == DType::Int8 ? 127.0 : 32767.0;
    const double lowest = dtype == DType::UInt8 ? 0.0 : -hi - 1.0;
    const double lo = is_floating(value.dtype()) || dtype != DType::UInt8 ? lowest : -hi;
    const double d = kernels::read_double(value, 0);
    ENGINE_CHECK(d >= lo && d <= hi, std::runtime_error, "value cannot be converted to type ", name,
                 " without overflow");
  }
  if (dtype == DType::Int64 || dtype == DType::Int32) {
    // PyTorch's checked conversion, which names the C++ types.
    const char* name = dtype == DType::Int64 ? "int64_t" : "int";
    const double lo = dtype == DType::Int64 ? -9223372036854775808.0 : -2147483648.0;
    if (is_floating(value.dtype())) {
      const double d = kernels::read_double(value, 0);
      ENGINE_CHECK(d >= lo && d < -lo, std::runtime_error, "value cannot be converted to type ", name,
                   " without overflow");
    } else if (dtype == DType::Int32) {
      const int64_t v = kernels::read_int(value, 0);
      ENGINE_CHECK(v >= lo && v < -lo, std::runtime_error, "value cannot be converted to type ", name,
                   " without overflow");
    }
  }
  Tensor t = Tensor::empty(shape, dtype);
  kernels::copy(t, value);  // broadcasts the 0-d value; converts without going through double
  return t;
}

Tensor zeros(const Dims& shape, DType dtype) {
  // PyTorch's zeros checks sizes before allocating, with its own message.
  for (int64_t s : shape) ENGINE_CHECK(s >= 0, std::runtime_error, "zeros: Dimension size must be non-negative.");
  return full(shape, 0.0, dtype);
}
Tensor ones(const Dims& shape, DType dtype) { return full(shape, 1.0, dtype); }

Tensor wrapped_scalar(double value, DType dtype) {
  Tensor t = full({}, value, dtype);
  t.get()->is_wrapped_number = true;
  return t;
}

Tensor arange(double start, double end, double step, DType dtype) {
  ENGINE_CHECK(step != 0, std::runtime_error, "step must be nonzero");
  ENGINE_CHECK(std::isfinite(start) && std::isfinite(end), std::runtime_error, "unsupported range: ", start, " -> ",
               end);
  ENGINE_CHECK((step > 0 && end >= start) || (step < 0 && end <= start), std::runtime_error,
               "upper bound and lower bound inconsistent with step sign");
  // Checked in double before the conversion: 1e30 elements (or an infinite span) is an error, not
  // an undefined cast.
  const double count = std::ceil((end - start) / step);
  ENGINE_CHECK(count >= 0 && count <= 9.2e18, std::runtime_error, "invalid size, possible overflow?");
  const int64_t n = static_cast<int64_t>(count);
  Tensor t = Tensor::empty({n}, dtype);
  ENGINE_DISPATCH_ALL(dtype, [&](auto tag) {
    using T = decltype(tag);
    T* p = t.data<T>();
    for (int64_t i = 0; i < n; ++i) p[i] = static_cast<T>(start + static_cast<double>(i) * step);
  });
  return t;
}

Tensor arange(int64_t start, int64_t end, int64_t step, DType dtype) {
  ENGINE_CHECK(step != 0, std::runtime_error, "step must be nonzero");
  ENGINE_CHECK((step > 0 && end >= start) || (step < 0 && end <= start), std::runtime_error,
               "upper bound and lower bound inconsistent with step sign");
  // In integers throughout: doubles would merge neighbours past 2**53. The span of two int64s
  // needs 64 unsigned bits; each element's true value fits in int64, so unsigned (wrapping)
  // arithmetic gives it exactly.
  const uint64_t span = step > 0 ? uint64_t(end) - uint64_t(start) : uint64_t(start) - uint64_t(end);
  const uint64_t st = step > 0 ? uint64_t(step) : 0 - uint64_t(step);
  const uint64_t count = span / st + (span % st != 0);
  ENGINE_CHECK(count <= uint64_t(INT64_MAX), std::runtime_error, "invalid size, possible overflow?");
  const int64_t n = static_cast<int64_t>(count);
  Tensor t = Tensor::empty({n}, dtype);
  ENGINE_DISPATCH_ALL(dtype, [&](auto tag) {
    using T = decltype(tag);
    T* p = t.data<T>();
    for (int64_t i = 0; i < n; ++i) p[i] = static_cast<T>(static_cast<int64_t>(uint64_t(start) + uint64_t(i) * uint64_t(step)));
  });
  return t;
}

Tensor linspace(double start, double end, int64_t steps, DType dtype) {
  ENGINE_CHECK(steps >= 0, std::runtime_error, "number of steps must be non-negative");
  Tensor t = Tensor::empty({steps}, dtype);
  double step = steps > 1 ? (end - start) / static_cast<double>(steps - 1) : 0.0;
  // PyTorch holds a 16-bit linspace's step in the 16-bit type.
  if (dtype == DType::Float16) step = static_cast<float>(Half(static_cast<float>(step)));
  if (dtype == DType::BFloat16) step = static_cast<float>(BFloat16(static_cast<float>(step)));
  // Like PyTorch, fill the second half backwards from `end` so both endpoints are exact.
  const int64_t half = steps / 2;
  if (steps == 1) {
    kernels::fill(t, start);  // a single point is `start` (the loop below would give `end`)
    return t;
  }
  ENGINE_DISPATCH_ALL(dtype, [&](auto tag) {
    using T = decltype(tag);
    T* p = t.data<T>();
    for (int64_t i = 0; i < steps; ++i) {
      const double v = i < half ? start + step * static_cast<double>(i)
                                : end - step * static_cast<double>(steps - i - 1);
      p[i] = static_cast<T>(v);
    }
  });
  return t;
}

}  // namespace engine::ops
