#include "engine/kernels/activation.h"

#include <algorithm>
#include <cmath>

#include "engine/core/error.h"
#include "engine/kernels/elementwise.h"
#include "engine/kernels/parallel.h"
#include "engine/kernels/simd/table.h"
#include "engine/kernels/strided_loop.h"

namespace engine::kernels {

namespace {

// out[i] = f(x[i]) over strided operands of one floating type.
template <typename T, typename F>
void activation_map1(const Tensor& out, const Tensor& x, F f) {
  StridedOperands<2> op;
  op.shape = out.shape();
  op.strides = {broadcast_byte_strides(out, out.shape()), broadcast_byte_strides(x, out.shape())};
  op.data = {static_cast<char*>(out.raw_data()), static_cast<char*>(x.raw_data())};
  parallel_for_each_run(op, [&](std::array<char*, 2> p, std::array<int64_t, 2> s, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      *reinterpret_cast<T*>(p[0] + i * s[0]) = f(*reinterpret_cast<const T*>(p[1] + i * s[1]));
    }
  });
}

// out[i] = f(grad[i], x[i]).
template <typename T, typename F>
void activation_map2(const Tensor& out, const Tensor& grad, const Tensor& x, F f) {
  StridedOperands<3> op;
  op.shape = out.shape();
  op.strides = {broadcast_byte_strides(out, out.shape()), broadcast_byte_strides(grad, out.shape()),
                broadcast_byte_strides(x, out.shape())};
  op.data = {static_cast<char*>(out.raw_data()), static_cast<char*>(grad.raw_data()),
             static_cast<char*>(x.raw_data())};
  parallel_for_each_run(op, [&](std::array<char*, 3> p, std::array<int64_t, 3> s, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      *reinterpret_cast<T*>(p[0] + i * s[0]) =
          f(*reinterpret_cast<const T*>(p[1] + i * s[1]), *reinterpret_cast<const T*>(p[2] + i * s[2]));
    }
  });
}

// The constants of PyTorch's GELU kernels.
constexpr double kSqrt1_2 = 0.707106781186547524400844362104849039;
constexpr double kNormalPdf = 0.398942280401432677939946059934381868;  // 1 / sqrt(2 pi)
constexpr double kGeluTanhBeta = 0.797884560802865355879892119868763737;  // sqrt(2 / pi)
constexpr double kGeluTanhKappa = 0.044715;

template <typename T>
T sigmoid_of(T x) {
  return T(1) / (T(1) + std::exp(-x));
}

template <typename T>
void forward_typed(Activation op, const ActivationArgs& args, const Tensor& out, const Tensor& x) {
  const T a = static_cast<T>(args.a), b = static_cast<T>(args.b), c = static_cast<T>(args.c);
  switch (op) {
    case Activation::Gelu:
      // Phi(x) as erfc(-x / sqrt 2) / 2 in double: 1 + erf(x / sqrt 2) cancels in the left tail.
      return activation_map1<T>(out, x, [](T v) {
        const double d = static_cast<double>(v);
        return T(d * 0.5 * std::erfc(-d * kSqrt1_2));
      });
    case Activation::GeluTanh:
      return activation_map1<T>(out, x, [](T v) {
        const T inner = T(kGeluTanhBeta) * (v + T(kGeluTanhKappa) * v * v * v);
        return T(T(0.5) * v * (T(1) + std::tanh(inner)));
      });
    case Activation::Silu: return activation_map1<T>(out, x, [](T v) { return T(v / (T(1) + std::exp(-v))); });
    case Activation::Elu:
    case Activation::EluResult: {
      const T negcoef = static_cast<T>(args.a * args.b);
      return activation_map1<T>(out, x, [=](T v) { return v <= T(0) ? T(std::expm1(v * c) * negcoef) : T(v * b); });
    }
    case Activation::LeakyRelu: return activation_map1<T>(out, x, [=](T v) { return v > T(0) ? v : T(v * a); });
    case Activation::Softplus:
      return activation_map1<T>(out, x, [=](T v) { return v * a > b ? v : T(std::log1p(std::exp(v * a)) / a); });
    case Activation::Hardtanh:
      // clamp's: NaN stays NaN.
      return activation_map1<T>(out, x, [=](T v) { return std::isnan(v) ? v : std::min(std::max(v, a), b); });
    case Activation::Mish:
      return activation_map1<T>(out, x, [](T v) { return T(v * std::tanh(std::log1p(std::exp(v)))); });
    case Activation::Hardsigmoid:
      return activation_map1<T>(out, x, [](T v) { return T(std::min(std::max(v + T(3), T(0)), T(6)) / T(6)); });
    case Activation::Hardswish:
      return activation_map1<T>(out, x, [](T v) { return T(v * std::min(std::max(v + T(3), T(0)), T(6)) / T(6)); });
    case Activation::LogSigmoid:
      return activation_map1<T>(out, x, [](T v) { return T(std::min(v, T(0)) - std::log1p(std::exp(-std::abs(v)))); });
  }
}

