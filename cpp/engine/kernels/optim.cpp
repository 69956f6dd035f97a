#include "engine/kernels/optim.h"

#include <cmath>
#include <type_traits>

#include "engine/kernels/parallel.h"

namespace engine::kernels::optim {

namespace {

// Splits [0, n) over the pool; each chunk runs `f(begin, end)`, whose loop the compiler vectorises.
template <typename F>
void for_chunks(int64_t n, F f) {
  if (n <= kParallelGrain) {
    f(int64_t{0}, n);
    return;
  }
  parallel_for(n, kParallelGrain, f);
}

// Calls f with each runtime flag as a compile-time std::bool_constant, so that the element loops
// inside are free of branches and vectorise.
template <typename F>
void with_flags(F f) {
  f();
}
template <typename F, typename... Rest>
void with_flags(F f, bool flag, Rest... rest) {
  if (flag) {
    with_flags([&](auto... fs) { f(std::true_type{}, fs...); }, rest...);
  } else {
    with_flags([&](auto... fs) { f(std::false_type{}, fs...); }, rest...);
  }
}

// PyTorch's lerp: the formula is chosen by the weight so that weight 1 returns `end` exactly.
template <bool Small, typename T>
T lerp(T self, T end, T w, T one_minus_w) {
  return Small ? self + w * (end - self) : end - (end - self) * one_minus_w;
}
inline bool lerp_small(double w) { return std::abs(w) < 0.5; }

// torch.maximum: NaN in either operand wins.
template <typename T>
T maximum(T a, T b) {
  // Bitwise, not short-circuit: keeps the loops that use it branch-free.
  const bool take_a = (a != a) | (a > b);
  return take_a ? a : b;
}

// The gradient as the update sees it: negated for maximize (a multiplication by -1, exact), plus
// weight_decay * param for L2 decay (PyTorch's grad.add(param, alpha=weight_decay)), which
// PyTorch skips altogether when weight_decay is 0.
template <bool L2, typename T>
T effective_grad(T g, T p, T sign, T weight_decay) {
  g = g * sign;
  return L2 ? g + weight_decay * p : g;
}
template <typename T>
T grad_sign(bool maximize) {
  return maximize ? T(-1) : T(1);
}

// Decoupled weight decay scales the parameter by 1 - lr * weight_decay; 1 (exact) without it.
template <typename T>
T decoupled_shrink(bool decoupled, double lr, double weight_decay) {
  return decoupled && weight_decay != 0 ? static_cast<T>(1 - lr * weight_decay) : T(1);
}

// The element loops below are separate functions taking restrict pointers and their scalars by
// value: that is what lets the compiler vectorise them (through captured references it cannot).

template <typename T>
struct SgdScalars {
  T sign, weight_decay, momentum, keep, neg_lr;
};

template <typename T, bool L2, bool HasBuf, bool Fresh, bool Nesterov>
void sgd_range(T* __restrict param, const T* __restrict grad, T* __restrict buf, int64_t begin, int64_t end,
               const SgdScalars<T> s) {
  for (int64_t i = begin; i < end; ++i) {
    T g = effective_grad<L2>(grad[i], param[i], s.sign, s.weight_decay);
    if constexpr (HasBuf) {
      const T b = Fresh ? g : buf[i] * s.momentum + s.keep * g;
      buf[i] = b;
      g = Nesterov ? g + s.momentum * b : b;
    }
    param[i] = param[i] + s.neg_lr * g;
  }
}

template <typename T>
struct AdamScalars {
  T sign, weight_decay, shrink, w, one_minus_w, beta2, one_minus_beta2, bias_correction2_sqrt, eps, neg_step_size;
};

template <typename T, bool L2, bool Amsgrad, bool Small>
void adam_range(T* __restrict param, const T* __restrict grad, T* __restrict exp_avg, T* __restrict exp_avg_sq,
                T* __restrict max_exp_avg_sq, int64_t begin, int64_t end, const AdamScalars<T> s) {
  for (int64_t i = begin; i < end; ++i) {
    const T p = param[i] * s.shrink;
    const T g = effective_grad<L2>(grad[i], p, s.sign, s.weight_decay);
    const T m = lerp<Small>(exp_avg[i], g, s.w, s.one_minus_w);
    T v = exp_avg_sq[i] * s.beta2 + s.one_minus_beta2 * g * g;
    exp_avg[i] = m;
    exp_avg_sq[i] = v;
    if constexpr (Amsgrad) {
      v = maximum(max_exp_avg_sq[i], v);
      max_exp_avg_sq[i] = v;
    }
    const T denom = std::sqrt(v) / s.bias_correction2_sqrt + s.eps;
    param[i] = p + s.neg_step_size * m / denom;
  }
}

template <typename T>
struct RmspropScalars {
  T sign, weight_decay, alpha, one_minus_alpha, w, one_minus_w, eps, momentum, neg_lr;
};

template <typename T, bool L2, bool Centered, bool HasBuf, bool Small>
void rmsprop_range(T* __restrict param, const T* __restrict grad, T* __restrict square_avg, T* __restrict grad_avg,
                   T* __restrict buf, int64_t begin, int64_t end, const RmspropScalars<T> s) {
  for (int64_t i = begin; i < end; ++i) {
    const T g = effective_grad<L2>(grad[i], param[i], s.sign, s.weight_decay);
    const T sq = square_avg[i] * s.alpha + s.one_minus_alpha * g * g;
    square_avg[i] = sq;
    T avg;
    if constexpr (Centered) {
      const T ga = lerp<Small>(grad_avg[i], g, s.w, s.one_minus_w);
      grad_avg[i] = ga;
      avg = std::sqrt(sq + T(-1) * ga * ga);
    } else {
      avg = std::sqrt(sq);
    }
    avg = avg + s.eps;
    if constexpr (HasBuf) {
      const T b = buf[i] * s.momentum + T(1) * g / avg;
      buf[i] = b;
      param[i] = param[i] + s.neg_lr * b;
    } else {
      param[i] = param[i] + s.neg_lr * g / avg;
    }
  }
}

template <typename T>
struct AdagradScalars {
  T sign, weight_decay, neg_clr, eps;
};

template <typename T, bool L2>
void adagrad_range(T* __restrict param, const T* __restrict grad, T* __restrict state_sum, int64_t begin, int64_t end,
                   const AdagradScalars<T> s) {
  for (int64_t i = begin; i < end; ++i) {
    const T g = effective_grad<L2>(grad[i], param[i], s.sign, s.weight_decay);
    const T sum = state_sum[i] + T(1) * g * g;
    state_sum[i] = sum;
    param[i] = param[i] + s.neg_clr * g / (std::sqrt(sum) + s.eps);
  }
}

template <typename T>
struct AdamaxScalars {
  T sign, weight_decay, w, one_minus_w, beta2, eps, neg_clr;
};

template <typename T, bool L2, bool Small>
void adamax_range(T* __restrict param, const T* __restrict grad, T* __restrict exp_avg, T* __restrict exp_inf,
                  int64_t begin, int64_t end, const AdamaxScalars<T> s) {
  for (int64_t i = begin; i < end; ++i) {
    const T g = effective_grad<L2>(grad[i], param[i], s.sign, s.weight_decay);
    const T m = lerp<Small>(exp_avg[i], g, s.w, s.one_minus_w);
    const T u = maximum(exp_inf[i] * s.beta2, std::abs(g) + s.eps);
    exp_avg[i] = m;
    exp_inf[i] = u;
    param[i] = param[i] + s.neg_clr * m / u;
  }
}

template <typename T>
struct NadamScalars {
  T sign, weight_decay, shrink, w, one_minus_w, beta2, one_minus_beta2, bias_correction2, eps, grad_coef, avg_coef;
};

template <typename T, bool L2, bool Small>
void nadam_range(T* __restrict param, const T* __restrict grad, T* __restrict exp_avg, T* __restrict exp_avg_sq,
                 int64_t begin, int64_t end, const NadamScalars<T> s) {
  for (int64_t i = begin; i < end; ++i) {
    T p = param[i] * s.shrink;
    const T g = effective_grad<L2>(grad[i], p, s.sign, s.weight_decay);
    const T m = lerp<Small>(exp_avg[i], g, s.w, s.one_minus_w);
    const T v = exp_avg_sq[i] * s.beta2 + s.one_minus_beta2 * g * g;
    exp_avg[i] = m;
    exp_avg_sq[i] = v;
    const T denom = std::sqrt(v / s.bias_correction2) + s.eps;
    p = p + s.grad_coef * g / denom;
    param[i] = p + s.avg_coef * m / denom;
  }
}

template <typename T>
struct RadamScalars {
  T sign, weight_decay, shrink, w, one_minus_w, beta2, one_minus_beta2, bias_correction1, bias_correction2_sqrt, lr,
      eps, rect;
};

template <typename T, bool L2, bool Small, bool Rectified>
void radam_range(T* __restrict param, const T* __restrict grad, T* __restrict exp_avg, T* __restrict exp_avg_sq,
                 int64_t begin, int64_t end, const RadamScalars<T> s) {
  for (int64_t i = begin; i < end; ++i) {
    const T p = param[i] * s.shrink;
    const T g = effective_grad<L2>(grad[i], p, s.sign, s.weight_decay);
    const T m = lerp<Small>(exp_avg[i], g, s.w, s.one_minus_w);
    const T v = exp_avg_sq[i] * s.beta2 + s.one_minus_beta2 * g * g;
    exp_avg[i] = m;
    exp_avg_sq[i] = v;
    T update = m / s.bias_correction1 * s.lr;
    // PyTorch writes the adaptive rate as float / tensor, which Tensor.__rtruediv__ computes as
    // reciprocal(tensor) * float.
    if constexpr (Rectified) update = update * ((T(1) / (std::sqrt(v) + s.eps)) * s.bias_correction2_sqrt) * s.rect;
    param[i] = p + T(-1) * update;
  }
}

#define ENGINE_FLAG(f) decltype(f)::value

}  // namespace

template <typename T>
void sgd(const SgdConfig& c, T* param, const T* grad, T* buf, bool fresh_buffer, int64_t n) {
  const SgdScalars<T> s{grad_sign<T>(c.maximize), static_cast<T>(c.weight_decay), static_cast<T>(c.momentum),
                        static_cast<T>(1 - c.dampening), static_cast<T>(-c.lr)};
  with_flags(
      [&](auto l2, auto has_buf, auto fresh, auto nesterov) {
        for_chunks(n, [&](int64_t begin, int64_t end) {
          sgd_range<T, ENGINE_FLAG(l2), ENGINE_FLAG(has_buf), ENGINE_FLAG(fresh), ENGINE_FLAG(nesterov)>(
              param, grad, buf, begin, end, s);
        });
      },
      c.weight_decay != 0, buf != nullptr, fresh_buffer, c.nesterov);
}

template <typename T>
void adam(const AdamConfig& c, double step, T* param, const T* grad, T* exp_avg, T* exp_avg_sq, T* max_exp_avg_sq,
          int64_t n) {
  const double step_size = c.lr / (1 - std::pow(c.beta1, step));
  const T w = static_cast<T>(1 - c.beta1);
  const AdamScalars<T> s{grad_sign<T>(c.maximize),
                         static_cast<T>(c.weight_decay),
                         decoupled_shrink<T>(c.decoupled_weight_decay, c.lr, c.weight_decay),
                         w,
                         T(1) - w,
                         static_cast<T>(c.beta2),
                         static_cast<T>(1 - c.beta2),
                         static_cast<T>(std::pow(1 - std::pow(c.beta2, step), 0.5)),
                         static_cast<T>(c.eps),
                         static_cast<T>(-step_size)};
  const bool l2 = !c.decoupled_weight_decay && c.weight_decay != 0;
  with_flags(
      [&](auto l2_, auto amsgrad, auto small) {
        for_chunks(n, [&](int64_t begin, int64_t end) {
          adam_range<T, ENGINE_FLAG(l2_), ENGINE_FLAG(amsgrad), ENGINE_FLAG(small)>(
              param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, begin, end, s);
        });
      },
      l2, max_exp_avg_sq != nullptr, lerp_small(w));
}

template <typename T>
void rmsprop(const RmspropConfig& c, T* param, const T* grad, T* square_avg, T* grad_avg, T* buf, int64_t n) {
  const T w = static_cast<T>(1 - c.alpha);
  const RmspropScalars<T> s{grad_sign<T>(c.maximize), static_cast<T>(c.weight_decay), static_cast<T>(c.alpha),
                            static_cast<T>(1 - c.alpha),  w,
                            T(1) - w,                     static_cast<T>(c.eps),
                            static_cast<T>(c.momentum),   static_cast<T>(-c.lr)};
  with_flags(
      [&](auto l2, auto centered, auto has_buf, auto small) {
        for_chunks(n, [&](int64_t begin, int64_t end) {
          rmsprop_range<T, ENGINE_FLAG(l2), ENGINE_FLAG(centered), ENGINE_FLAG(has_buf), ENGINE_FLAG(small)>(
              param, grad, square_avg, grad_avg, buf, begin, end, s);
        });
      },
      c.weight_decay != 0, grad_avg != nullptr, buf != nullptr, lerp_small(w));
}

template <typename T>
void adagrad(const AdagradConfig& c, double step, T* param, const T* grad, T* state_sum, int64_t n) {
  const AdagradScalars<T> s{grad_sign<T>(c.maximize), static_cast<T>(c.weight_decay),
                            static_cast<T>(-(c.lr / (1 + (step - 1) * c.lr_decay))), static_cast<T>(c.eps)};
  with_flags(
      [&](auto l2) {
        for_chunks(n, [&](int64_t begin, int64_t end) {
          adagrad_range<T, ENGINE_FLAG(l2)>(param, grad, state_sum, begin, end, s);
        });
      },
      c.weight_decay != 0);
}

template <typename T>
void adamax(const AdamaxConfig& c, double step, T* param, const T* grad, T* exp_avg, T* exp_inf, int64_t n) {
  const T w = static_cast<T>(1 - c.beta1);
  const AdamaxScalars<T> s{grad_sign<T>(c.maximize), static_cast<T>(c.weight_decay), w, T(1) - w,
                           static_cast<T>(c.beta2),  static_cast<T>(c.eps),
                           static_cast<T>(-(c.lr / (1 - std::pow(c.beta1, step))))};
  with_flags(
      [&](auto l2, auto small) {
        for_chunks(n, [&](int64_t begin, int64_t end) {
          adamax_range<T, ENGINE_FLAG(l2), ENGINE_FLAG(small)>(param, grad, exp_avg, exp_inf, begin, end, s);
        });
      },
      c.weight_decay != 0, lerp_small(w));
}

double nadam_mu(const NadamConfig& c, double step) {
  return c.beta1 * (1.0 - 0.5 * std::pow(0.96, step * c.momentum_decay));
}

template <typename T>
void nadam(const NadamConfig& c, double step, double product, T* param, const T* grad, T* exp_avg, T* exp_avg_sq,
           int64_t n) {
  const double mu = nadam_mu(c, step), mu_next = nadam_mu(c, step + 1);
  const T w = static_cast<T>(1 - c.beta1);
  const NadamScalars<T> s{grad_sign<T>(c.maximize),
                          static_cast<T>(c.weight_decay),
                          decoupled_shrink<T>(c.decoupled_weight_decay, c.lr, c.weight_decay),
                          w,
                          T(1) - w,
                          static_cast<T>(c.beta2),
                          static_cast<T>(1 - c.beta2),
                          static_cast<T>(1 - std::pow(c.beta2, step)),
                          static_cast<T>(c.eps),
                          static_cast<T>(-c.lr * (1.0 - mu) / (1.0 - product)),
                          static_cast<T>((-c.lr * mu_next) / (1.0 - product * mu_next))};
  const bool l2 = !c.decoupled_weight_decay && c.weight_decay != 0;
  with_flags(
      [&](auto l2_, auto small) {
        for_chunks(n, [&](int64_t begin, int64_t end) {
          nadam_range<T, ENGINE_FLAG(l2_), ENGINE_FLAG(small)>(param, grad, exp_avg, exp_avg_sq, begin, end, s);
        });
      },
      l2, lerp_small(w));
}

template <typename T>
void radam(const RadamConfig& c, double step, T* param, const T* grad, T* exp_avg, T* exp_avg_sq, int64_t n) {
  const double bias_correction1 = 1 - std::pow(c.beta1, step);
  const double bias_correction2 = 1 - std::pow(c.beta2, step);
  const double rho_inf = 2 / (1 - c.beta2) - 1;
  const double rho_t = rho_inf - 2 * step * std::pow(c.beta2, step) / bias_correction2;
  // Past the first few steps the variance is tractable and the update is rectified.
  const bool rectify = rho_t > 5.0;
  const double rect =
      rectify ? std::pow((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t), 0.5) : 0.0;
  const T w = static_cast<T>(1 - c.beta1);
  const RadamScalars<T> s{grad_sign<T>(c.maximize),
                          static_cast<T>(c.weight_decay),
                          decoupled_shrink<T>(c.decoupled_weight_decay, c.lr, c.weight_decay),
                          w,
                          T(1) - w,
                          static_cast<T>(c.beta2),
                          static_cast<T>(1 - c.beta2),
                          static_cast<T>(bias_correction1),
                          static_cast<T>(std::pow(bias_correction2, 0.5)),
                          static_cast<T>(c.lr),
                          static_cast<T>(c.eps),
                          static_cast<T>(rect)};
  const bool l2 = !c.decoupled_weight_decay && c.weight_decay != 0;
  with_flags(
      [&](auto l2_, auto small, auto rectified) {
        for_chunks(n, [&](int64_t begin, int64_t end) {
          radam_range<T, ENGINE_FLAG(l2_), ENGINE_FLAG(small), ENGINE_FLAG(rectified)>(param, grad, exp_avg,
                                                                                        exp_avg_sq, begin, end, s);
        });
      },
      l2, lerp_small(w), rectify);
}

#undef ENGINE_FLAG

#define ENGINE_OPTIM_INSTANTIATE(T)                                                                            \
  template void sgd<T>(const SgdConfig&, T*, const T*, T*, bool, int64_t);                                    \
  template void adam<T>(const AdamConfig&, double, T*, const T*, T*, T*, T*, int64_t);                        \
  template void rmsprop<T>(const RmspropConfig&, T*, const T*, T*, T*, T*, int64_t);                          \
  template void adagrad<T>(const AdagradConfig&, double, T*, const T*, T*, int64_t);                          \
  template void adamax<T>(const AdamaxConfig&, double, T*, const T*, T*, T*, int64_t);                        \
  template void nadam<T>(const NadamConfig&, double, double, T*, const T*, T*, T*, int64_t);                  \
  template void radam<T>(const RadamConfig&, double, T*, const T*, T*, T*, int64_t);

ENGINE_OPTIM_INSTANTIATE(float)
ENGINE_OPTIM_INSTANTIATE(double)

#undef ENGINE_OPTIM_INSTANTIATE

}  // namespace engine::kernels::optim
