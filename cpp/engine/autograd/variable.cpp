#include "engine/autograd/variable.h"

#include "engine/autograd/accumulate_grad.h"
#include "engine/autograd/grad_mode.h"
#include "engine/autograd/node.h"
#include "engine/autograd/view_meta.h"
#include "engine/core/error.h"

namespace engine {

AutogradMeta* autograd_meta(const Tensor& t) {
  return static_cast<AutogradMeta*>(t.get()->autograd_meta.get());
}

AutogradMeta& ensure_autograd_meta(const Tensor& t) {
  auto& slot = t.get()->autograd_meta;
  if (!slot) slot = std::make_unique<AutogradMeta>();
  return *static_cast<AutogradMeta*>(slot.get());
}

bool requires_grad(const Tensor& t) {
  auto* m = autograd_meta(t);
  return m && (m->requires_grad || m->grad_fn);
}

const std::shared_ptr<Node>& grad_fn(const Tensor& t) {
  static const std::shared_ptr<Node> none;
  auto* m = autograd_meta(t);
  return m ? m->grad_fn : none;
}

bool is_leaf(const Tensor& t) { return !grad_fn(t); }

uint32_t output_nr(const Tensor& t) {
  auto* m = autograd_meta(t);
  return m ? m->output_nr : 0;
}

void set_requires_grad(const Tensor& t, bool value) {
  if (!is_leaf(t)) {
    ENGINE_CHECK(value, std::runtime_error,
                 "you can only change requires_grad flags of leaf variables. If you want to use a computed "
                 "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().");
    return;
  }
  ENGINE_CHECK(!value || is_floating(t.dtype()), std::runtime_error,
               "only Tensors of floating point dtype can require gradients");
  ENGINE_CHECK(!value || !t.get()->is_inference || inference_mode_enabled(), std::runtime_error,
               "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.");
  if (!value && !autograd_meta(t)) return;
  ensure_autograd_meta(t).requires_grad = value;
}

Edge gradient_edge(const Tensor& t) {
  auto* m = autograd_meta(t);
  if (!m) return Edge();
  ENGINE_CHECK(!m->history_invalid, std::runtime_error, multi_output_invalid_message(t));
  if (m->grad_fn) return Edge(m->grad_fn, m->output_nr);
  if (!m->requires_grad) return Edge();
  std::shared_ptr<Node> acc = m->grad_accumulator.lock();
  if (!acc) {
    acc = std::make_shared<AccumulateGrad>(t);
    m->grad_accumulator = acc;
  }
  return Edge(std::move(acc), 0);
}

void set_history(const Tensor& t, const std::shared_ptr<Node>& node) {
  auto& m = ensure_autograd_meta(t);
  m.output_nr = node->add_input_metadata(t);
  m.grad_fn = node;
}

bool compute_requires_grad(std::initializer_list<const Tensor*> tensors) {
  if (!GradMode::is_enabled()) return false;
  for (const Tensor* t : tensors) {
    if (t->defined() && requires_grad(*t)) return true;
  }
  return false;
}

edge_list collect_next_edges(std::initializer_list<const Tensor*> tensors) {
  edge_list edges;
  edges.reserve(tensors.size());
  for (const Tensor* t : tensors) edges.push_back(t->defined() ? gradient_edge(*t) : Edge());
  return edges;
}

void mark_multi_output_views(const std::vector<Tensor>& views, const char* fn) {
  for (size_t i = 0; i < views.size(); ++i) {
    const Tensor& v = views[i];
    if (!v.is_view() || v.get()->view_creation_meta != static_cast<uint8_t>(CreationMeta::Default)) continue;
    v.get()->view_creation_meta = static_cast<uint8_t>(CreationMeta::MultiOutput);
    auto& m = ensure_autograd_meta(v);
    m.multi_output_fn = fn;
    m.multi_output_nr = static_cast<uint32_t>(i);
  }
}

namespace {
std::string multi_output_message(const Tensor& view, const char* what) {
  auto* m = autograd_meta(view);
  return str_cat("Output ", m ? m->multi_output_nr : 0, " of ", m && m->multi_output_fn ? m->multi_output_fn : "?",
                 " is a view and ", what,
                 " inplace. This view is the output of a function that returns multiple views. Such functions do "
                 "not allow the output views to be modified inplace. You should replace the inplace operation by an "
                 "out-of-place one.");
}
}  // namespace

std::string multi_output_inplace_message(const Tensor& view) {
  return multi_output_message(view, "is being modified");
}

std::string multi_output_invalid_message(const Tensor& view) {
  return multi_output_message(view, "its base or another view of its base has been modified");
}

Tensor detach(const Tensor& t) {
  auto impl = std::make_shared<TensorImpl>(t.get()->storage, t.shape(), t.strides(), t.offset(), t.dtype());
  impl->is_inference = t.get()->is_inference;
  return Tensor(std::move(impl));
}

}  // namespace engine
