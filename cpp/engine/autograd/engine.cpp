#include "engine/autograd/engine.h"

#include <atomic>
#include <cmath>
#include <exception>
#include <algorithm>
#include <thread>
#include <typeinfo>
#include <unordered_map>
#include <unordered_set>

#include "engine/autograd/accumulate_grad.h"
#include "engine/autograd/edge_use.h"
#include "engine/autograd/grad_mode.h"
#include "engine/autograd/variable.h"
#include "engine/core/allocator.h"
#include "engine/core/error.h"
#include "engine/core/fast_tls.h"
#include "engine/core/small_vector.h"
#include "engine/ops/ops.h"

namespace engine {

namespace {

// Casts a gradient bound for `e` to the dtype its receiver expects: a forward output's dtype, or
// for a leaf its grad_dtype (which may allow any dtype).
void conform_dtype(const Edge& e, Tensor& g) {
  const InputMetadata& meta = e.function->input_metadata()[e.input_nr];
  if (!meta.leaf) {
    if (g.dtype() != meta.dtype) g = ops::to_dtype(g, meta.dtype);
    return;
  }
  const auto want = allowed_grad_dtype(static_cast<const AccumulateGrad&>(*e.function).variable());
  if (want && g.dtype() != *want) g = ops::to_dtype(g, *want);
}

// Brings each gradient a node returned to the shape and dtype its receiver expects, with PyTorch's
// checks. This is the one place where broadcasting is undone.
void validate_outputs(Node& node, variable_list& grads) {
  const auto& edges = node.next_edges();
  ENGINE_CHECK(grads.size() == edges.size(), std::runtime_error, "function ", node.name(),
               " returned an incorrect number of gradients (expected ", edges.size(), ", got ", grads.size(), ")");
  for (size_t i = 0; i < grads.size(); ++i) {
    Tensor& g = grads[i];
    if (!edges[i].is_valid() || !g.defined()) continue;
    const InputMetadata& meta = edges[i].function->input_metadata()[edges[i].input_nr];
    if (g.shape() != meta.shape) {
      ENGINE_CHECK(is_expandable_to(meta.shape, g.shape()), std::runtime_error, "Function ", node.name(),
                   " returned an invalid gradient at index ", i, " - got ", dims_str(g.shape()),
                   " but expected shape compatible with ", dims_str(meta.shape));
      g = ops::sum_to(g, meta.shape);
    }
    conform_dtype(edges[i], g);
  }
}

// The node as a leaf's AccumulateGrad, or null: an exact type test (AccumulateGrad has no
// subclasses), cheaper than the hierarchy walk of dynamic_cast, for every node a pass runs.
AccumulateGrad* as_accumulate_grad(Node* node) {
  return typeid(*node) == typeid(AccumulateGrad) ? static_cast<AccumulateGrad*>(node) : nullptr;
}

struct ReadyOrder {
  bool operator()(const Node* a, const Node* b) const { return a->sequence_nr() < b->sequence_nr(); }
};

void accumulate(Tensor& slot, Tensor g) {
  if (!g.defined()) return;
  slot = slot.defined() ? ops::add(slot, g) : std::move(g);
}

std::atomic<bool> g_anomaly{false};
std::atomic<bool> g_anomaly_nan{true};

bool has_nan(const Tensor& g) {
  if (!g.defined() || !is_floating(g.dtype())) return false;
  Tensor c = ops::contiguous(g);
  const int64_t n = c.numel();
  if (c.dtype() == DType::Float64) {
    const double* p = c.data<double>();
    for (int64_t i = 0; i < n; ++i) if (std::isnan(p[i])) return true;
  } else if (c.dtype() == DType::Float32) {
    const float* p = c.data<float>();
    for (int64_t i = 0; i < n; ++i) if (std::isnan(p[i])) return true;
  }
  return false;
}

// Runs the node and its post-hooks: the outgoing gradients, validated.
variable_list call_node(Node* node, variable_list& inputs) {
  variable_list outputs;
  bool all_undefined = true;
  for (auto& g : inputs) all_undefined = all_undefined && !g.defined();
  if (all_undefined && node->skips_undefined_inputs()) {
    outputs.resize(node->num_outputs());
  } else {
    // Post-hooks see the incoming gradients too, so keep them when there are any.
    outputs = node->hooked() ? node->apply(variable_list(inputs)) : node->apply(std::move(inputs));
  }
  validate_outputs(*node, outputs);
  if (!node->hooked()) return outputs;
  for (const auto& hook : hooks_snapshot(node->post_hooks())) {
    if (!hook) continue;
    variable_list r = hook(outputs, inputs);
    if (!r.empty()) {
      outputs = std::move(r);
      validate_outputs(*node, outputs);
    }
  }
  return outputs;
}

// Tensor pre-hooks and retained gradients, in that order (see Node). The hooks run from a
// snapshot of the list (hooks_snapshot). A tensor hook sees an undefined gradient too (None in
// Python), as PyTorch's do: the output was not used.
void run_tensor_pre_hooks(Node& node, variable_list& inputs, bool create_graph) {
  for (const auto& [nr, hook] : hooks_snapshot(node.tensor_pre_hooks())) {
    if (!hook || nr >= inputs.size()) continue;
    Tensor r = hook(inputs[nr]);
    if (r.defined()) inputs[nr] = std::move(r);
  }
  for (size_t h = 0;; ++h) {
    auto entry = hook_at(node.retained_grads(), h);
    if (!entry) break;
    auto& [nr, weak] = *entry;
    auto impl = weak.lock();
    if (!impl || nr >= inputs.size() || !inputs[nr].defined()) continue;
    Tensor t(impl);
    auto& meta = ensure_autograd_meta(t);
    std::lock_guard<std::mutex> lock(grad_accumulation_mutex());
    meta.grad = meta.grad.defined() ? ops::add(meta.grad, inputs[nr])
                                    : (create_graph ? inputs[nr] : ops::clone(inputs[nr]));
  }
}

// The node's pre-hooks, which run only when the node itself runs.
void run_node_pre_hooks(Node& node, variable_list& inputs) {
  for (const auto& hook : hooks_snapshot(node.pre_hooks())) {
    if (!hook) continue;
    variable_list r = hook(inputs);
    if (!r.empty()) inputs = std::move(r);
  }
}

// The per-node state of one backward pass: the node kept alive, the edges into it not yet
// delivered, and the gradients gathered for its inputs. Most graphs a pass runs are a handful of
// nodes (a loss of a few ops), for which scanning a short vector beats hashing and its
// allocations; a hash index is added once the graph grows past that.
class NodeTable {
 public:
  struct Entry {
    std::shared_ptr<Node> node;
    int dependencies = 0;
    variable_list buffer;
  };
  // The node's entry, added if it is new (the bool says whether it was); valid until the next insert.
  std::pair<Entry*, bool> insert(const std::shared_ptr<Node>& n) {
    if (Entry* e = find(n.get())) return {e, false};
    if (entries_.empty()) entries_.reserve(kLinear);
    entries_.push_back(Entry{n, 0, {}});
    if (!index_.empty() || entries_.size() > kLinear) {
      if (index_.empty()) {
        for (size_t i = 0; i < entries_.size(); ++i) index_.emplace(entries_[i].node.get(), i);
      } else {
        index_.emplace(n.get(), entries_.size() - 1);
      }
    }
    return {&entries_.back(), true};
  }
  Entry* find(Node* n) {
    if (!index_.empty()) {
      auto it = index_.find(n);
      return it == index_.end() ? nullptr : &entries_[it->second];
    }
    for (Entry& e : entries_) {
      if (e.node.get() == n) return &e;
    }
    return nullptr;
  }
  bool contains(Node* n) const { return const_cast<NodeTable*>(this)->find(n) != nullptr; }
  std::vector<Entry, ObjectAllocator<Entry>>& entries() { return entries_; }

