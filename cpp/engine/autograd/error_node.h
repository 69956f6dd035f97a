#pragma once
// A node that raises when backward reaches it: marks values that must not be differentiated (the
// result of a @once_differentiable backward, or a tensor computed in a custom Function's forward
// and read by its backward under create_graph). Its edges are the ones the value really depends
// on, so autograd.grad runs it exactly when the missing derivative would be needed.
#include "engine/autograd/node.h"

namespace engine {

class ErrorNode : public Node {
 public:
  ErrorNode(std::string message, edge_list next_edges);
  variable_list apply(variable_list&& grads) override;
  std::string name() const override { return "Error"; }

 private:
  std::string message_;
};

// The node of an op whose derivative PyTorch does not implement (unique's values): named as
// PyTorch names it (Unique2Backward0), it raises NotImplementedError "the derivative for '<op>'
// is not implemented." when backward reaches it.
class NotImplementedNode : public Node {
 public:
  NotImplementedNode(std::string node_name, std::string op, edge_list next_edges);
  variable_list apply(variable_list&& grads) override;
  std::string name() const override { return node_name_; }

 private:
  std::string node_name_, op_;
};

// Aliases of `values` whose history is one ErrorNode raising `message`, with `next` as its edges.
variable_list wrap_in_error(const variable_list& values, std::string message, edge_list next);

}  // namespace engine
