// The public optimizer kernels: each forwards to the copy of its loop (optim_loops.inc) compiled
// for the instruction set the rest of the vectorised loops use.
#include "engine/kernels/optim.h"

#include <cmath>

#include "engine/kernels/optim_isa.h"
#include "engine/kernels/simd/table.h"

namespace engine::kernels::optim {

namespace {

// Machines with AVX-512 run the AVX2 copy of these loops (there is no AVX-512 one).
bool use_avx2() {
  static const bool avx2 = &simd::active() != &simd::baseline::table;
  return avx2;
}

}  // namespace

double nadam_mu(const NadamConfig& c, double step) {
  return c.beta1 * (1.0 - 0.5 * std::pow(0.96, step * c.momentum_decay));
}

template <typename T>
void sgd(const SgdConfig& c, T* param, const T* grad, T* buf, bool fresh_buffer, int64_t n) {
  (use_avx2() ? avx2::sgd<T> : baseline::sgd<T>)(c, param, grad, buf, fresh_buffer, n);
}

template <typename T>
void adam(const AdamConfig& c, double step, T* param, const T* grad, T* exp_avg, T* exp_avg_sq, T* max_exp_avg_sq,
          int64_t n) {
  (use_avx2() ? avx2::adam<T> : baseline::adam<T>)(c, step, param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, n);
}

template <typename T>
void rmsprop(const RmspropConfig& c, T* param, const T* grad, T* square_avg, T* grad_avg, T* buf, int64_t n) {
  (use_avx2() ? avx2::rmsprop<T> : baseline::rmsprop<T>)(c, param, grad, square_avg, grad_avg, buf, n);
}

template <typename T>
void adagrad(const AdagradConfig& c, double step, T* param, const T* grad, T* state_sum, int64_t n) {
  (use_avx2() ? avx2::adagrad<T> : baseline::adagrad<T>)(c, step, param, grad, state_sum, n);
}

template <typename T>
void adamax(const AdamaxConfig& c, double step, T* param, const T* grad, T* exp_avg, T* exp_inf, int64_t n) {
  (use_avx2() ? avx2::adamax<T> : baseline::adamax<T>)(c, step, param, grad, exp_avg, exp_inf, n);
}

template <typename T>
void nadam(const NadamConfig& c, double step, double product, T* param, const T* grad, T* exp_avg, T* exp_avg_sq,
           int64_t n) {
  (use_avx2() ? avx2::nadam<T> : baseline::nadam<T>)(c, step, product, param, grad, exp_avg, exp_avg_sq, n);
}

template <typename T>
void radam(const RadamConfig& c, double step, T* param, const T* grad, T* exp_avg, T* exp_avg_sq, int64_t n) {
  (use_avx2() ? avx2::radam<T> : baseline::radam<T>)(c, step, param, grad, exp_avg, exp_avg_sq, n);
}

template <typename T>
void adadelta(const AdadeltaConfig& c, T* param, const T* grad, T* square_avg, T* acc_delta, int64_t n) {
  (use_avx2() ? avx2::adadelta<T> : baseline::adadelta<T>)(c, param, grad, square_avg, acc_delta, n);
}

template <typename T>
void rprop(const RpropConfig& c, T* param, const T* grad, T* prev, T* step_size, int64_t n) {
  (use_avx2() ? avx2::rprop<T> : baseline::rprop<T>)(c, param, grad, prev, step_size, n);
}

template <typename T>
void asgd(const AsgdConfig& c, T* param, const T* grad, T* ax, int64_t n) {
  (use_avx2() ? avx2::asgd<T> : baseline::asgd<T>)(c, param, grad, ax, n);
}

#define ENGINE_OPTIM_INSTANTIATE(T)                                                                            \
  template void sgd<T>(const SgdConfig&, T*, const T*, T*, bool, int64_t);                                    \
  template void adam<T>(const AdamConfig&, double, T*, const T*, T*, T*, T*, int64_t);                        \
  template void rmsprop<T>(const RmspropConfig&, T*, const T*, T*, T*, T*, int64_t);                          \
  template void adagrad<T>(const AdagradConfig&, double, T*, const T*, T*, int64_t);                          \
  template void adamax<T>(const AdamaxConfig&, double, T*, const T*, T*, T*, int64_t);                        \
  template void nadam<T>(const NadamConfig&, double, double, T*, const T*, T*, T*, int64_t);                  \
  template void radam<T>(const RadamConfig&, double, T*, const T*, T*, T*, int64_t);                        \
  template void adadelta<T>(const AdadeltaConfig&, T*, const T*, T*, T*, int64_t);                            \
  template void rprop<T>(const RpropConfig&, T*, const T*, T*, T*, int64_t);                                  \
  template void asgd<T>(const AsgdConfig&, T*, const T*, T*, int64_t);

ENGINE_OPTIM_INSTANTIATE(float)
ENGINE_OPTIM_INSTANTIATE(double)

#undef ENGINE_OPTIM_INSTANTIATE

}  // namespace engine::kernels::optim
