#pragma once
// A tensor kept for backward, with the version it had when saved; unpacking checks that no in-place
// write happened since. A forward *output* is kept without its grad_fn (which is the very node that
// saves it), so saving an output creates no reference cycle; unpack rebuilds the link.
#include <memory>
#include <string>

#include "engine/core/tensor.h"

namespace engine {

class Node;

// A saved tensor handed to saved_tensors_hooks' pack hook: `unpack` calls the matching unpack hook.
struct PackedTensor {
  virtual ~PackedTensor() = default;
  virtual Tensor unpack() const = 0;
};

// Set by the Python layer. `saved_tensor_hooks_active` says (cheaply) whether this thread has
// saved_tensors_hooks in force; if so `pack_saved_tensor` packs with the innermost pair.
bool saved_tensor_hooks_active();
void set_saved_tensor_hooks_active(bool active);
extern std::shared_ptr<PackedTensor> (*pack_saved_tensor)(const Tensor& t);

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
  // Replaces the stored tensor by what `packed` holds (grad_fn._raw_saved_x.register_hooks).
  void set_packed(std::shared_ptr<PackedTensor> packed);
  bool has_hooks() const { return static_cast<bool>(packed_); }
  const std::shared_ptr<PackedTensor>& packed() const { return packed_; }
  // The stored tensor itself (for packing it later); undefined once released or packed.
  const Tensor& data() const { return data_; }

 private:
  Tensor data_;
  uint32_t saved_version_ = 0;
  uint32_t output_nr_ = 0;
  bool is_output_ = false;
  bool was_defined_ = false;
  bool released_ = false;
  bool requires_grad_ = false;
  bool had_history_ = false;  // had a grad_fn when saved (detach_() since is an error on unpack)
  // The node that produced the saved tensor, for the version error message.
  std::weak_ptr<Node> producer_;
  // With saved_tensors_hooks: what the pack hook returned (data_ is then empty).
  std::shared_ptr<PackedTensor> packed_;
};

// Raises PyTorch's error when a pack hook wrote into `t` (its version moved from `version_before`).
void check_pack_hook_kept(const Tensor& t, uint32_t version_before);

// PyTorch's message for reading saved tensors after backward freed them.
extern const char* const kSavedTensorsFreedMessage;

}  // namespace engine
