#pragma once
// Shared plumbing of the ops: building a backward node for an op's inputs and attaching it to its
// output. Every op uses the same three steps, so they live here once.
#include <memory>
#include <stdexcept>
#include <string>

#include "engine/autograd/node.h"
#include "engine/autograd/saved_tensor.h"
#include "engine/autograd/variable.h"
#include "engine/core/allocator.h"

namespace engine::ops {

// A built-in backward node with a fixed name. Subclasses hold their saved tensors and implement
// `backward`; saved tensors are released through `saved()`.
template <typename Derived>
class BuiltinNode : public Node {
 public:
  std::string name() const override { return Derived::kName; }
};

// Returns the node (edges set) if recording is needed, else nullptr.
template <typename N>
std::shared_ptr<N> make_node(std::initializer_list<const Tensor*> inputs) {
  if (!compute_requires_grad(inputs)) return nullptr;
  // One block for the node and its control block, from the small-object lists (allocate_object).
  auto node = std::allocate_shared<N>(ObjectAllocator<N>());
  node->mutable_next_edges() = collect_next_edges(inputs);
  return node;
}

// The `_C._record_*` entries attach a node to a result computed under no_grad: a result that
// already has history (or arguments that break the node's own preconditions) is refused with an
// error naming the entry, as any other bad argument is.
inline void check_recordable(bool ok, const char* entry, const char* what) {
  if (!ok) throw std::runtime_error(std::string(entry) + "(): " + what);
}
inline void check_unrecorded(const Tensor& out, const char* entry) {
  check_recordable(!grad_fn(out), entry, "`out` must be computed without recording, but it has a grad_fn");
}

// `out` with its grad_fn shown under `name`: for an op built of other ops, the name of the PyTorch
// operator it stands for (neg is a multiplication by -1, reported as NegBackward0).
inline Tensor named_history(Tensor out, const char* name) {
  if (const auto& fn = grad_fn(out)) fn->set_display_name(name);
  return out;
}

// Shows `name` on the node of `out` as the caller gave it when that differs from what the node
// keeps (`kept`): PyTorch's nodes keep dims as given, so dim=-1 reads back as 2**64 - 1.
template <typename V>
void show_given(const Tensor& out, const char* name, const V& given, const V& kept) {
  if (given == kept) return;
  auto* m = autograd_meta(out);
  if (m && m->grad_fn) m->grad_fn->saved_values.set(name, SavedValue(given));
}

}  // namespace engine::ops
