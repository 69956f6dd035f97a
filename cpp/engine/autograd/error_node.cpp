#include "engine/autograd/error_node.h"

#include <stdexcept>

#include "engine/autograd/variable.h"
#include "engine/core/error.h"

namespace engine {

ErrorNode::ErrorNode(std::string message, edge_list next_edges) : message_(std::move(message)) {
  next_edges_ = std::move(next_edges);
}

variable_list ErrorNode::apply(variable_list&&) { throw std::runtime_error(message_); }

NotImplementedNode::NotImplementedNode(std::string node_name, std::string op, edge_list next_edges)
    : node_name_(std::move(node_name)), op_(std::move(op)) {
  next_edges_ = std::move(next_edges);
}

variable_list NotImplementedNode::apply(variable_list&&) {
  throw NotImplementedError("the derivative for '" + op_ + "' is not implemented.");
}

variable_list wrap_in_error(const variable_list& values, std::string message, edge_list next) {
  auto node = std::make_shared<ErrorNode>(std::move(message), std::move(next));
  variable_list out;
  out.reserve(values.size());
  for (const Tensor& v : values) {
    if (!v.defined()) {
      out.emplace_back();
      continue;
    }
    Tensor a = detach(v);
    set_history(a, node);
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace engine