template <typename T>
void grad_typed(Activation op, const ActivationArgs& args, const Tensor& out, const Tensor& grad, const Tensor& x) {
  const T a = static_cast<T>(args.a), b = static_cast<T>(args.b), c = static_cast<T>(args.c);
  switch (op) {
    case Activation::Gelu:
      return activation_map2<T>(out, grad, x, [](T g, T v) {
        const double d = static_cast<double>(v);
        const double cdf = 0.5 * std::erfc(-d * kSqrt1_2), pdf = std::exp(-0.5 * d * d) * kNormalPdf;
        return T(static_cast<double>(g) * (cdf + d * pdf));
      });
    case Activation::GeluTanh:
      return activation_map2<T>(out, grad, x, [](T g, T v) {
        const T v2 = v * v;
        const T t = std::tanh(T(kGeluTanhBeta) * (v + T(kGeluTanhKappa) * v2 * v));
        const T dinner = T(kGeluTanhBeta) * (T(1) + T(3 * kGeluTanhKappa) * v2);
        return T(g * (T(0.5) * (T(1) + t) + T(0.5) * v * (T(1) - t * t) * dinner));
      });
    case Activation::Silu:
      return activation_map2<T>(out, grad, x, [](T g, T v) {
        const T s = sigmoid_of(v);
        return T(g * s * (T(1) + v * (T(1) - s)));
      });
    case Activation::Elu: {
      const T negcoef = static_cast<T>(args.a * args.b);
      return activation_map2<T>(out, grad, x,
                                [=](T g, T v) { return v <= T(0) ? T(g * c * negcoef * std::exp(v * c)) : T(g * b); });
    }
    case Activation::EluResult: {
      const T negcoef = static_cast<T>(args.a * args.b);
      return activation_map2<T>(out, grad, x, [=](T g, T y) { return y <= T(0) ? T(g * c * (y + negcoef)) : T(g * b); });
    }
    case Activation::LeakyRelu: return activation_map2<T>(out, grad, x, [=](T g, T v) { return v > T(0) ? g : T(g * a); });
    case Activation::Softplus:
      return activation_map2<T>(out, grad, x, [=](T g, T v) {
        const T z = std::exp(v * a);
        return v * a > b ? g : T(g * z / (z + T(1)));
      });
    case Activation::Hardtanh:
      // PyTorch's vectorised rule, which its kernel applies to all but a short tail: NaN passes nothing.
      return activation_map2<T>(out, grad, x, [=](T g, T v) { return v > a && v < b ? g : T(0); });
    case Activation::Mish:
      return activation_map2<T>(out, grad, x, [](T g, T v) {
        const T s = sigmoid_of(v);
        const T t = std::tanh(std::log1p(std::exp(v)));
        return T(g * (t + v * s * (T(1) - t * t)));
      });
    case Activation::Hardsigmoid: {
      // PyTorch's kernel multiplies by 1/6 rounded to float, for double too.
      const T one_sixth = static_cast<T>(1.0f / 6.0f);
      return activation_map2<T>(out, grad, x, [=](T g, T v) { return v > T(-3) && v < T(3) ? T(g * one_sixth) : T(0); });
    }
    case Activation::Hardswish:
      return activation_map2<T>(out, grad, x, [](T g, T v) {
        if (v <= T(-3)) return T(0);
        if (v < T(3)) return T(g * (v / T(3) + T(0.5)));
        return g;
      });
    case Activation::LogSigmoid:
      return activation_map2<T>(out, grad, x, [](T g, T v) {
        const bool negative = v < T(0);
        const T z = std::exp(-std::abs(v));
        return T(g * ((negative ? T(1) : T(0)) - (negative ? T(1) : T(-1)) * (z / (T(1) + z))));
      });
  }
}


