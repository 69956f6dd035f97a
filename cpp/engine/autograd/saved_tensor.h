#pragma once
// A tensor kept for backward, with the version it had when saved; unpacking checks that no in-place
// write happened since. A forward *output* is kept without its grad_fn (which is the very node that
// saves it), so saving an output creates no reference cycle; unpack rebuilds the link.
#include <memory>
#include <string>

#include "engine/core/tensor.h"

namespace engine {

class Node;

class SavedTensor {
 public:
  SavedTensor() = default;
  // `is_output`: t is an output of the node that saves it.
  SavedTensor(const Tensor& t, bool is_output);

  // `owner` is the node holding this SavedTensor (needed to rebuild a saved output's history).
  Tensor unpack(const std::shared_ptr<Node>& owner = nullptr) const;
  void reset();
  bool defined() const { return was_defined_; }
  bool released() const { return released_; }

 private:
  Tensor data_;
  uint32_t saved_version_ = 0;
  uint32_t output_nr_ = 0;
  bool is_output_ = false;
  bool was_defined_ = false;
  bool released_ = false;
  bool requires_grad_ = false;
  // The node that produced the saved tensor, for the version error message.
  std::weak_ptr<Node> producer_;
};

// PyTorch's message for reading saved tensors after backward freed them.
extern const char* const kSavedTensorsFreedMessage;

}  // namespace engine
