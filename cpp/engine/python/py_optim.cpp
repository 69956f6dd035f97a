// engine._C._optim_*: one native call per parameter group and step for each optimizer of
// engine.optim. Each function takes the group's parameters, their gradients and the state tensors
// (lists of equal length), checks them, and runs the fused kernel of kernels/optim.h over every
// parameter with the interpreter lock released for large groups. Parameters and state tensors are
// updated in place and their version counters bumped, as PyTorch's in-place updates do.
#include <algorithm>
#include <cmath>
#include <optional>
#include <type_traits>
#include <vector>

#include "engine/core/error.h"
#include "engine/kernels/elementwise.h"
#include "engine/kernels/optim.h"
#include "engine/kernels/parallel.h"
#include "engine/ops/ops.h"
#include "engine/python/bindings.h"

namespace engine::python {

namespace {

namespace kopt = kernels::optim;
using OptTensors = std::vector<std::optional<Tensor>>;

// The dtype the update computes in: 16-bit floats in float32 (rounded once, on store), as
// PyTorch's CPU optimizers do for float16 and bfloat16 parameters.
DType compute_dtype(DType d) { return d == DType::Float16 || d == DType::BFloat16 ? DType::Float32 : d; }

// `t` contiguous and in its compute dtype: itself, or a converted copy (no autograd history).
Tensor compute_copy(const Tensor& t) {
  if (t.is_contiguous() && compute_dtype(t.dtype()) == t.dtype()) return t;
  Tensor work = Tensor::empty(t.shape(), compute_dtype(t.dtype()));
  kernels::copy(work, t);
  return work;
}

// A tensor the kernel writes: non-contiguous or 16-bit tensors are updated through a contiguous
// compute-dtype copy that is written back afterwards.
class Updated {
 public:
  explicit Updated(Tensor t) : target_(std::move(t)), work_(compute_copy(target_)) {}
  template <typename T>
  T* data() const { return work_.data<T>(); }
  void finish() const {
    if (!work_.is_same(target_)) kernels::copy(target_, work_);
    target_.bump_version();
  }

 private:
  Tensor target_, work_;
};

// The per-parameter tensors of one group, checked against the parameter they belong to.
class Group {
 public:
  Group(const char* fname, const std::vector<Tensor>& params, const std::vector<Tensor>& grads)
      : fname_(fname), params_(params) {
    ENGINE_CHECK(grads.size() == params.size(), ValueError, fname, "(): expected as many gradients as parameters (",
                 params.size(), "), got ", grads.size());
    for (size_t i = 0; i < params.size(); ++i) {
      ENGINE_CHECK(is_floating(params[i].dtype()), TypeError, fname, "(): parameter ", i,
                   " must be a floating point tensor, got ", dtype_name(params[i].dtype()));
      check_like(grads[i], i, "gradient");
      grads_.push_back(compute_copy(grads[i]));
      total_ += params[i].numel();
    }
  }

  size_t size() const { return params_.size(); }
  int64_t total_numel() const { return total_; }
  const Tensor& param(size_t i) const { return params_[i]; }
  const Tensor& grad(size_t i) const { return grads_[i]; }

  // One state list: each entry shaped and typed like its parameter.
  void check_state(const std::vector<Tensor>& states, const char* what) const {
    ENGINE_CHECK(states.size() == params_.size(), ValueError, fname_, "(): expected as many ", what,
                 " tensors as parameters (", params_.size(), "), got ", states.size());
    for (size_t i = 0; i < states.size(); ++i) check_like(states[i], i, what);
  }
  // An optional state list: all None, or a full list.
  void check_state(const OptTensors& states, const char* what) const {
    ENGINE_CHECK(states.size() == params_.size(), ValueError, fname_, "(): expected as many ", what,
                 " entries as parameters (", params_.size(), "), got ", states.size());
    for (size_t i = 0; i < states.size(); ++i)
      if (states[i]) check_like(*states[i], i, what);
  }
  // The 0-d step counters (float32 as PyTorch keeps them, float64 accepted).
  void check_steps(const std::vector<Tensor>& steps, const char* what = "step") const {
    ENGINE_CHECK(steps.size() == params_.size(), ValueError, fname_, "(): expected as many ", what,
                 " tensors as parameters (", params_.size(), "), got ", steps.size());
    for (const Tensor& s : steps)
      ENGINE_CHECK(s.numel() == 1 && is_floating(s.dtype()), ValueError, fname_, "(): each ", what,
                   " must be a one-element floating point tensor");
  }

