#pragma once
// The autograd half of a tensor: whether it requires grad, its .grad, and where its history starts.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/autograd/edge.h"
#include "engine/core/tensor.h"

namespace engine {

class Node;

struct AutogradMeta : AutogradMetaInterface {
  bool requires_grad = false;
  Tensor grad;
  // The Python object handed out for `grad`, kept while `grad` is this tensor's gradient, so that
  // `t.grad is t.grad` holds and weak references to it (and attributes set on it) survive, as in
  // PyTorch. Opaque here (the Python layer fills it; its deleter takes the GIL). Whoever replaces
  // `grad` by another tensor clears it, outside any lock the Python layer may wait on.
  std::shared_ptr<void> grad_py;
  std::shared_ptr<Node> grad_fn;
  uint32_t output_nr = 0;
  std::weak_ptr<Node> grad_accumulator;
  bool retains_grad = false;
  // Tensor.register_hook callbacks: each may return a replacement gradient.
  std::vector<std::function<Tensor(const Tensor&)>> hooks;
  std::vector<std::function<void(const Tensor&)>> post_accumulate_hooks;
  // For output `multi_output_nr` of an op returning several views (unbind, split): the op's name,
  // for the error when one is written in place; `history_invalid` once one was written in place
  // under no_grad, after which its history cannot be used (PyTorch's grad_fn=<Invalid>).
  const char* multi_output_fn = nullptr;
  uint32_t multi_output_nr = 0;
  bool history_invalid = false;
  // For a view with history: its storage's version when that history was set. A later write
  // through the base or another view makes the history stale; grad_fn() then rebuilds it.
  uint32_t view_version = 0;
  bool view_version_known = false;
  // Tensor.grad_dtype of a leaf: unset, its gradient has the tensor's dtype; set, the given dtype
  // or, with `grad_dtype_any` (Python's None), whatever dtype the gradient arrives in.
  bool grad_dtype_set = false;
  bool grad_dtype_any = false;
  DType grad_dtype = DType::Float32;
};

AutogradMeta* autograd_meta(const Tensor& t);
AutogradMeta& ensure_autograd_meta(const Tensor& t);

bool requires_grad(const Tensor& t);
const std::shared_ptr<Node>& grad_fn(const Tensor& t);
bool is_leaf(const Tensor& t);
uint32_t output_nr(const Tensor& t);
// Sets requires_grad on a leaf; PyTorch's errors for non-leaves and non-float dtypes.
void set_requires_grad(const Tensor& t, bool value);

// The dtype a leaf's gradient is cast to (Tensor.grad_dtype), or nullopt when any dtype is kept.
std::optional<DType> allowed_grad_dtype(const Tensor& t);

// Where a gradient for `t` must be sent: its grad_fn, or the accumulator of a leaf that requires
// grad (made on first use), or an invalid edge.
Edge gradient_edge(const Tensor& t);
// Makes `node` the grad_fn of `t` (a fresh output of the op that built `node`).
void set_history(const Tensor& t, const std::shared_ptr<Node>& node);
// Notes that a view's history is current for its storage's present version (see AutogradMeta).
void note_view_history(const Tensor& t);

// True when any tensor requires grad and grad mode is on: the op must record a node.
bool compute_requires_grad(std::initializer_list<const Tensor*> tensors);
edge_list collect_next_edges(std::initializer_list<const Tensor*> tensors);

// Marks views[i] as output i of `fn`, an op returning several views (see AutogradMeta).
void mark_multi_output_views(const std::vector<Tensor>& views, const char* fn);
// PyTorch's messages for a multi-output view written in place, and for one whose history was lost.
std::string multi_output_inplace_message(const Tensor& view);
std::string multi_output_invalid_message(const Tensor& view);

// A new tensor sharing t's data and version counter, with no history (Tensor.detach()).
Tensor detach(const Tensor& t);

}  // namespace engine
