#include "engine/autograd/accumulate_grad.h"

#include "engine/autograd/grad_mode.h"
#include "engine/autograd/variable.h"
#include "engine/ops/ops.h"

namespace engine {

std::mutex& grad_accumulation_mutex() {
  static std::mutex mu;
  return mu;
}

namespace {

// The first gradient stored under create_graph=True is a copy whose history is the copy
// (PyTorch's CopyBackwards, with no edge for the fresh destination), as PyTorch's AccumulateGrad
// copies it into a new tensor laid out like the leaf.
class CopyBackwards : public Node {
 public:
  explicit CopyBackwards(const Tensor& src) { next_edges_ = {Edge(), gradient_edge(src)}; }
  variable_list apply(variable_list&& grads) override { return {Tensor(), std::move(grads[0])}; }
  std::string name() const override { return "CopyBackwards"; }
};

Tensor copy_with_history(const Tensor& g) {
  Tensor copy = ops::clone(detach(g));
  if (requires_grad(g)) set_history(copy, std::make_shared<CopyBackwards>(g));
  return copy;
}

}  // namespace

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
  std::shared_ptr<void> stale_py;  // the Python object of a gradient this call replaces
  std::unique_lock<std::mutex> lock(grad_accumulation_mutex());
  if (!meta.grad.defined()) {
    // Keep the incoming buffer when nobody else holds it; otherwise copy, so that a later in-place
    // accumulation cannot write into a tensor the user still sees. A non-contiguous buffer (the
    // broadcast gradient of a sum is a stride-0 view) is copied too, so it can be accumulated into.
    // The engine keeps one more reference while post-hooks may still look at the incoming
    // gradient (PyTorch's num_expected_refs), so a post-accumulate hook's in-place change to .grad
    // is seen by them.
    const long expected_refs = hooked() ? 2 : 1;
    if (create_graph) {
      meta.grad = copy_with_history(g);
    } else {
      meta.grad = detach((g.use_count() <= expected_refs && g.is_contiguous()) ? g : ops::clone(g));
    }
    stale_py = std::move(meta.grad_py);
  } else if (!create_graph && !requires_grad(meta.grad)) {
    ops::add_(meta.grad, g);
  } else {
    meta.grad = ops::add(meta.grad, g);
    stale_py = std::move(meta.grad_py);  // .grad is another tensor now
  }
  lock.unlock();  // the hooks below run Python code
  stale_py.reset();  // its deleter takes the GIL: never under the lock
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