 private:
  void check_like(const Tensor& t, size_t i, const char* what) const {
    const Tensor& p = params_[i];
    ENGINE_CHECK(t.dtype() == p.dtype(), TypeError, fname_, "(): ", what, " ", i, " has dtype ", dtype_name(t.dtype()),
                 " but its parameter has dtype ", dtype_name(p.dtype()));
    ENGINE_CHECK(t.shape() == p.shape(), ValueError, fname_, "(): ", what, " ", i, " has shape ", dims_str(t.shape()),
                 " but its parameter has shape ", dims_str(p.shape()));
  }

  const char* fname_;
  std::vector<Tensor> params_;
  std::vector<Tensor> grads_;
  int64_t total_ = 0;
};

// step += 1 on a 0-d counter; returns the new value as PyTorch's step_t.item() would.
double advance(const Tensor& step) {
  double value;
  if (step.dtype() == DType::Float32) {
    float* s = step.data<float>();
    *s += 1.0f;
    value = *s;
  } else {
    double* s = step.data<double>();
    *s += 1.0;
    value = *s;
  }
  step.bump_version();
  return value;
}

// counter *= factor in the counter's own type (PyTorch's `mu_product *= mu` on a 0-d tensor, the
// factor rounded to that type first); returns the new value.
double scale_counter(const Tensor& counter, double factor) {
  double value;
  if (counter.dtype() == DType::Float32) {
    float* s = counter.data<float>();
    *s = *s * static_cast<float>(factor);
    value = *s;
  } else {
    double* s = counter.data<double>();
    *s = *s * factor;
    value = *s;
  }
  counter.bump_version();
  return value;
}

// Runs `body(i)` for every parameter of the group, without the interpreter lock when the group is
// large enough for that to pay.
template <typename F>
void for_each_param(const Group& g, F body) {
  std::optional<py::gil_scoped_release> unlocked;
  if (g.total_numel() >= kernels::kReleaseLockNumel) unlocked.emplace();
  for (size_t i = 0; i < g.size(); ++i) body(i);
}

template <typename F>
void dispatch(const Tensor& p, F f) {
  ENGINE_DISPATCH_FLOAT(compute_dtype(p.dtype()), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) f(tag);
  });
}

std::vector<Tensor> sgd(const std::vector<Tensor>& params, const std::vector<Tensor>& grads, OptTensors buffers,
                        double lr, double momentum, double dampening, double weight_decay, bool nesterov,
                        bool maximize) {
  Group g("_optim_sgd", params, grads);
  g.check_state(buffers, "momentum_buffer");
  const kopt::SgdConfig c{lr, momentum, dampening, weight_decay, nesterov, maximize};
  std::vector<Tensor> out(g.size());
  for_each_param(g, [&](size_t i) {
    Updated p(g.param(i));
    const bool fresh = momentum != 0 && !buffers[i];
    if (fresh) buffers[i] = Tensor::empty(g.param(i).shape(), g.param(i).dtype());
    std::optional<Updated> buf;
    if (momentum != 0) buf.emplace(*buffers[i]);
    dispatch(g.param(i), [&](auto tag) {
      using T = decltype(tag);
      kopt::sgd<T>(c, p.data<T>(), g.grad(i).data<T>(), buf ? buf->data<T>() : nullptr, fresh, g.param(i).numel());
    });
    p.finish();
    if (buf) buf->finish();
    if (buffers[i]) out[i] = *buffers[i];
  });
  return out;
}

