#include "engine/kernels/activation.h"

#include <algorithm>
#include <cmath>

#include "engine/core/error.h"
#include "engine/kernels/elementwise.h"
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
      return activation_map1<T>(out, x, [](T v) { return T(v * T(0.5) * (T(1) + std::erf(v * T(kSqrt1_2)))); });
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
        const T cdf = T(0.5) * (T(1) + std::erf(v * T(kSqrt1_2)));
        const T pdf = std::exp(T(-0.5) * v * v) * T(kNormalPdf);
        return T(g * (cdf + v * pdf));
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
  if (out.dtype() == DType::Float32) return forward_typed<float>(op, args, out, x);
  ENGINE_ASSERT(out.dtype() == DType::Float64);
  forward_typed<double>(op, args, out, x);
}

void activation_grad(Activation op, const ActivationArgs& args, const Tensor& out, const Tensor& grad,
                     const Tensor& x) {
  ENGINE_ASSERT(out.dtype() == x.dtype() && grad.dtype() == x.dtype());
  if (out.dtype() == DType::Float32) return grad_typed<float>(op, args, out, grad, x);
  ENGINE_ASSERT(out.dtype() == DType::Float64);
  grad_typed<double>(op, args, out, grad, x);
}

}  // namespace engine::kernels
