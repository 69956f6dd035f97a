#pragma once
// The per-instruction-set copies of the optimizer loops (optim_loops.inc); kernels/optim.cpp
// picks one at run time with the rest of the vectorised loops (simd::active()).
#include <cstdint>

#include "engine/kernels/optim.h"

#define ENGINE_OPTIM_DECLARE_ISA(NS)                                                                              \
  namespace NS {                                                                                                  \
  template <typename T>                                                                                           \
  void sgd(const SgdConfig& c, T* param, const T* grad, T* momentum_buffer, bool fresh_buffer, int64_t n);       \
  template <typename T>                                                                                           \
  void adam(const AdamConfig& c, double step, T* param, const T* grad, T* exp_avg, T* exp_avg_sq,                 \
            T* max_exp_avg_sq, int64_t n);                                                                        \
  template <typename T>                                                                                           \
  void rmsprop(const RmspropConfig& c, T* param, const T* grad, T* square_avg, T* grad_avg, T* momentum_buffer,   \
               int64_t n);                                                                                        \
  template <typename T>                                                                                           \
  void adagrad(const AdagradConfig& c, double step, T* param, const T* grad, T* state_sum, int64_t n);            \
  template <typename T>                                                                                           \
  void adamax(const AdamaxConfig& c, double step, T* param, const T* grad, T* exp_avg, T* exp_inf, int64_t n);    \
  template <typename T>                                                                                           \
  void nadam(const NadamConfig& c, double step, double mu_product, T* param, const T* grad, T* exp_avg,           \
             T* exp_avg_sq, int64_t n);                                                                           \
  template <typename T>                                                                                           \
  void radam(const RadamConfig& c, double step, T* param, const T* grad, T* exp_avg, T* exp_avg_sq, int64_t n);   \
  template <typename T>                                                                                           \
  void adadelta(const AdadeltaConfig& c, T* param, const T* grad, T* square_avg, T* acc_delta, int64_t n);        \
  template <typename T>                                                                                           \
  void rprop(const RpropConfig& c, T* param, const T* grad, T* prev, T* step_size, int64_t n);                    \
  template <typename T>                                                                                           \
  void asgd(const AsgdConfig& c, T* param, const T* grad, T* ax, int64_t n);                                      \
  }

namespace engine::kernels::optim {
ENGINE_OPTIM_DECLARE_ISA(baseline)
ENGINE_OPTIM_DECLARE_ISA(avx2)
}  // namespace engine::kernels::optim

#undef ENGINE_OPTIM_DECLARE_ISA
