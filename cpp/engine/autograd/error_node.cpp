#include "engine/autograd/error_node.h"

#include <stdexcept>

#include "engine/autograd/variable.h"

namespace engine {

ErrorNode::ErrorNode(std::string message, edge_list next_edges) : message_(std::move(message)) {
  next_edges_ = std::move(next_edges);
}

variable_list ErrorNode::apply(variable_list&&) { throw std::runtime_error(message_); }

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
