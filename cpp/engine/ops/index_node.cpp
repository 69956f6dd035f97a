// Advanced indexing's backward as one node, IndexBackward0, as PyTorch records it: the forward
// (a gather through flat positions, composed in engine/_indexing.py) runs without history, and
// this node scatters the gradient back. It saves the index tensors PyTorch saves
// (grad_fn._saved_indices, None for dims indexed otherwise) and the indexed tensor's sizes.
#include <optional>

#include "engine/ops/node_util.h"
#include "engine/ops/ops.h"

namespace engine::ops {

namespace {

Dims inverse_permutation(const Dims& p) {
  Dims inv(p.size());
  for (size_t i = 0; i < p.size(); ++i) inv[static_cast<size_t>(p[i])] = static_cast<int64_t>(i);
  return inv;
}

struct IndexBackward0 : BuiltinNode<IndexBackward0> {
  static constexpr const char* kName = "IndexBackward0";
  Dims self_shape;   // the indexed tensor's shape
  Dims gather_order; // indexed dims first, then the rest: the permutation flattened for the gather
  Dims flat_shape;   // (product of the indexed dims, rest...)
  Dims out_perm;     // the permutation applied to the gathered values, or empty
  Tensor positions;  // int64 flat positions the forward gathered (no history)
  std::vector<SavedTensor> indices_;

  variable_list apply(variable_list&& g) override {
    auto me = shared_from_this();
    for (const SavedTensor& s : indices_) {
      if (s.defined()) s.unpack(me);  // raises PyTorch's error once backward freed them
    }
    Tensor x = out_perm.empty() ? g[0] : permute(g[0], inverse_permutation(out_perm));
    Dims rows = flat_shape;
    rows[0] = positions.numel();
    if (x.shape() != rows) x = reshape(x, rows);
    Tensor acc = index_add(zeros(flat_shape, x.dtype()), 0, positions, x);
    Dims permuted(gather_order.size());
    bool identity = true;
    for (size_t i = 0; i < gather_order.size(); ++i) {
      permuted[i] = self_shape[static_cast<size_t>(gather_order[i])];
      identity = identity && gather_order[i] == static_cast<int64_t>(i);
    }
    if (acc.shape() != permuted) acc = reshape(acc, permuted);
    return {identity ? acc : permute(acc, inverse_permutation(gather_order))};
  }
  void release_variables() override {
    for (SavedTensor& s : indices_) s.reset();
  }
  void visit_saved_lists(const SavedListVisitor& visit) override { visit("indices", indices_); }
  void visit_saved_values(const SavedValueVisitor& visit) const override {
    visit("self_sym_sizes", saved_ints(self_shape));
  }
};

}  // namespace

void record_index(const Tensor& out, const Tensor& self, const Tensor& positions, const Dims& gather_order,
                  const Dims& flat_shape, const Dims& out_perm, const std::vector<std::optional<Tensor>>& indices) {
  auto node = make_node<IndexBackward0>({&self});
  if (!node) return;
  node->self_shape = self.shape();
  node->gather_order = gather_order;
  node->flat_shape = flat_shape;
  node->out_perm = out_perm;
  node->positions = detach(positions);
  for (const auto& idx : indices) node->indices_.push_back(idx ? SavedTensor(*idx, false) : SavedTensor());
  set_history(out, node);
}

}  // namespace engine::ops