 private:
  static constexpr size_t kLinear = 16;
  // Entries move as entries are added: the pass keeps pointers to them only once the graph walk
  // that adds them is over (and a deque costs two allocations before its first entry). The first
  // kLinear come from the small-object lists, not malloc.
  std::vector<Entry, ObjectAllocator<Entry>> entries_;
  // Hash nodes from the small-object lists: one per graph node per pass otherwise costs a malloc.
  std::unordered_map<Node*, size_t, std::hash<Node*>, std::equal_to<Node*>,
                     ObjectAllocator<std::pair<Node* const, size_t>>>
      index_;
};

// What hooks may ask about the running pass; one per nested run_backward, innermost current.
struct GraphTaskState {
  int64_t id;
  const NodeTable* alive;
  const std::unordered_set<Node*>* needed;  // non-null when capturing
  std::vector<std::function<void()>> callbacks;
  GraphTaskState* outer;
};
ENGINE_FAST_TLS thread_local GraphTaskState* t_graph_task = nullptr;
std::atomic<int64_t> g_next_graph_task_id{0};

// Makes `state` current for its scope; runs the queued callbacks when the pass completes.
class GraphTaskScope {
 public:
  explicit GraphTaskScope(GraphTaskState& s) : state_(s) {
    s.outer = t_graph_task;
    t_graph_task = &s;
  }
  ~GraphTaskScope() { t_graph_task = state_.outer; }
  void run_callbacks() {
    // A callback may queue further callbacks: they run too, in order.
    for (size_t i = 0; i < state_.callbacks.size(); ++i) {
      std::function<void()> cb = state_.callbacks[i];
      cb();
    }
  }
  GraphTaskScope(const GraphTaskScope&) = delete;
  GraphTaskScope& operator=(const GraphTaskScope&) = delete;