// The chunk loops select between values already computed; without trapping math the compiler
// turns those selections into vector blends instead of branches (FP exception flags are not
// observable from engine, so nothing is lost).
#pragma GCC push_options
#pragma GCC optimize("no-trapping-math")
// ---- float32 over contiguous memory: the common case of a layer's activation ----
// Chunks of kActChunk elements: the transcendental part runs through the vectorised exp / tanh /
// sigmoid loops of simd/ (those float32 exp and sigmoid compute), the rest in plain loops
// without branches, which the compiler vectorises. The other activations (and float64) take the
// scalar loops above.
constexpr int64_t kActChunk = 512;

// out = op(in) over n contiguous floats with the vectorised loop; false when there is none.
bool simd_unary(UnaryOp op, float* out, const float* in, int64_t n) {
  const simd::UnaryLoop loop = simd::unary_loop<float>(op);
  if (!loop) return false;
  loop(reinterpret_cast<char*>(out), reinterpret_cast<const char*>(in), sizeof(float), sizeof(float), n);
  return true;
}

bool has_fast_path(Activation op) {
  switch (op) {
    case Activation::Silu:
    case Activation::GeluTanh:
    case Activation::Mish:
      return simd::unary_loop<float>(UnaryOp::Exp) && simd::unary_loop<float>(UnaryOp::Tanh) &&
             simd::unary_loop<float>(UnaryOp::Sigmoid);
    case Activation::Gelu: return true;
    case Activation::LeakyRelu:
    case Activation::Hardtanh:
    case Activation::Hardsigmoid:
    case Activation::Hardswish: return true;
    default: return false;
  }
}

// tanh(softplus(x)) = n / (n + 2) with e = exp(x), n = e (e + 2); above 20 it is 1 in float.
void mish_parts(const float* x, float* e, float* t, int64_t n) {
  for (int64_t i = 0; i < n; ++i) e[i] = std::min(x[i], 20.0f);
  simd_unary(UnaryOp::Exp, e, e, n);
  for (int64_t i = 0; i < n; ++i) {
    const float m = e[i] * (e[i] + 2.0f);
    t[i] = m / (m + 2.0f);
  }
}

void gelu_tanh_inner(const float* x, float* t, int64_t n) {
  const float beta = float(kGeluTanhBeta), kappa = float(kGeluTanhKappa);
  for (int64_t i = 0; i < n; ++i) t[i] = beta * (x[i] + kappa * x[i] * x[i] * x[i]);
  simd_unary(UnaryOp::Tanh, t, t, n);
}