void adam(const std::vector<Tensor>& params, const std::vector<Tensor>& grads, const std::vector<Tensor>& exp_avgs,
          const std::vector<Tensor>& exp_avg_sqs, const OptTensors& max_exp_avg_sqs, const std::vector<Tensor>& steps,
          double lr, double beta1, double beta2, double eps, double weight_decay, bool amsgrad, bool maximize,
          bool decoupled_weight_decay) {
  Group g("_optim_adam", params, grads);
  g.check_state(exp_avgs, "exp_avg");
  g.check_state(exp_avg_sqs, "exp_avg_sq");
  g.check_state(max_exp_avg_sqs, "max_exp_avg_sq");
  g.check_steps(steps);
  if (amsgrad)
    for (const auto& t : max_exp_avg_sqs)
      ENGINE_CHECK(t.has_value(), ValueError, "_optim_adam(): amsgrad needs every max_exp_avg_sq tensor");
  const kopt::AdamConfig c{lr, beta1, beta2, eps, weight_decay, amsgrad, maximize, decoupled_weight_decay};
  for_each_param(g, [&](size_t i) {
    const double step = advance(steps[i]);
    Updated p(g.param(i)), m(exp_avgs[i]), v(exp_avg_sqs[i]);
    std::optional<Updated> vmax;
    if (amsgrad) vmax.emplace(*max_exp_avg_sqs[i]);
    dispatch(g.param(i), [&](auto tag) {
      using T = decltype(tag);
      kopt::adam<T>(c, step, p.data<T>(), g.grad(i).data<T>(), m.data<T>(), v.data<T>(),
                    vmax ? vmax->data<T>() : nullptr, g.param(i).numel());
    });
    p.finish();
    m.finish();
    v.finish();
    if (vmax) vmax->finish();
  });
}

void rmsprop(const std::vector<Tensor>& params, const std::vector<Tensor>& grads,
             const std::vector<Tensor>& square_avgs, const OptTensors& grad_avgs, const OptTensors& momentum_buffers,
             const std::vector<Tensor>& steps, double lr, double alpha, double eps, double weight_decay,
             double momentum, bool centered, bool maximize) {
  Group g("_optim_rmsprop", params, grads);
  g.check_state(square_avgs, "square_avg");
  g.check_state(grad_avgs, "grad_avg");
  g.check_state(momentum_buffers, "momentum_buffer");
  g.check_steps(steps);
  for (size_t i = 0; i < g.size(); ++i) {
    ENGINE_CHECK(!centered || grad_avgs[i], ValueError, "_optim_rmsprop(): centered needs every grad_avg tensor");
    ENGINE_CHECK(momentum <= 0 || momentum_buffers[i], ValueError,
                 "_optim_rmsprop(): momentum needs every momentum_buffer tensor");
  }
  const kopt::RmspropConfig c{lr, alpha, eps, weight_decay, momentum, centered, maximize};
  for_each_param(g, [&](size_t i) {
    advance(steps[i]);
    Updated p(g.param(i)), sq(square_avgs[i]);
    std::optional<Updated> ga, buf;
    if (centered) ga.emplace(*grad_avgs[i]);
    if (momentum > 0) buf.emplace(*momentum_buffers[i]);
    dispatch(g.param(i), [&](auto tag) {
      using T = decltype(tag);
      kopt::rmsprop<T>(c, p.data<T>(), g.grad(i).data<T>(), sq.data<T>(), ga ? ga->data<T>() : nullptr,
                       buf ? buf->data<T>() : nullptr, g.param(i).numel());
    });
    p.finish();
    sq.finish();
    if (ga) ga->finish();
    if (buf) buf->finish();
  });
}