 private:
  GraphTaskState& state_;
};

}  // namespace

void queue_callback(std::function<void()> callback) {
  ENGINE_CHECK(t_graph_task, std::runtime_error, "Final callbacks can only be installed during backward pass.");
  t_graph_task->callbacks.push_back(std::move(callback));
}

bool will_execute_node(const Node* node) {
  ENGINE_CHECK(t_graph_task, std::runtime_error,
               "_will_engine_execute_node should only be called during the backward pass");
  Node* n = const_cast<Node*>(node);
  if (t_graph_task->needed) return t_graph_task->needed->count(n) > 0;
  return t_graph_task->alive->contains(n);
}

int64_t current_graph_task_id() { return t_graph_task ? t_graph_task->id : -1; }

bool is_checkpoint_valid() {
  for (const GraphTaskState* task = t_graph_task; task; task = task->outer) {
    if (task->needed) return false;
  }
  return true;
}

bool edge_will_be_used(const Edge& edge) {
  if (!edge.is_valid()) return false;
  if (!t_graph_task || !t_graph_task->needed) return true;
  return t_graph_task->needed->count(edge.function.get()) > 0;
}

bool AnomalyMode::enabled() { return g_anomaly.load(std::memory_order_relaxed); }
bool AnomalyMode::check_nan() { return g_anomaly_nan.load(std::memory_order_relaxed); }
void AnomalyMode::set(bool enabled, bool check_nan) {
  g_anomaly_nan = check_nan;
  g_anomaly = enabled;
}
void (*AnomalyMode::report)(Node& node) = nullptr;
void (*AnomalyMode::record)(Node& node) = nullptr;

namespace {
ENGINE_FAST_TLS thread_local Node* t_current_node = nullptr;

// Makes `node` the current node for its scope (nested backward passes restore the outer one).
class CurrentNodeScope {
 public:
  explicit CurrentNodeScope(Node* n) : prev_(t_current_node) { t_current_node = n; }
  ~CurrentNodeScope() { t_current_node = prev_; }
  CurrentNodeScope(const CurrentNodeScope&) = delete;
  CurrentNodeScope& operator=(const CurrentNodeScope&) = delete;

