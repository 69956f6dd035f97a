#pragma once
// What a built-in backward rule may ask about the pass running it: whether a gradient it would send
// along an edge is used at all (PyTorch's task_should_compute_output). autograd.grad runs only the
// part of the graph leading to the requested inputs; a gradient towards any other input is wasted.
#include "engine/autograd/edge.h"
#include "engine/autograd/node.h"

namespace engine {

// The edge is valid and, when the running pass is an autograd.grad (or backward(inputs=...)),
// leads towards a requested input. True for any valid edge outside a backward pass.
bool edge_will_be_used(const Edge& edge);

// In a backward rule: whether input i's gradient is wanted by the running pass. Forward-time
// decisions (what to save) use node.should_compute_output instead, since any later pass may ask.
inline bool needs_input_grad(const Node& node, size_t i) {
  return node.should_compute_output(i) && edge_will_be_used(node.next_edges()[i]);
}

}  // namespace engine
