#pragma once
// Node: one step of the backward graph. It receives the gradients of its forward outputs and
// returns the gradients of its forward inputs, which flow along next_edges.
#include <atomic>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/autograd/edge.h"
#include "engine/autograd/saved_tensor.h"
#include "engine/core/tensor.h"

namespace engine {

class SavedTensor;
using variable_list = std::vector<Tensor>;

// A non-tensor argument a node keeps, as PyTorch shows it on the node (grad_fn._saved_dim,
// _saved_keepdim, _saved_self_sym_sizes, _saved_eps, ...): None, a bool, an int, a float, a
// string or a tuple of ints. Built from exactly these types (an int literal must say int64_t).
struct SavedValue {
  // Int: an int64 argument (a dim, a size), which PyTorch's getters read through an unsigned
  // conversion (-1 shows as 2**64 - 1); ScalarInt: an integer Python number an op was given
  // (alpha, an exponent), shown signed.
  enum class Kind : uint8_t { None, Bool, Int, Double, String, Ints, ScalarInt };
  Kind kind = Kind::None;
  bool b = false;
  int64_t i = 0;
  double d = 0.0;
  std::string s;
  std::vector<int64_t> ints;

  SavedValue() = default;
  SavedValue(bool v) : kind(Kind::Bool), b(v) {}                                   // NOLINT(runtime/explicit)
  SavedValue(int64_t v) : kind(Kind::Int), i(v) {}                                 // NOLINT(runtime/explicit)
  SavedValue(double v) : kind(Kind::Double), d(v) {}                               // NOLINT(runtime/explicit)
  SavedValue(std::string v) : kind(Kind::String), s(std::move(v)) {}               // NOLINT(runtime/explicit)
  SavedValue(const char* v) : kind(Kind::String), s(v) {}                          // NOLINT(runtime/explicit)
  SavedValue(std::vector<int64_t> v) : kind(Kind::Ints), ints(std::move(v)) {}     // NOLINT(runtime/explicit)
  SavedValue(int v) = delete;  // ambiguous between int64_t, double and bool: say which
  static SavedValue scalar_int(int64_t v) {
    SavedValue s(v);
    s.kind = Kind::ScalarInt;
    return s;
  }
};

// Named saved values, for nodes whose kind (and so whose attributes) is chosen at run time.
struct SavedValues {
  std::vector<std::pair<const char*, SavedValue>> items;
  // Only these are the node's saved attributes: an op composed of others shows exactly what
  // PyTorch's node for it shows, not its last primitive's saved tensors and values.
  bool exclusive = false;
  // Tensors such a node shows beside its values (a composed op's _saved_self, _saved_weight, ...),
  // kept as saved tensors: version-checked on reading, released with the node's own after backward.
  std::vector<std::pair<const char*, SavedTensor>> tensors;
  void add(const char* name, SavedValue v) { items.emplace_back(name, std::move(v)); }
  // Replaces the value named `name`, or adds it.
  void set(const char* name, SavedValue v) {
    for (auto& [k, old] : items) {
      if (std::string_view(k) == name) {
        old = std::move(v);
        return;
      }
    }
    add(name, std::move(v));
  }
};

// Sizes and dims as a saved value (a tuple of ints).
inline SavedValue saved_ints(const Dims& d) { return std::vector<int64_t>(d.begin(), d.end()); }
// A multiplier (alpha, beta) as PyTorch shows it: an int when it holds a whole number.
inline SavedValue saved_number(double v) {
  if (std::floor(v) == v && std::fabs(v) < 9.0e15) return SavedValue::scalar_int(static_cast<int64_t>(v));
  return v;
}

// What a node knows of each tensor it will receive a gradient for (shape and dtype of a forward
// output), so the engine can check and reshape gradients flowing into it in one place.
struct InputMetadata {
  Dims shape;
  DType dtype = DType::Float32;
  // Set for a leaf's AccumulateGrad: the gradient's dtype is then the leaf's grad_dtype, read when
  // the gradient arrives (the user may change it after the graph was built).
  bool leaf = false;
};

// Something whose release may cascade into dropping more nodes (a Python ctx object, say). Its
// destructor runs through the same non-recursive teardown as nodes: see defer_release.
struct DeferredRelease {
  virtual ~DeferredRelease() = default;
};

// Destroys `r` now, or, if a node teardown is already running on this thread, hands it to that
// teardown's loop so the stack does not grow with the length of the graph.
void defer_release(std::unique_ptr<DeferredRelease> r);

// Hook lists (a node's, a leaf's) are changed by Python threads while other threads' backward
// passes read them: every access holds this lock, and no hook runs while it is held.
std::mutex& hooks_mutex();

// Entry i of a hook list, or nullopt past its end; read under hooks_mutex, so a hook may register
// further hooks (or another thread may) while the caller runs the copy it got.
template <typename List>
std::optional<typename List::value_type> hook_at(const List& hooks, size_t i) {
  std::lock_guard<std::mutex> lock(hooks_mutex());
  if (i >= hooks.size()) return std::nullopt;
  return hooks[i];
}

// A copy of a hook list taken under hooks_mutex, for one pass over it: as in PyTorch, a hook
// removed by an earlier hook of the same pass still runs in that pass, and one added then waits
// for the next.
template <typename List>
List hooks_snapshot(const List& hooks) {
  std::lock_guard<std::mutex> lock(hooks_mutex());
  return hooks;
}

// Nodes made with new (custom Functions' nodes, say) come from the small-object lists (PooledObject).
class Node : public std::enable_shared_from_this<Node>, public PooledObject {
 public:
  Node();
  virtual ~Node();
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  // Gradients of the forward inputs given gradients of the forward outputs. An undefined Tensor
  // means "zero" (or "not needed") on either side.
  virtual variable_list apply(variable_list&& grads) = 0;
  virtual std::string name() const = 0;
  // Drops saved tensors once backward has used them (unless the graph is retained).
  virtual void release_variables() {}
  // Built-in nodes propagate "no gradient" without running; custom Functions decide themselves.
  virtual bool skips_undefined_inputs() const { return true; }
  // The name users see (the node's Python class, name(), printing): the node's own name, or the
  // name of the PyTorch operator an op built of several nodes stands for (F.nll_loss's last node
  // is a division, reported as NllLossBackward0, as in PyTorch).
  std::string display_name() const { return alias_.empty() ? name() : alias_; }
  void set_display_name(std::string alias) { alias_ = std::move(alias); }
  // The name used when a tensor this node produced is reported in an error.
  virtual std::string producer_name() const { return display_name(); }
  // The node's saved tensors under the names PyTorch exposes them by (grad_fn._saved_self is
  // visit("self", ...)); nodes that save nothing, or have not been described, visit nothing.
  using SavedVisitor = std::function<void(const char* name, SavedTensor& value)>;
  virtual void visit_saved(const SavedVisitor& visit) { (void)visit; }
  // Lists of saved tensors (grad_fn._saved_indices of an index: entries may be undefined = None).
  using SavedListVisitor = std::function<void(const char* name, std::vector<SavedTensor>& values)>;
  virtual void visit_saved_lists(const SavedListVisitor& visit) { (void)visit; }
  // The node's saved non-tensor arguments, under PyTorch's names (visit("dim", int64_t{1})).
  using SavedValueVisitor = std::function<void(const char* name, const SavedValue& value)>;
  // By default the values in `saved_values`; nodes that keep them as fields of their own override.
  virtual void visit_saved_values(const SavedValueVisitor& visit) const {
    for (const auto& [k, v] : saved_values.items) visit(k, v);
  }
  // Also read before visit_saved_values (which may give a value of the same name): an op records
  // here an argument as the caller wrote it where its node keeps it normalised (PyTorch shows
  // dim=-1 as given), with saved_values.set.
  SavedValues saved_values;
  // The Python bindings' per-node state (the `metadata` dict), made on first use.
  std::unique_ptr<DeferredRelease>& py_state() { return py_state_; }