void forward_chunk(Activation op, const ActivationArgs& args, float* out, const float* x, int64_t n) {
  float t[kActChunk], e[kActChunk];
  const float a = float(args.a), b = float(args.b);
  switch (op) {
    case Activation::Gelu: return simd::active().gelu_f32(out, x, nullptr, n);
    case Activation::Silu:
      simd_unary(UnaryOp::Sigmoid, t, x, n);
      for (int64_t i = 0; i < n; ++i) out[i] = x[i] * t[i];
      return;
    case Activation::GeluTanh:
      gelu_tanh_inner(x, t, n);
      for (int64_t i = 0; i < n; ++i) out[i] = 0.5f * x[i] * (1.0f + t[i]);
      return;
    case Activation::Mish:
      mish_parts(x, e, t, n);
      for (int64_t i = 0; i < n; ++i) out[i] = x[i] * t[i];
      return;
    case Activation::LeakyRelu:
      for (int64_t i = 0; i < n; ++i) {
        const float v = x[i], scaled = v * a;
        out[i] = v > 0.0f ? v : scaled;
      }
      return;
    case Activation::Hardtanh:
      // NaN stays NaN (x != x), as clamp's.
      for (int64_t i = 0; i < n; ++i) {
        const float v = x[i], low = v < a ? a : v, clamped = low > b ? b : low;
        out[i] = v != v ? v : clamped;
      }
      return;
    case Activation::Hardsigmoid:
      for (int64_t i = 0; i < n; ++i) {
        const float shifted = x[i] + 3.0f, low = shifted < 0.0f ? 0.0f : shifted;
        out[i] = (low > 6.0f ? 6.0f : low) / 6.0f;
      }
      return;
    case Activation::Hardswish:
      for (int64_t i = 0; i < n; ++i) {
        const float shifted = x[i] + 3.0f, low = shifted < 0.0f ? 0.0f : shifted;
        out[i] = x[i] * (low > 6.0f ? 6.0f : low) / 6.0f;
      }
      return;
    default: return;
  }
}

void grad_chunk(Activation op, const ActivationArgs& args, float* out, const float* g, const float* x, int64_t n) {
  float t[kActChunk], e[kActChunk];
  const float a = float(args.a), b = float(args.b);
  switch (op) {
    case Activation::Gelu:  // PyTorch's: grad * (cdf + x * pdf)
      return simd::active().gelu_f32(out, x, g, n);
    case Activation::Silu:
      simd_unary(UnaryOp::Sigmoid, t, x, n);
      for (int64_t i = 0; i < n; ++i) out[i] = g[i] * t[i] * (1.0f + x[i] * (1.0f - t[i]));
      return;
    case Activation::GeluTanh: {
      gelu_tanh_inner(x, t, n);
      const float beta = float(kGeluTanhBeta), kappa3 = float(3 * kGeluTanhKappa);
      for (int64_t i = 0; i < n; ++i) {
        const float dinner = beta * (1.0f + kappa3 * x[i] * x[i]);
        out[i] = g[i] * (0.5f * (1.0f + t[i]) + 0.5f * x[i] * (1.0f - t[i] * t[i]) * dinner);
      }
      return;
    }
    case Activation::Mish:
      mish_parts(x, e, t, n);
      simd_unary(UnaryOp::Sigmoid, e, x, n);
      for (int64_t i = 0; i < n; ++i) out[i] = g[i] * (t[i] + x[i] * e[i] * (1.0f - t[i] * t[i]));
      return;
    case Activation::LeakyRelu:
      for (int64_t i = 0; i < n; ++i) {
        const float scaled = g[i] * a;
        out[i] = x[i] > 0.0f ? g[i] : scaled;
      }
      return;
    case Activation::Hardtanh:
      for (int64_t i = 0; i < n; ++i) out[i] = (x[i] > a) & (x[i] < b) ? g[i] : 0.0f;
      return;
    case Activation::Hardsigmoid: {
      const float one_sixth = 1.0f / 6.0f;
      for (int64_t i = 0; i < n; ++i) {
        const float scaled = g[i] * one_sixth;
        out[i] = (x[i] > -3.0f) & (x[i] < 3.0f) ? scaled : 0.0f;
      }
      return;
    }
    case Activation::Hardswish:
      for (int64_t i = 0; i < n; ++i) {
        const float sloped = g[i] * (x[i] / 3.0f + 0.5f);
        const float middle = x[i] < 3.0f ? sloped : g[i];
        out[i] = x[i] <= -3.0f ? 0.0f : middle;
      }
      return;
    default: return;
  }
}

