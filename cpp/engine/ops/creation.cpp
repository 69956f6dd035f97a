#include <algorithm>
#include <cmath>
#include <cstdint>

#include "engine/core/error.h"
#include "engine/kernels/complex_copy.h"
#include "engine/kernels/elementwise.h"
#include "engine/kernels/parallel.h"
#include "engine/ops/ops.h"

namespace engine::ops {

Tensor empty(const Dims& shape, DType dtype) { return Tensor::empty(shape, dtype); }

Tensor full(const Dims& shape, double value, DType dtype) {
  Tensor t = Tensor::empty(shape, dtype);
  kernels::fill(t, value);
  return t;
}

namespace {
// The C++ type PyTorch's checked conversion of a fill value names.
const char* checked_type_name(DType d) {
  switch (d) {
    case DType::UInt8: return "uint8_t";
    case DType::Int8: return "int8_t";
    case DType::Int16: return "int16_t";
    case DType::Int32: return "int";
    case DType::Int64: return "int64_t";
    case DType::Float16: return "c10::Half";
    case DType::BFloat16: return "c10::BFloat16";
    case DType::Float32: return "float";
    default: return "double";
  }
}

// A complex fill value for a real dtype: its real part when the imaginary part is 0 (bool: whether
// it is nonzero), else PyTorch's overflow error.
Tensor complex_value_as_real(const Tensor& value, DType dtype) {
  const double re = kernels::read_double(kernels::complex_part(value, 0), 0);
  const double im = kernels::read_double(kernels::complex_part(value, 1), 0);
  if (dtype == DType::Bool) return wrapped_scalar(re != 0.0 || im != 0.0 ? 1.0 : 0.0, DType::Bool);
  ENGINE_CHECK(im == 0.0, std::runtime_error, "value cannot be converted to type ", checked_type_name(dtype),
               " without overflow");
  return wrapped_scalar(re, DType::Float64);
}
}  // namespace

Tensor full(const Dims& shape, const Tensor& given, DType dtype) {
  ENGINE_ASSERT(given.dim() == 0);
  const Tensor value = is_complex(given.dtype()) && !is_complex(dtype) ? complex_value_as_real(given, dtype) : given;
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

Tensor wrapped_scalar(double value, DType dtype) { return wrapped_scalar_as(value, dtype, dtype); }

Tensor wrapped_scalar_as(double value, DType stored, DType shown) {
  Tensor t = full({}, value, stored);
  t.get()->is_wrapped_number = true;
  t.get()->wrapped_dtype = shown;
  return t;
}

namespace {

// PyTorch's CPU linspace kernel, on a processor with AVX2 and FMA, contracts `start + step * i`
// into a fused multiply-add (its portable build does not): following it gives its values bit for
// bit, in float and in double.
bool pytorch_kernels_fuse() {
#if defined(__x86_64__) || defined(__i386__)
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return true;  // aarch64 and the rest: PyTorch's compilers contract there too
#endif
}

// PyTorch's CPU arange for float and double, reproduced so that the same arguments give the same
// bits: it splits the range into one chunk per thread past 32768 elements, fills each chunk in
// pairs of 32-byte vectors whose lanes are `base + k * step` from the vector's first element
// (`start + step * i`), and the tail element by element; every value is computed in double with
// fused multiply-adds and then rounded to the element type.
template <typename T>
void arange_fill(T* p, double start, double step, int64_t n) {
  static const bool fused = pytorch_kernels_fuse();
  auto mul_add = [](double a, double b, double c) { return fused ? std::fma(a, b, c) : a * b + c; };
  constexpr int64_t width = 32 / static_cast<int64_t>(sizeof(T));
  constexpr int64_t grain = 32768;
  const int64_t tasks = std::max<int64_t>(1, std::min<int64_t>(kernels::num_threads(), (n + grain - 1) / grain));
  const int64_t chunk = (n + tasks - 1) / tasks;
  for (int64_t begin = 0; begin < n; begin += chunk) {
    const int64_t end = std::min(n, begin + chunk);
    int64_t i = begin;
    for (; i + 2 * width <= end; i += 2 * width) {
      for (int64_t v = i; v < i + 2 * width; v += width) {
        const T base = static_cast<T>(mul_add(step, static_cast<double>(v), start));
        p[v] = base;
        for (int64_t k = 1; k < width; ++k) p[v + k] = static_cast<T>(mul_add(static_cast<double>(k), step, base));
      }
    }
    for (; i < end; ++i) p[i] = static_cast<T>(mul_add(step, static_cast<double>(i), start));
  }
}

}  // namespace

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
  if (dtype == DType::Float32) {
    arange_fill(t.data<float>(), start, step, n);
    return t;
  }
  if (dtype == DType::Float64) {
    arange_fill(t.data<double>(), start, step, n);
    return t;
  }
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

namespace {

// Element i is counted from `start` in the first half and back from `end` in the second, with
// the step held in the element type, as PyTorch does.
template <typename T>
void linspace_fill(T* p, T start, T end, int64_t steps) {
  static const bool fused = pytorch_kernels_fuse();
  const T step = (end - start) / static_cast<T>(steps - 1);
  const int64_t half = steps / 2;
  for (int64_t i = 0; i < steps; ++i) {
    const T n = static_cast<T>(i < half ? i : steps - i - 1);
    const T a = i < half ? step : -step, c = i < half ? start : end;
    p[i] = fused ? std::fma(a, n, c) : a * n + c;
  }
}

}  // namespace

Tensor linspace(double start, double end, int64_t steps, DType dtype) {
  ENGINE_CHECK(steps >= 0, std::runtime_error, "number of steps must be non-negative");
  Tensor t = Tensor::empty({steps}, dtype);
  if (steps == 1) {
    kernels::fill(t, start);  // a single point is `start` (the loops below would give `end`)
    return t;
  }
  if (steps == 0) return t;
  if (dtype == DType::Float32) {
    linspace_fill(t.data<float>(), static_cast<float>(start), static_cast<float>(end), steps);
    return t;
  }
  if (dtype == DType::Float64) {
    linspace_fill(t.data<double>(), start, end, steps);
    return t;
  }
  double step = (end - start) / static_cast<double>(steps - 1);
  // PyTorch holds a 16-bit linspace's step in the 16-bit type.
  if (dtype == DType::Float16) step = static_cast<float>(Half(static_cast<float>(step)));
  if (dtype == DType::BFloat16) step = static_cast<float>(BFloat16(static_cast<float>(step)));
  // Like PyTorch, fill the second half backwards from `end` so both endpoints are exact.
  const int64_t half = steps / 2;
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