void adagrad(const std::vector<Tensor>& params, const std::vector<Tensor>& grads, const std::vector<Tensor>& sums,
             const std::vector<Tensor>& steps, double lr, double lr_decay, double weight_decay, double eps,
             bool maximize) {
  Group g("_optim_adagrad", params, grads);
  g.check_state(sums, "sum");
  g.check_steps(steps);
  const kopt::AdagradConfig c{lr, lr_decay, weight_decay, eps, maximize};
  for_each_param(g, [&](size_t i) {
    const double step = advance(steps[i]);
    Updated p(g.param(i)), s(sums[i]);
    dispatch(g.param(i), [&](auto tag) {
      using T = decltype(tag);
      kopt::adagrad<T>(c, step, p.data<T>(), g.grad(i).data<T>(), s.data<T>(), g.param(i).numel());
    });
    p.finish();
    s.finish();
  });
}

void adamax(const std::vector<Tensor>& params, const std::vector<Tensor>& grads, const std::vector<Tensor>& exp_avgs,
            const std::vector<Tensor>& exp_infs, const std::vector<Tensor>& steps, double lr, double beta1,
            double beta2, double eps, double weight_decay, bool maximize) {
  Group g("_optim_adamax", params, grads);
  g.check_state(exp_avgs, "exp_avg");
  g.check_state(exp_infs, "exp_inf");
  g.check_steps(steps);
  const kopt::AdamaxConfig c{lr, beta1, beta2, eps, weight_decay, maximize};
  for_each_param(g, [&](size_t i) {
    const double step = advance(steps[i]);
    Updated p(g.param(i)), m(exp_avgs[i]), u(exp_infs[i]);
    dispatch(g.param(i), [&](auto tag) {
      using T = decltype(tag);
      kopt::adamax<T>(c, step, p.data<T>(), g.grad(i).data<T>(), m.data<T>(), u.data<T>(), g.param(i).numel());
    });
    p.finish();
    m.finish();
    u.finish();
  });
}

void nadam(const std::vector<Tensor>& params, const std::vector<Tensor>& grads, const std::vector<Tensor>& exp_avgs,
           const std::vector<Tensor>& exp_avg_sqs, const std::vector<Tensor>& mu_products,
           const std::vector<Tensor>& steps, double lr, double beta1, double beta2, double eps, double weight_decay,
           double momentum_decay, bool decoupled_weight_decay, bool maximize) {
  Group g("_optim_nadam", params, grads);
  g.check_state(exp_avgs, "exp_avg");
  g.check_state(exp_avg_sqs, "exp_avg_sq");
  g.check_steps(steps);
  g.check_steps(mu_products, "mu_product");
  const kopt::NadamConfig c{lr, beta1, beta2, eps, weight_decay, momentum_decay, decoupled_weight_decay, maximize};
  for_each_param(g, [&](size_t i) {
    const double step = advance(steps[i]);
    const double product = scale_counter(mu_products[i], kopt::nadam_mu(c, step));
    Updated p(g.param(i)), m(exp_avgs[i]), v(exp_avg_sqs[i]);
    dispatch(g.param(i), [&](auto tag) {
      using T = decltype(tag);
      kopt::nadam<T>(c, step, product, p.data<T>(), g.grad(i).data<T>(), m.data<T>(), v.data<T>(),
                     g.param(i).numel());
    });
    p.finish();
    m.finish();
    v.finish();
  });
}

void radam(const std::vector<Tensor>& params, const std::vector<Tensor>& grads, const std::vector<Tensor>& exp_avgs,
           const std::vector<Tensor>& exp_avg_sqs, const std::vector<Tensor>& steps, double lr, double beta1,
           double beta2, double eps, double weight_decay, bool decoupled_weight_decay, bool maximize) {
  Group g("_optim_radam", params, grads);
  g.check_state(exp_avgs, "exp_avg");
  g.check_state(exp_avg_sqs, "exp_avg_sq");
  g.check_steps(steps);
  const kopt::RadamConfig c{lr, beta1, beta2, eps, weight_decay, decoupled_weight_decay, maximize};
  for_each_param(g, [&](size_t i) {
    const double step = advance(steps[i]);
    Updated p(g.param(i)), m(exp_avgs[i]), v(exp_avg_sqs[i]);
    dispatch(g.param(i), [&](auto tag) {
      using T = decltype(tag);
      kopt::radam<T>(c, step, p.data<T>(), g.grad(i).data<T>(), m.data<T>(), v.data<T>(), g.param(i).numel());
    });
    p.finish();
    m.finish();
    v.finish();
  });
}