 private:
  Node* prev_;
};
}  // namespace

Node* current_node() { return t_current_node; }

namespace {

// Backward passes started from inside a backward (a custom Function whose backward calls
// backward: reentrant) nest on the thread's stack. Past this depth the nested pass runs on a fresh
// thread, as PyTorch's engine does, so neither the C++ stack nor Python's recursion limit (counted
// per thread) grows with the nesting: 2000 levels work.
constexpr int kMaxReentrantDepth = 60;
ENGINE_FAST_TLS thread_local int t_backward_depth = 0;

// roots[i] receives root_grads[i], i < n_roots.
variable_list run_backward_here(const Edge* roots, const Tensor* root_grads, size_t n_roots, const BackwardOptions& opts);

// Runs the pass on a new thread that sees this thread's modes, and waits for it (the caller does
// not hold the GIL: the worker takes it whenever it calls Python).
variable_list run_backward_on_fresh_thread(const Edge* roots, const Tensor* root_grads, size_t n_roots,
                                           const BackwardOptions& opts) {
  const bool inference = inference_mode_enabled();
  Node* parent = t_current_node;
  variable_list result;
  std::exception_ptr error;
  std::thread worker([&] {
    set_inference_mode_enabled(inference);
    CurrentNodeScope current(parent);
    try {
      ++t_backward_depth;
      result = run_backward_here(roots, root_grads, n_roots, opts);
    } catch (...) {
      error = std::current_exception();
    }
  });
  worker.join();
  if (error) std::rethrow_exception(error);
  return result;
}

// Counts this thread's nesting of backward passes for its scope.
class BackwardDepthScope {
 public:
  BackwardDepthScope() { ++t_backward_depth; }
  ~BackwardDepthScope() { --t_backward_depth; }
  BackwardDepthScope(const BackwardDepthScope&) = delete;
  BackwardDepthScope& operator=(const BackwardDepthScope&) = delete;
};

}  // namespace

variable_list run_backward(const Edge* roots, const Tensor* root_grads, size_t n_roots, const BackwardOptions& opts) {
  if (t_backward_depth >= kMaxReentrantDepth) return run_backward_on_fresh_thread(roots, root_grads, n_roots, opts);
  BackwardDepthScope depth;
  return run_backward_here(roots, root_grads, n_roots, opts);
}

variable_list run_backward(const edge_list& roots, const variable_list& root_grads, const BackwardOptions& opts) {
  ENGINE_ASSERT(roots.size() == root_grads.size());
  return run_backward(roots.data(), root_grads.data(), roots.size(), opts);
}

namespace {

variable_list run_backward_here(const Edge* roots, const Tensor* root_grads, size_t n_roots, const BackwardOptions& opts) {
  AutoGradMode grad_mode(opts.create_graph);

  // Every reachable node (kept alive while the graph runs), and how many edges point at it.
  NodeTable alive;
  {
    SmallVector<Node*, 32> stack;
    for (size_t i = 0; i < n_roots; ++i) {
      const Edge& e = roots[i];
      if (!e.is_valid()) continue;
      if (alive.insert(e.function).second) stack.push_back(e.function.get());
    }
    while (!stack.empty()) {
      Node* n = stack.back();
      stack.pop_back();
      for (const Edge& e : n->next_edges()) {
        if (!e.is_valid()) continue;
        auto [entry, added] = alive.insert(e.function);
        ++entry->dependencies;
        if (added) stack.push_back(e.function.get());
      }
    }
  }

  // With captures, only nodes from which a capture point is reachable need to run.
  std::unordered_map<Node*, std::vector<std::pair<uint32_t, size_t>>> captures;  // node -> (input_nr, slot)
  std::unordered_set<Node*> needed;
  const bool capturing = !opts.capture.empty();
  if (capturing) {
    for (size_t i = 0; i < opts.capture.size(); ++i) {
      const Edge& e = opts.capture[i];
      if (e.is_valid()) captures[e.function.get()].emplace_back(e.input_nr, i);
    }
    // Reverse reachability: walk the graph's edges backwards from the capture nodes.
    std::unordered_map<Node*, std::vector<Node*>> parents;
    for (auto& entry : alive.entries()) {
      Node* n = entry.node.get();
      for (const Edge& e : n->next_edges()) {
        if (e.is_valid()) parents[e.function.get()].push_back(n);
      }
    }
    std::vector<Node*> stack;
    for (auto& [n, unused] : captures) {
      if (alive.contains(n) && needed.insert(n).second) stack.push_back(n);
    }
    while (!stack.empty()) {
      Node* n = stack.back();
      stack.pop_back();
      for (Node* p : parents[n]) {
        if (needed.insert(p).second) stack.push_back(p);
      }
    }
  }

  GraphTaskState task{g_next_graph_task_id.fetch_add(1), &alive, capturing ? &needed : nullptr, {}, nullptr};
  GraphTaskScope task_scope(task);

  variable_list captured(opts.capture.size());
  // Ready nodes carry their table entry (entries' addresses are stable), in a heap whose top is
  // the latest-created node (a priority queue, kept inline for the usual few ready at a time).
  struct Ready {
    Node* node;
    NodeTable::Entry* entry;
  };
  struct ReadyEntryOrder {
    bool operator()(const Ready& a, const Ready& b) const { return ReadyOrder()(a.node, b.node); }
  };
  SmallVector<Ready, 16> ready;
  auto push_ready = [&ready](Node* n, NodeTable::Entry* entry) {
    ready.push_back(Ready{n, entry});
    std::push_heap(ready.begin(), ready.end(), ReadyEntryOrder());
  };

  for (size_t i = 0; i < n_roots; ++i) {
    const Edge& e = roots[i];
    if (!e.is_valid()) continue;
    auto& buf = alive.find(e.function.get())->buffer;
    buf.resize(e.function->input_metadata().size());
    Tensor g = root_grads[i];
    if (g.defined()) conform_dtype(e, g);
    accumulate(buf[e.input_nr], std::move(g));
  }
  for (size_t i = 0; i < n_roots; ++i) {
    const Edge& e = roots[i];
    if (!e.is_valid()) continue;
    NodeTable::Entry* entry = alive.find(e.function.get());
    if (entry->dependencies == 0) {
      entry->dependencies = -1;  // queued once even if it is several roots
      push_ready(e.function.get(), entry);
    }
  }

  while (!ready.empty()) {
    std::pop_heap(ready.begin(), ready.end(), ReadyEntryOrder());
    const auto [node, node_entry] = ready.back();
    ready.pop_back();
    // A root that leads to none of the requested inputs is not run at all (PyTorch runs only the
    // nodes between the roots and the inputs).
    if (capturing && !needed.count(node)) {
      node_entry->buffer = variable_list();
      continue;
    }
    variable_list inputs = std::move(node_entry->buffer);
    node_entry->buffer = variable_list();
    inputs.resize(node->input_metadata().size());

    auto tensor_hooks = [&] {
      if (auto* acc = as_accumulate_grad(node); acc && !inputs.empty()) acc->run_leaf_hooks(inputs[0]);
      if (node->hooked()) run_tensor_pre_hooks(*node, inputs, opts.create_graph);
    };
    bool hooks_done = false;
    if (capturing) {
      auto it = captures.find(node);
      auto capture = [&] {
        if (it == captures.end()) return;
        for (auto& [nr, slot] : it->second) {
          if (nr < inputs.size()) accumulate(captured[slot], inputs[nr]);
        }
      };
      if (opts.accumulate) {
        tensor_hooks();
        hooks_done = true;
        if (!as_accumulate_grad(node)) capture();
      } else {
        // A capture point is not run itself unless another capture lies beyond it. As in PyTorch,
        // a node that is not run still has its tensor hooks called, before its gradient is
        // captured; one that runs is captured before any hook, and its hooks run with it.
        bool beyond = false;
        for (const Edge& e : node->next_edges()) {
          if (e.is_valid() && needed.count(e.function.get())) beyond = true;
        }
        if (!beyond) tensor_hooks();
        capture();
        if (!beyond) continue;
      }
    }
    if (!hooks_done) tensor_hooks();
    if (node->hooked()) run_node_pre_hooks(*node, inputs);

    variable_list outputs;
    if (!AnomalyMode::enabled()) {
      outputs = call_node(node, inputs);
    } else {
      CurrentNodeScope current(node);
      try {
        outputs = call_node(node, inputs);
        for (size_t i = 0; AnomalyMode::check_nan() && i < outputs.size(); ++i) {
          ENGINE_CHECK(!has_nan(outputs[i]), std::runtime_error, "Function '", node->name(),
                       "' returned nan values in its ", i, "th output.");
        }
      } catch (...) {
        if (AnomalyMode::report) AnomalyMode::report(*node);
        throw;
      }
    }
    if (!opts.keep_graph) {
      node->release_variables();
      for (auto& shown : node->saved_values.tensors) shown.second.reset();
    }

    const auto& edges = node->next_edges();
    for (size_t i = 0; i < edges.size(); ++i) {
      const Edge& e = edges[i];
      if (!e.is_valid()) continue;
      Node* next = e.function.get();
      if (capturing && !needed.count(next)) continue;
      NodeTable::Entry* entry = alive.find(next);
      auto& buf = entry->buffer;
      if (buf.empty() && edges.size() == 1 && outputs.size() == 1 && next->input_metadata().size() == 1) {
        // A link of a chain: the list the node returned becomes the next one's inputs as it is
        // (one malloc and one free fewer per node).
        buf = std::move(outputs);
      } else {
        if (buf.empty()) buf.resize(next->input_metadata().size());
        accumulate(buf[e.input_nr], std::move(outputs[i]));
      }
      if (--entry->dependencies == 0) push_ready(next, entry);
    }
  }
  task_scope.run_callbacks();
  return captured;
}

}  // namespace

}  // namespace engine