#pragma GCC pop_options

// Runs `chunk(begin, count)` over [0, n) in chunks, on the thread pool when n is large.
template <typename F>
void over_chunks(int64_t n, F chunk) {
  ReleaseInterpreterLock unlocked(n);
  parallel_for(n, kParallelGrain, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; i += kActChunk) chunk(i, std::min(kActChunk, end - i));
  });
}

bool contiguous_f32(std::initializer_list<const Tensor*> ts) {
  for (const Tensor* t : ts) {
    if (t->dtype() != DType::Float32 || !t->is_contiguous()) return false;
  }
  return true;
}

}  // namespace

void log_sigmoid_forward(const Tensor& out, const Tensor& buffer, const Tensor& x) {
  ENGINE_ASSERT(out.dtype() == x.dtype() && buffer.dtype() == x.dtype());
  auto run = [&](auto zero) {
    using T = decltype(zero);
    StridedOperands<3> op;
    op.shape = out.shape();
    op.strides = {broadcast_byte_strides(out, out.shape()), broadcast_byte_strides(buffer, out.shape()),
                  broadcast_byte_strides(x, out.shape())};
    op.data = {static_cast<char*>(out.raw_data()), static_cast<char*>(buffer.raw_data()),
               static_cast<char*>(x.raw_data())};
    parallel_for_each_run(op, [&](std::array<char*, 3> p, std::array<int64_t, 3> s, int64_t n) {
      for (int64_t i = 0; i < n; ++i) {
        const T v = *reinterpret_cast<const T*>(p[2] + i * s[2]);
        const T z = std::exp(-std::abs(v));
        *reinterpret_cast<T*>(p[1] + i * s[1]) = z;
        *reinterpret_cast<T*>(p[0] + i * s[0]) = T(std::min(v, T(0)) - std::log1p(z));
      }
    });
  };
  if (out.dtype() == DType::Float32) return run(0.0f);
  ENGINE_ASSERT(out.dtype() == DType::Float64);
  run(0.0);
}

void activation(Activation op, const ActivationArgs& args, const Tensor& out, const Tensor& x) {
  ENGINE_ASSERT(out.dtype() == x.dtype());
  if (has_fast_path(op) && contiguous_f32({&out, &x}) && out.shape() == x.shape()) {
    float* o = static_cast<float*>(out.raw_data());
    const float* in = static_cast<const float*>(x.raw_data());
    return over_chunks(out.numel(), [&](int64_t i, int64_t n) { forward_chunk(op, args, o + i, in + i, n); });
  }
  if (out.dtype() == DType::Float32) return forward_typed<float>(op, args, out, x);
  ENGINE_ASSERT(out.dtype() == DType::Float64);
  forward_typed<double>(op, args, out, x);
}

void activation_grad(Activation op, const ActivationArgs& args, const Tensor& out, const Tensor& grad,
                     const Tensor& x) {
  ENGINE_ASSERT(out.dtype() == x.dtype() && grad.dtype() == x.dtype());
  if (has_fast_path(op) && contiguous_f32({&out, &grad, &x}) && out.shape() == x.shape() &&
      grad.shape() == x.shape()) {
    float* o = static_cast<float*>(out.raw_data());
    const float* g = static_cast<const float*>(grad.raw_data());
    const float* in = static_cast<const float*>(x.raw_data());
    return over_chunks(out.numel(),
                       [&](int64_t i, int64_t n) { grad_chunk(op, args, o + i, g + i, in + i, n); });
  }
  if (out.dtype() == DType::Float32) return grad_typed<float>(op, args, out, grad, x);
  ENGINE_ASSERT(out.dtype() == DType::Float64);
  grad_typed<double>(op, args, out, grad, x);
}

}  // namespace engine::kernels
