#include "engine/autograd/accumulate_grad.h"

#include "engine/autograd/grad_mode.h"
#include "engine/autograd/variable.h"
#include "engine/ops/ops.h"

namespace engine {

std::mutex& grad_accumulation_mutex() {
  static std::mutex mu;
  return mu;
}

AccumulateGrad::AccumulateGrad(Tensor variable) : variable_(std::move(variable)) {
  add_input_metadata(variable_);
  input_metadata_[0].leaf = true;
}

variable_list AccumulateGrad::apply(variable_list&& grads) {
  Tensor g = std::move(grads[0]);
  if (!g.defined()) return {};
  auto& meta = ensure_autograd_meta(variable_);
  // The leaf's own hooks (Tensor.register_hook) already ran: the engine calls run_leaf_hooks first.
  // grad mode is on here exactly when backward was called with create_graph=True.
  const bool create_graph = GradMode::is_enabled();
  std::unique_lock<std::mutex> lock(grad_accumulation_mutex());
  if (!meta.grad.defined()) {
    // Keep the incoming buffer when nobody else holds it; otherwise copy, so that a later in-place
    // accumulation cannot write into a tensor the user still sees. A non-contiguous buffer (the
    // broadcast gradient of a sum is a stride-0 view) is copied too, so it can be accumulated into.
    // The engine keeps one more reference while post-hooks may still look at the incoming
    // gradient (PyTorch's num_expected_refs), so a post-accumulate hook's in-place change to .grad
    // is seen by them.
    const long expected_refs = hooked() ? 2 : 1;
    meta.grad = (create_graph || (g.use_count() <= expected_refs && g.is_contiguous())) ? g : ops::clone(g);
    if (!create_graph) meta.grad = detach(meta.grad);
  } else if (!create_graph && !requires_grad(meta.grad)) {
    ops::add_(meta.grad, g);
  } else {
    meta.grad = ops::add(meta.grad, g);
  }
  lock.unlock();  // the hooks below run Python code
  for (const auto& hook : hooks_snapshot(meta.post_accumulate_hooks)) {
    if (hook) hook(variable_);
  }
  return {};
}

void AccumulateGrad::run_leaf_hooks(Tensor& g) const {
  auto* meta = autograd_meta(variable_);
  if (!meta || !g.defined()) return;
  for (const auto& hook : hooks_snapshot(meta->hooks)) {
    if (!hook) continue;
    Tensor r = hook(g);
    if (r.defined()) g = r;
  }
}

}  // namespace engine