void adadelta(const std::vector<Tensor>& params, const std::vector<Tensor>& grads,
              const std::vector<Tensor>& square_avgs, const std::vector<Tensor>& acc_deltas,
              const std::vector<Tensor>& steps, double lr, double rho, double eps, double weight_decay,
              bool maximize) {
  Group g("_optim_adadelta", params, grads);
  g.check_state(square_avgs, "square_avg");
  g.check_state(acc_deltas, "acc_delta");
  g.check_steps(steps);
  const kopt::AdadeltaConfig c{lr, rho, eps, weight_decay, maximize};
  for_each_param(g, [&](size_t i) {
    advance(steps[i]);
    Updated p(g.param(i)), sq(square_avgs[i]), acc(acc_deltas[i]);
    dispatch(g.param(i), [&](auto tag) {
      using T = decltype(tag);
      kopt::adadelta<T>(c, p.data<T>(), g.grad(i).data<T>(), sq.data<T>(), acc.data<T>(), g.param(i).numel());
    });
    p.finish();
    sq.finish();
    acc.finish();
  });
}

void rprop(const std::vector<Tensor>& params, const std::vector<Tensor>& grads, const std::vector<Tensor>& prevs,
           const std::vector<Tensor>& step_sizes, const std::vector<Tensor>& steps, double eta_minus, double eta_plus,
           double step_size_min, double step_size_max, bool maximize) {
  Group g("_optim_rprop", params, grads);
  g.check_state(prevs, "prev");
  g.check_state(step_sizes, "step_size");
  g.check_steps(steps);
  const kopt::RpropConfig c{eta_minus, eta_plus, step_size_min, step_size_max, maximize};
  for_each_param(g, [&](size_t i) {
    advance(steps[i]);
    Updated p(g.param(i)), prev(prevs[i]), size(step_sizes[i]);
    dispatch(g.param(i), [&](auto tag) {
      using T = decltype(tag);
      kopt::rprop<T>(c, p.data<T>(), g.grad(i).data<T>(), prev.data<T>(), size.data<T>(), g.param(i).numel());
    });
    p.finish();
    prev.finish();
    size.finish();
  });
}

// A 0-d state scalar (float32 as PyTorch keeps it, float64 accepted): read, and overwritten with
// a value rounded to its type (PyTorch's scalar.copy_(torch.as_tensor(value))).
double read_scalar(const Tensor& t) {
  return t.dtype() == DType::Float32 ? double{*t.data<float>()} : *t.data<double>();
}
void write_scalar(const Tensor& t, double value) {
  if (t.dtype() == DType::Float32) {
    *t.data<float>() = static_cast<float>(value);
  } else {
    *t.data<double>() = value;
  }
  t.bump_version();
}

void asgd(const std::vector<Tensor>& params, const std::vector<Tensor>& grads, const std::vector<Tensor>& axs,
          const std::vector<Tensor>& mus, const std::vector<Tensor>& etas, const std::vector<Tensor>& steps, double lr,
          double lambd, double alpha, double t0, double weight_decay, bool maximize) {
  Group g("_optim_asgd", params, grads);
  g.check_state(axs, "ax");
  g.check_steps(mus, "mu");
  g.check_steps(etas, "eta");
  g.check_steps(steps);
  for_each_param(g, [&](size_t i) {
    const double step = advance(steps[i]);
    const kopt::AsgdConfig c{read_scalar(etas[i]), lambd, read_scalar(mus[i]), weight_decay, maximize};
    Updated p(g.param(i)), ax(axs[i]);
    dispatch(g.param(i), [&](auto tag) {
      using T = decltype(tag);
      kopt::asgd<T>(c, p.data<T>(), g.grad(i).data<T>(), ax.data<T>(), g.param(i).numel());
    });
    p.finish();
    ax.finish();
    write_scalar(etas[i], lr / std::pow(1 + lambd * lr * step, alpha));
    write_scalar(mus[i], 1 / std::max(1.0, step - t0));
  });
}

}  // namespace

