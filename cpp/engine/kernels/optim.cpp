#include "engine/kernels/optim.h"

#include <cmath>

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

// PyTorch's lerp: the formula is chosen by the weight so that weight 1 returns `end` exactly.
template <typename T>
struct Lerp {
  T w, one_minus_w;
  bool small;
  explicit Lerp(double weight) : w(static_cast<T>(weight)), one_minus_w(T(1) - w), small(std::abs(w) < T(0.5)) {}
  T operator()(T self, T end) const { return small ? self + w * (end - self) : end - (end - self) * one_minus_w; }
};

// torch.maximum: NaN in either operand wins.
template <typename T>
T maximum(T a, T b) {
  return (a != a || a > b) ? a : b;
}

// The gradient as the update sees it: negated for maximize, plus weight_decay * param for L2
// decay (PyTorch's grad.add(param, alpha=weight_decay)).
template <typename T>
struct GradTransform {
  bool maximize, l2;
  T weight_decay;
  GradTransform(bool maximize_, double weight_decay_, bool l2_)
      : maximize(maximize_), l2(l2_ && weight_decay_ != 0), weight_decay(static_cast<T>(weight_decay_)) {}
  T operator()(T g, T p) const {
    if (maximize) g = -g;
    return l2 ? g + weight_decay * p : g;
  }
};

}  // namespace

template <typename T>
void sgd(const SgdConfig& c, T* param, const T* grad, T* buf, bool fresh_buffer, int64_t n) {
  const GradTransform<T> transform(c.maximize, c.weight_decay, true);
  const T momentum = static_cast<T>(c.momentum), keep = static_cast<T>(1 - c.dampening);
  const T neg_lr = static_cast<T>(-c.lr);
  for_chunks(n, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      T g = transform(grad[i], param[i]);
      if (buf) {
        const T b = fresh_buffer ? g : buf[i] * momentum + keep * g;
        buf[i] = b;
        g = c.nesterov ? g + momentum * b : b;
      }
      param[i] = param[i] + neg_lr * g;
    }
  });
}

template <typename T>
void adam(const AdamConfig& c, double step, T* param, const T* grad, T* exp_avg, T* exp_avg_sq, T* max_exp_avg_sq,
          int64_t n) {
  const GradTransform<T> transform(c.maximize, c.weight_decay, !c.decoupled_weight_decay);
  const bool decay = c.decoupled_weight_decay && c.weight_decay != 0;
  const T shrink = static_cast<T>(1 - c.lr * c.weight_decay);
  const Lerp<T> lerp(1 - c.beta1);
  const T beta2 = static_cast<T>(c.beta2), one_minus_beta2 = static_cast<T>(1 - c.beta2);
  const double step_size = c.lr / (1 - std::pow(c.beta1, step));
  const T bias_correction2_sqrt = static_cast<T>(std::pow(1 - std::pow(c.beta2, step), 0.5));
  const T eps = static_cast<T>(c.eps), neg_step_size = static_cast<T>(-step_size);
  for_chunks(n, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      T p = param[i];
      if (decay) p = p * shrink;
      const T g = transform(grad[i], p);
      const T m = lerp(exp_avg[i], g);
      T v = exp_avg_sq[i] * beta2 + one_minus_beta2 * g * g;
      exp_avg[i] = m;
      exp_avg_sq[i] = v;
      if (max_exp_avg_sq) v = max_exp_avg_sq[i] = maximum(max_exp_avg_sq[i], v);
      const T denom = std::sqrt(v) / bias_correction2_sqrt + eps;
      param[i] = p + neg_step_size * m / denom;
    }
  });
}

template <typename T>
void rmsprop(const RmspropConfig& c, T* param, const T* grad, T* square_avg, T* grad_avg, T* buf, int64_t n) {
  const GradTransform<T> transform(c.maximize, c.weight_decay, true);
  const T alpha = static_cast<T>(c.alpha), one_minus_alpha = static_cast<T>(1 - c.alpha);
  const Lerp<T> lerp(1 - c.alpha);
  const T eps = static_cast<T>(c.eps), momentum = static_cast<T>(c.momentum), neg_lr = static_cast<T>(-c.lr);
  for_chunks(n, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const T g = transform(grad[i], param[i]);
      const T sq = square_avg[i] * alpha + one_minus_alpha * g * g;
      square_avg[i] = sq;
      T avg;
      if (grad_avg) {
        const T ga = lerp(grad_avg[i], g);
        grad_avg[i] = ga;
        avg = std::sqrt(sq + T(-1) * ga * ga);
      } else {
        avg = std::sqrt(sq);
      }
      avg = avg + eps;
      if (buf) {
        const T b = buf[i] * momentum + T(1) * g / avg;
        buf[i] = b;
        param[i] = param[i] + neg_lr * b;
      } else {
        param[i] = param[i] + neg_lr * g / avg;
      }
    }
  });
}

