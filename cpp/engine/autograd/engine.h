#pragma once
// The backward executor: one loop over the graph in reverse creation order, with dependency
// counts, summing gradients where paths meet. No recursion, so graph depth is unbounded.
#include "engine/autograd/node.h"

namespace engine {

struct BackwardOptions {
  bool keep_graph = false;
  bool create_graph = false;
  // When `capture` is non-empty (autograd.grad): return the gradients arriving at these edges, run
  // only the part of the graph that leads to them, and leave every .grad untouched.
  edge_list capture;
  // backward(inputs=...): `capture` are the tensors whose .grad is to be filled. Their nodes all run
  // (a leaf's AccumulateGrad accumulates itself and is not captured); a non-leaf's gradient is
  // taken after its tensor hooks, as retain_grad() takes it.
  bool accumulate = false;
};

// Anomaly detection (torch.autograd.set_detect_anomaly): process-wide, as in PyTorch. With it on,
// every gradient a node returns is checked for NaN (unless check_nan is off), and a node that fails
// is passed to `report` (set by the Python layer: it warns with the forward traceback) before the
// error propagates.
struct AnomalyMode {
  static bool enabled();
  static bool check_nan();
  static void set(bool enabled, bool check_nan);
  static void (*report)(Node& node);
  // Set by the Python layer: keeps the forward traceback (and the node whose backward was running,
  // if any) of a node recorded while anomaly mode is on. Called by set_history.
  static void (*record)(Node& node);
};

// The node whose backward is running on this thread, or null (anomaly mode's "parent" of nodes
// recorded by a differentiable backward).
Node* current_node();

// Queries about the backward pass running on this thread (PyTorch's graph task), for hooks that
// run inside it. Each raises when no backward pass is running.
// Runs `callback` once the current backward pass has finished (Variable._execution_engine.queue_callback).
void queue_callback(std::function<void()> callback);
// Whether `node` will run in the current backward pass (torch._C._will_engine_execute_node).
bool will_execute_node(const Node* node);
// An id of the current backward pass, or -1 when none runs on this thread.
int64_t current_graph_task_id();
// Whether a reentrant checkpoint may run its backward here: no enclosing pass only computes the
// gradients of chosen inputs (autograd.grad, backward(inputs=...)), whose results the nested
// backward would not reach (torch.autograd._is_checkpoint_valid).
bool is_checkpoint_valid();

// roots[i] receives root_grads[i]. Returns the captured gradients (undefined where none arrived).
variable_list run_backward(const edge_list& roots, const variable_list& root_grads, const BackwardOptions& opts);
// The same over plain arrays of n_roots each, for callers that hold one root and no lists
// (Tensor.backward() of a scalar).
variable_list run_backward(const Edge* roots, const Tensor* root_grads, size_t n_roots, const BackwardOptions& opts);

}  // namespace engine