void init_optim(py::module_& m) {
  using py::arg;
  m.def("_optim_sgd", &sgd, arg("params"), arg("grads"), arg("momentum_buffers"), py::kw_only(), arg("lr"),
        arg("momentum"), arg("dampening"), arg("weight_decay"), arg("nesterov"), arg("maximize"),
        "SGD step; returns the momentum buffers (created on the first step, None without momentum).");
  m.def("_optim_adam", &adam, arg("params"), arg("grads"), arg("exp_avgs"), arg("exp_avg_sqs"), arg("max_exp_avg_sqs"),
        arg("steps"), py::kw_only(), arg("lr"), arg("beta1"), arg("beta2"), arg("eps"), arg("weight_decay"),
        arg("amsgrad"), arg("maximize"), arg("decoupled_weight_decay"), "Adam / AdamW step.");
  m.def("_optim_rmsprop", &rmsprop, arg("params"), arg("grads"), arg("square_avgs"), arg("grad_avgs"),
        arg("momentum_buffers"), arg("steps"), py::kw_only(), arg("lr"), arg("alpha"), arg("eps"),
        arg("weight_decay"), arg("momentum"), arg("centered"), arg("maximize"), "RMSprop step.");
  m.def("_optim_adagrad", &adagrad, arg("params"), arg("grads"), arg("state_sums"), arg("steps"), py::kw_only(),
        arg("lr"), arg("lr_decay"), arg("weight_decay"), arg("eps"), arg("maximize"), "Adagrad step.");
  m.def("_optim_adamax", &adamax, arg("params"), arg("grads"), arg("exp_avgs"), arg("exp_infs"), arg("steps"),
        py::kw_only(), arg("lr"), arg("beta1"), arg("beta2"), arg("eps"), arg("weight_decay"), arg("maximize"),
        "Adamax step.");
  m.def("_optim_nadam", &nadam, arg("params"), arg("grads"), arg("exp_avgs"), arg("exp_avg_sqs"), arg("mu_products"),
        arg("steps"), py::kw_only(), arg("lr"), arg("beta1"), arg("beta2"), arg("eps"), arg("weight_decay"),
        arg("momentum_decay"), arg("decoupled_weight_decay"), arg("maximize"), "NAdam step.");
  m.def("_optim_radam", &radam, arg("params"), arg("grads"), arg("exp_avgs"), arg("exp_avg_sqs"), arg("steps"),
        py::kw_only(), arg("lr"), arg("beta1"), arg("beta2"), arg("eps"), arg("weight_decay"),
        arg("decoupled_weight_decay"), arg("maximize"), "RAdam step.");
  m.def("_optim_adadelta", &adadelta, arg("params"), arg("grads"), arg("square_avgs"), arg("acc_deltas"),
        arg("steps"), py::kw_only(), arg("lr"), arg("rho"), arg("eps"), arg("weight_decay"), arg("maximize"),
        "Adadelta step.");
  m.def("_optim_rprop", &rprop, arg("params"), arg("grads"), arg("prevs"), arg("step_sizes"), arg("steps"),
        py::kw_only(), arg("eta_minus"), arg("eta_plus"), arg("step_size_min"), arg("step_size_max"),
        arg("maximize"), "Rprop step.");
  m.def("_optim_asgd", &asgd, arg("params"), arg("grads"), arg("axs"), arg("mus"), arg("etas"), arg("steps"),
        py::kw_only(), arg("lr"), arg("lambd"), arg("alpha"), arg("t0"), arg("weight_decay"), arg("maximize"),
        "ASGD step; also advances each parameter's eta and mu.");
}

}  // namespace engine::python