  const edge_list& next_edges() const { return next_edges_; }
  edge_list& mutable_next_edges() { return next_edges_; }
  size_t num_outputs() const { return next_edges_.size(); }
  bool should_compute_output(size_t i) const { return i < next_edges_.size() && next_edges_[i].is_valid(); }

  uint32_t add_input_metadata(const Tensor& t);
  // Room for n outputs' metadata, where the caller knows how many it will add.
  void reserve_input_metadata(size_t n) { input_metadata_.reserve(n); }
  const std::vector<InputMetadata>& input_metadata() const { return input_metadata_; }
  uint64_t sequence_nr() const { return sequence_nr_; }

  // Hooks, run by the engine in this order: tensor pre-hooks (Tensor.register_hook on an output of
  // this node: see and may replace that output's gradient), retained gradients, pre-hooks (see and
  // may replace all incoming gradients), apply, post-hooks (see both sides, may replace the
  // outgoing ones). A removed hook is left as an empty function, so handles keep their index.
  // The lists are changed only under hooks_mutex, followed by mark_hooked(); the engine looks at
  // them only for nodes that were ever hooked.
  using PreHook = std::function<variable_list(const variable_list&)>;
  using PostHook = std::function<variable_list(const variable_list&, const variable_list&)>;
  using TensorHook = std::function<Tensor(const Tensor&)>;
  std::vector<PreHook>& pre_hooks() { return pre_hooks_; }
  std::vector<PostHook>& post_hooks() { return post_hooks_; }
  std::vector<std::pair<uint32_t, TensorHook>>& tensor_pre_hooks() { return tensor_pre_hooks_; }
  std::vector<std::pair<uint32_t, std::weak_ptr<TensorImpl>>>& retained_grads() { return retained_grads_; }
  void mark_hooked() { hooked_.store(true, std::memory_order_release); }
  bool hooked() const { return hooked_.load(std::memory_order_acquire); }
  // A node every path from which ends at a double-backward guard (variable.cpp): the values it
  // produces carry the guard without requiring grad, so flags stay as PyTorch shows them.
  bool guard_only() const { return guard_only_; }
  void set_guard_only() { guard_only_ = true; }

 protected:
  edge_list next_edges_;
  std::vector<InputMetadata> input_metadata_;
  uint64_t sequence_nr_;
  std::vector<PreHook> pre_hooks_;
  std::vector<PostHook> post_hooks_;
  std::vector<std::pair<uint32_t, TensorHook>> tensor_pre_hooks_;
  std::vector<std::pair<uint32_t, std::weak_ptr<TensorImpl>>> retained_grads_;
  std::atomic<bool> hooked_{false};
  bool guard_only_ = false;
  std::unique_ptr<DeferredRelease> py_state_;
  std::string alias_;
};

}  // namespace engine
