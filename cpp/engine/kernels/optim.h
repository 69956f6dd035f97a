#pragma once
// Fused optimizer updates (engine.optim): one pass over a parameter's elements does everything
// PyTorch's single-tensor CPU path does in several (lerp_, mul_, addcmul_, sqrt, add_, addcdiv_).
// Each element goes through the same sequence of operations as there, every intermediate rounded to
// the parameter's type and every Python-float hyperparameter converted to that type first, so the
// trajectories agree with PyTorch's to float rounding.
//
// The kernels know contiguous buffers only: the bindings check the tensors, make them contiguous
// and keep the step counters. `step` is the step number after this update's increment (1 on the
// first call), as PyTorch reads it from its 0-d step tensor. Large buffers are split over threads.
#include <cstdint>

namespace engine::kernels::optim {

struct SgdConfig {
  double lr, momentum, dampening, weight_decay;
  bool nesterov, maximize;
};
// `momentum_buffer` is null when momentum is 0; with `fresh_buffer` it is uninitialised and
// receives the (decayed) gradient, as PyTorch's first step clones it.
template <typename T>
void sgd(const SgdConfig& c, T* param, const T* grad, T* momentum_buffer, bool fresh_buffer, int64_t n);

struct AdamConfig {
  double lr, beta1, beta2, eps, weight_decay;
  bool amsgrad, maximize, decoupled_weight_decay;
};
// `max_exp_avg_sq` is null unless amsgrad.
template <typename T>
void adam(const AdamConfig& c, double step, T* param, const T* grad, T* exp_avg, T* exp_avg_sq, T* max_exp_avg_sq,
          int64_t n);

struct RmspropConfig {
  double lr, alpha, eps, weight_decay, momentum;
  bool centered, maximize;
};
// `grad_avg` is null unless centered; `momentum_buffer` null unless momentum > 0.
template <typename T>
void rmsprop(const RmspropConfig& c, T* param, const T* grad, T* square_avg, T* grad_avg, T* momentum_buffer,
             int64_t n);

struct AdagradConfig {
  double lr, lr_decay, weight_decay, eps;
  bool maximize;
};
template <typename T>
void adagrad(const AdagradConfig& c, double step, T* param, const T* grad, T* state_sum, int64_t n);

struct AdamaxConfig {
  double lr, beta1, beta2, eps, weight_decay;
  bool maximize;
};
template <typename T>
void adamax(const AdamaxConfig& c, double step, T* param, const T* grad, T* exp_avg, T* exp_inf, int64_t n);

struct NadamConfig {
  double lr, beta1, beta2, eps, weight_decay, momentum_decay;
  bool decoupled_weight_decay, maximize;
};
// NAdam's momentum coefficient of step `step`: beta1 * (1 - 0.5 * 0.96^(step * momentum_decay)).
double nadam_mu(const NadamConfig& c, double step);
// `mu_product` is the running product of the coefficients up to and including this step's, as
// the state keeps it (PyTorch: a 0-d tensor, updated by the caller before the call).
template <typename T>
void nadam(const NadamConfig& c, double step, double mu_product, T* param, const T* grad, T* exp_avg, T* exp_avg_sq,
           int64_t n);

struct RadamConfig {
  double lr, beta1, beta2, eps, weight_decay;
  bool decoupled_weight_decay, maximize;
};
template <typename T>
void radam(const RadamConfig& c, double step, T* param, const T* grad, T* exp_avg, T* exp_avg_sq, int64_t n);

struct AdadeltaConfig {
  double lr, rho, eps, weight_decay;
  bool maximize;
};
template <typename T>
void adadelta(const AdadeltaConfig& c, T* param, const T* grad, T* square_avg, T* acc_delta, int64_t n);

struct RpropConfig {
  double eta_minus, eta_plus, step_size_min, step_size_max;
  bool maximize;
};
// `prev` is the previous step's (masked) gradient, `step_size` the per-element step lengths.
template <typename T>
void rprop(const RpropConfig& c, T* param, const T* grad, T* prev, T* step_size, int64_t n);

struct AsgdConfig {
  double eta, lambd, mu, weight_decay;  // eta and mu: the state's values before this step
  bool maximize;
};
// Updates the parameter and its running average `ax`; the caller advances eta and mu.
template <typename T>
void asgd(const AsgdConfig& c, T* param, const T* grad, T* ax, int64_t n);

}  // namespace engine::kernels::optim
