#pragma once
// An edge of the backward graph: the node that receives a gradient and which of its inputs it is.
#include <cstdint>
#include <memory>
#include <vector>

namespace engine {

class Node;

struct Edge {
  Edge() = default;
  Edge(std::shared_ptr<Node> fn, uint32_t nr) : function(std::move(fn)), input_nr(nr) {}
  bool is_valid() const { return static_cast<bool>(function); }

  std::shared_ptr<Node> function;
  uint32_t input_nr = 0;
};

using edge_list = std::vector<Edge>;

}  // namespace engine