template <typename T>
void adagrad(const AdagradConfig& c, double step, T* param, const T* grad, T* state_sum, int64_t n) {
  const GradTransform<T> transform(c.maximize, c.weight_decay, true);
  const T neg_clr = static_cast<T>(-(c.lr / (1 + (step - 1) * c.lr_decay)));
  const T eps = static_cast<T>(c.eps);
  for_chunks(n, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const T g = transform(grad[i], param[i]);
      const T s = state_sum[i] + T(1) * g * g;
      state_sum[i] = s;
      param[i] = param[i] + neg_clr * g / (std::sqrt(s) + eps);
    }
  });
}

template <typename T>
void adamax(const AdamaxConfig& c, double step, T* param, const T* grad, T* exp_avg, T* exp_inf, int64_t n) {
  const GradTransform<T> transform(c.maximize, c.weight_decay, true);
  const Lerp<T> lerp(1 - c.beta1);
  const T beta2 = static_cast<T>(c.beta2), eps = static_cast<T>(c.eps);
  const T neg_clr = static_cast<T>(-(c.lr / (1 - std::pow(c.beta1, step))));
  for_chunks(n, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      const T g = transform(grad[i], param[i]);
      const T m = lerp(exp_avg[i], g);
      const T u = maximum(exp_inf[i] * beta2, std::abs(g) + eps);
      exp_avg[i] = m;
      exp_inf[i] = u;
      param[i] = param[i] + neg_clr * m / u;
    }
  });
}

double nadam_mu(const NadamConfig& c, double step) {
  return c.beta1 * (1.0 - 0.5 * std::pow(0.96, step * c.momentum_decay));
}

template <typename T>
void nadam(const NadamConfig& c, double step, double product, T* param, const T* grad, T* exp_avg, T* exp_avg_sq,
           int64_t n) {
  const GradTransform<T> transform(c.maximize, c.weight_decay, !c.decoupled_weight_decay);
  const bool decay = c.decoupled_weight_decay && c.weight_decay != 0;
  const T shrink = static_cast<T>(1 - c.lr * c.weight_decay);
  const T bias_correction2 = static_cast<T>(1 - std::pow(c.beta2, step));
  const double mu = nadam_mu(c, step), mu_next = nadam_mu(c, step + 1);
  const T grad_coef = static_cast<T>(-c.lr * (1.0 - mu) / (1.0 - product));
  const T avg_coef = static_cast<T>((-c.lr * mu_next) / (1.0 - product * mu_next));
  const Lerp<T> lerp(1 - c.beta1);
  const T beta2 = static_cast<T>(c.beta2), one_minus_beta2 = static_cast<T>(1 - c.beta2);
  const T eps = static_cast<T>(c.eps);
  for_chunks(n, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      T p = param[i];
      if (decay) p = p * shrink;
      const T g = transform(grad[i], p);
      const T m = lerp(exp_avg[i], g);
      const T v = exp_avg_sq[i] * beta2 + one_minus_beta2 * g * g;
      exp_avg[i] = m;
      exp_avg_sq[i] = v;
      const T denom = std::sqrt(v / bias_correction2) + eps;
      p = p + grad_coef * g / denom;
      param[i] = p + avg_coef * m / denom;
    }
  });
}

template <typename T>
void radam(const RadamConfig& c, double step, T* param, const T* grad, T* exp_avg, T* exp_avg_sq, int64_t n) {
  const GradTransform<T> transform(c.maximize, c.weight_decay, !c.decoupled_weight_decay);
  const bool decay = c.decoupled_weight_decay && c.weight_decay != 0;
  const T shrink = static_cast<T>(1 - c.lr * c.weight_decay);
  const Lerp<T> lerp(1 - c.beta1);
  const T beta2 = static_cast<T>(c.beta2), one_minus_beta2 = static_cast<T>(1 - c.beta2);
  const double bias_correction1 = 1 - std::pow(c.beta1, step);
  const double bias_correction2 = 1 - std::pow(c.beta2, step);
  const double rho_inf = 2 / (1 - c.beta2) - 1;
  const double rho_t = rho_inf - 2 * step * std::pow(c.beta2, step) / bias_correction2;
  // Past the first few steps the variance is tractable and the update is rectified.
  const bool rectify = rho_t > 5.0;
  const T rect = static_cast<T>(
      rectify ? std::pow((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t), 0.5) : 0.0);
  const T bc1 = static_cast<T>(bias_correction1), bc2_sqrt = static_cast<T>(std::pow(bias_correction2, 0.5));
  const T lr = static_cast<T>(c.lr), eps = static_cast<T>(c.eps);
  for_chunks(n, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      T p = param[i];
      if (decay) p = p * shrink;
      const T g = transform(grad[i], p);
      const T m = lerp(exp_avg[i], g);
      const T v = exp_avg_sq[i] * beta2 + one_minus_beta2 * g * g;
      exp_avg[i] = m;
      exp_avg_sq[i] = v;
      T update = m / bc1 * lr;
      // PyTorch writes the adaptive rate as float / tensor, which Tensor.__rtruediv__ computes
      // as reciprocal(tensor) * float.
      if (rectify) update = update * ((T(1) / (std::sqrt(v) + eps)) * bc2_sqrt) * rect;
      param[i] = p + T(-1) * update;
    }
  });
}

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
