#include "engine/autograd/variable.h"
#include <atomic>

#include "engine/autograd/accumulate_grad.h"
#include "engine/autograd/engine.h"
#include "engine/autograd/grad_mode.h"
#include "engine/autograd/node.h"
#include "engine/autograd/view_meta.h"
#include "engine/core/error.h"
#include "engine/ops/ops.h"

namespace engine {

AutogradMeta* autograd_meta(const Tensor& t) {
  return static_cast<AutogradMeta*>(t.get()->autograd_meta.get());
}

AutogradMeta& ensure_autograd_meta(const Tensor& t) {
  auto& slot = t.get()->autograd_meta;
  if (!slot) slot = std::make_unique<AutogradMeta>();
  return *static_cast<AutogradMeta*>(slot.get());
}

namespace {
bool own_requires_grad(const AutogradMeta* m) { return m && (m->requires_grad || m->grad_fn); }
}  // namespace

// A view made under no_grad or inference mode follows its base, as PyTorch's differentiable views
// do: made from a tensor that requires grad, it requires grad too (ops on it record nodes, but no
// gradient reaches the view or its base through it). Only such views look at their base: the
// common views, made with grad on, cost one byte test here.
bool requires_grad(const Tensor& t) {
  if (own_requires_grad(autograd_meta(t))) return true;
  const uint8_t meta = t.get()->view_creation_meta;
  return (meta == static_cast<uint8_t>(CreationMeta::NoGradMode) ||
          meta == static_cast<uint8_t>(CreationMeta::InferenceMode)) &&
         own_requires_grad(autograd_meta(Tensor(t.get()->view_base)));
}

namespace {
// A value a custom Function's forward computed, read back by its backward under create_graph: it
// carries no graph, and keeps requires_grad False and no grad_fn, but an op recording history
// takes `guard` (an ErrorNode) as its edge, so a second derivative that goes through it raises.
struct GuardedMeta : AutogradMeta {
  std::shared_ptr<Node> guard;
};

// The guard of a tensor that is otherwise outside autograd, or null. (Such a tensor is the only
// kind whose metadata is a GuardedMeta, so the cast is tried only for tensors with metadata that
// neither require grad nor have history: not on the common paths.)
const std::shared_ptr<Node>* guard_of(const AutogradMeta* m) {
  if (!m || m->requires_grad || m->grad_fn) return nullptr;
  auto* g = dynamic_cast<const GuardedMeta*>(m);
  return g ? &g->guard : nullptr;
}
}  // namespace

std::string forward_name_of(const Node& fn);  // below, with the other view messages

namespace {

// PyTorch's messages for a view whose base (or another view of it) was written in place, when how
// the view was made forbids rebuilding its history.
[[noreturn]] void refuse_stale_view(const Tensor& t, const AutogradMeta& m, CreationMeta meta) {
  const char* given =
      " Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by "
      "moving both the view and the inplace either both inside the ";
  const char* outside =
      " block (if you don't want the inplace to be tracked) or both outside (if you want the inplace to be "
      "tracked).";
  switch (meta) {
    case CreationMeta::MultiOutput:
      throw std::runtime_error(multi_output_invalid_message(t));
    case CreationMeta::InCustomFunction:
      throw std::runtime_error(str_cat(
          "Output ", m.multi_output_nr, " of ", m.multi_output_fn ? m.multi_output_fn : "?",
          " is a view and its base or another view of its base has been modified inplace. This view was created "
          "inside a custom Function (or because an input was returned as-is) and the autograd logic to handle "
          "view+inplace would override the custom backward associated with the custom Function, leading to "
          "incorrect gradients. This behavior is forbidden. You can fix this by cloning the output of the custom "
          "Function."));
    case CreationMeta::InferenceMode:
      throw std::runtime_error(str_cat(
          "Output ", m.output_nr, " of ", forward_name_of(*m.grad_fn),
          " is a view of a view which was created in inference mode and its base or another view of its base "
          "has been modified inplace in normal mode.",
          given, "inference_mode", outside));
    default:
      throw std::runtime_error(str_cat(
          "Output ", m.output_nr, " of ", forward_name_of(*m.grad_fn),
          " is a view of a view which was created in no_grad mode and its base or another view of its base has "
          "been modified inplace with grad mode enabled.",
          given, "no_grad", outside));
  }
}

// A view whose storage was written since its history was set (through its base or another view
// of it) gets a fresh history: a strided view of the base's current history, as PyTorch
// regenerates an AsStridedBackward0 node. retain_grad() follows the new node.
void refresh_view_history(const Tensor& t, AutogradMeta& m) {
  if (!m.view_version_known || !m.grad_fn || t.version() == m.view_version) return;
  if (t.get()->is_inference || inference_mode_enabled()) return;
  const auto meta = static_cast<CreationMeta>(t.get()->view_creation_meta);
  if (meta != CreationMeta::Default) refuse_stale_view(t, m, meta);
  Tensor base(t.get()->view_base);
  const Dims vshape = t.shape(), vstrides = t.strides();
  const int64_t rel = t.offset() - base.offset();
  Tensor fresh;
  {
    AutoGradMode on(true);
    fresh = ops::strided_view(base, [vshape, vstrides, rel](const Dims&, const Dims&, int64_t off) {
      return ops::ViewGeom{vshape, vstrides, off + rel};
    });
  }
  auto* fm = autograd_meta(fresh);
  std::shared_ptr<Node> old = std::move(m.grad_fn);
  m.grad_fn = fm ? fm->grad_fn : nullptr;
  m.output_nr = fm ? fm->output_nr : 0;
  m.view_version = t.version();
  if (m.retains_grad && m.grad_fn) {
    std::lock_guard<std::mutex> lock(hooks_mutex());
    for (auto& [nr, weak] : old->retained_grads()) {
      if (weak.lock() == t.impl()) weak.reset();
    }
    m.grad_fn->mark_hooked();
    m.grad_fn->retained_grads().emplace_back(m.output_nr, t.impl());
  }
}

// A view made without history under no_grad or inference mode, of a base that requires grad, is
// unusable by autograd once its counter moved (its base or another view of it was written in
// place): PyTorch raises wherever its history is read (grad_fn, is_leaf, any op recording it).
void check_view_without_history(const Tensor& t) {
  const auto meta = static_cast<CreationMeta>(t.get()->view_creation_meta);
  if (meta != CreationMeta::NoGradMode && meta != CreationMeta::InferenceMode) return;
  if (t.version() == t.get()->view_created_version || inference_mode_enabled()) return;
  if (!own_requires_grad(autograd_meta(Tensor(t.get()->view_base)))) return;
  const bool inference = meta == CreationMeta::InferenceMode;
  throw std::runtime_error(str_cat(
      "A view was created in ", inference ? "inference mode" : "no_grad mode",
      " and its base or another view of its base has been modified inplace ",
      inference ? "in normal mode." : "with grad mode enabled.",
      " Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your code by "
      "moving both the view and the inplace either both inside the ",
      inference ? "inference_mode" : "no_grad",
      " block (if you don't want the inplace to be tracked) or both outside (if you want the inplace to be "
      "tracked)."));
}

}  // namespace

void note_view_history(const Tensor& t) {
  if (!t.is_view()) return;
  auto& m = ensure_autograd_meta(t);
  m.view_version = t.version();
  m.view_version_known = true;
}

const std::shared_ptr<Node>& grad_fn(const Tensor& t) {
  static const std::shared_ptr<Node> none;
  auto* m = autograd_meta(t);
  if (!m || !m->grad_fn) {
    if (t.is_view()) check_view_without_history(t);
    return m ? m->grad_fn : none;
  }
  if (m->view_version_known) refresh_view_history(t, *m);
  return m->grad_fn;
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
  ENGINE_CHECK(!value || is_floating(t.dtype()) || is_complex(t.dtype()), std::runtime_error,
               "only Tensors of floating point dtype can require gradients");
  ENGINE_CHECK(!value || !t.get()->is_inference || inference_mode_enabled(), std::runtime_error,
               "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.");
  if (!value && !autograd_meta(t)) return;
  ensure_autograd_meta(t).requires_grad = value;
}

std::optional<DType> allowed_grad_dtype(const Tensor& t) {
  const auto* m = autograd_meta(t);
  if (!m || !m->grad_dtype_set) return t.dtype();
  if (m->grad_dtype_any) return std::nullopt;
  return m->grad_dtype;
}

Edge gradient_edge(const Tensor& t) {
  auto* m = autograd_meta(t);
  if ((!m || !m->grad_fn) && t.is_view()) check_view_without_history(t);
  if (!m) return Edge();
  ENGINE_CHECK(!m->history_invalid, std::runtime_error, multi_output_invalid_message(t));
  if (m->view_version_known) refresh_view_history(t, *m);
  if (m->grad_fn) return Edge(m->grad_fn, m->output_nr);
  if (!m->requires_grad) {
    const auto* guard = guard_of(m);
    return guard ? Edge(*guard, m->output_nr) : Edge();
  }
  std::shared_ptr<Node> acc = m->grad_accumulator.lock();
  if (!acc) {
    acc = std::allocate_shared<AccumulateGrad>(ObjectAllocator<AccumulateGrad>(), t);
    m->grad_accumulator = acc;
  }
  return Edge(std::move(acc), 0);
}

namespace {
// Set once the first guard is made: before that no node can be guard-only, and set_history skips
// the check.
std::atomic<bool> g_guards_made{false};

// Whether every gradient `node` passes on reaches a guard and nothing else.
bool leads_only_to_guards(const Node& node) {
  bool any = false;
  for (const Edge& e : node.next_edges()) {
    if (!e.is_valid()) continue;
    if (!e.function->guard_only()) return false;
    any = true;
  }
  return any;
}
}  // namespace

void set_history(const Tensor& t, const std::shared_ptr<Node>& node) {
  if (g_guards_made.load(std::memory_order_relaxed) && !autograd_meta(t) && leads_only_to_guards(*node)) {
    // A value computed in a create_graph backward from guarded values alone (grad_out * ctx.x2
    // where grad_out carries no graph): PyTorch shows it as not requiring grad, and so does
    // engine; it carries the node as its guard, so a derivative later taken through it still
    // reaches the guard and raises.
    node->set_guard_only();
    auto meta = std::make_unique<GuardedMeta>();
    meta->output_nr = node->add_input_metadata(t);
    meta->guard = node;
    t.get()->autograd_meta = std::move(meta);
    return;
  }
  auto& m = ensure_autograd_meta(t);
  m.output_nr = node->add_input_metadata(t);
  m.grad_fn = node;
  if (t.is_view()) {
    m.view_version = t.version();
    m.view_version_known = true;
  }
  // Under anomaly mode a node keeps where it was made (once: at its first output).
  if (m.output_nr == 0 && AnomalyMode::enabled() && AnomalyMode::record) AnomalyMode::record(*node);
}

Tensor guarded_alias(const Tensor& t, std::shared_ptr<Node> guard) {
  Tensor a = detach(t);
  guard->set_guard_only();
  g_guards_made.store(true, std::memory_order_relaxed);
  auto meta = std::make_unique<GuardedMeta>();
  meta->output_nr = guard->add_input_metadata(a);
  meta->guard = std::move(guard);
  a.get()->autograd_meta = std::move(meta);
  return a;
}

bool compute_requires_grad(std::initializer_list<const Tensor*> tensors) {
  if (!GradMode::is_enabled()) return false;
  for (const Tensor* t : tensors) {
    if (t->defined() && (requires_grad(*t) || guard_of(autograd_meta(*t)))) return true;
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

std::string forward_name_of(const Node& fn) {
  std::string n = fn.producer_name();
  const size_t at = n.rfind("Backward");
  if (at != std::string::npos && at > 0 && n.find_first_not_of("0123456789", at + 8) == std::string::npos) {
    n.resize(at);
  }
  return n;
}

namespace {
std::string multi_output_message(const Tensor& view, const char* what) {
  auto* m = autograd_meta(view);
  // One of the op's own outputs is named by the op; a view of one (which inherits the restriction)
  // by the op that made it, as PyTorch names it by its grad_fn.
  std::string fn = "?";
  uint32_t nr = 0;
  if (m && m->multi_output_fn) {
    fn = m->multi_output_fn;
    nr = m->multi_output_nr;
  } else if (m && m->grad_fn) {
    fn = forward_name_of(*m->grad_fn);
    nr = m->output_nr;
  }
  return str_cat("Output ", nr, " of ", fn, " is a view and ", what,
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
  impl->own_version = t.get()->own_version;  // detach() shares the version counter
  return Tensor(std::move(impl));
}

}  // namespace engine
