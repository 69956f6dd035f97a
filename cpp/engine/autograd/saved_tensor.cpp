#include "engine/autograd/saved_tensor.h"

#include "engine/autograd/node.h"
#include "engine/autograd/variable.h"
#include "engine/core/error.h"
#include "engine/core/fast_tls.h"

namespace engine {

const char* const kSavedTensorsFreedMessage =
    "Trying to backward through the graph a second time (or directly access saved tensors after they have "
    "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
    "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or "
    "if you need to access saved tensors after calling backward.";

namespace {
ENGINE_FAST_TLS thread_local bool t_hooks_active = false;
}  // namespace

bool saved_tensor_hooks_active() { return t_hooks_active; }
void set_saved_tensor_hooks_active(bool active) { t_hooks_active = active; }
std::shared_ptr<PackedTensor> (*pack_saved_tensor)(const Tensor& t) = nullptr;

SavedTensor::SavedTensor(const Tensor& t, bool is_output) {
  if (!t.defined()) return;
  ENGINE_CHECK(!t.get()->is_inference, std::runtime_error,
               "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference "
               "mode in computation tracked by autograd. To work around this, you can make a clone to get a normal "
               "tensor and use it in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`.");
  was_defined_ = true;
  saved_version_ = t.version();
  is_output_ = is_output;
  requires_grad_ = requires_grad(t);
  output_nr_ = engine::output_nr(t);
  producer_ = grad_fn(t);
  had_history_ = static_cast<bool>(producer_.lock());
  // A leaf that requires grad: its accumulator, so that a value read back through an unpack hook
  // (a new tensor) still sends its gradient to the leaf, as in PyTorch.
  if (!had_history_ && requires_grad_ && !is_output) producer_ = gradient_edge(t).function;
  // An output is stored as a history-free alias; anything else is kept as the tensor itself, so
  // unpacking gives back the very object the user saved.
  data_ = is_output ? detach(t) : t;
  // A Python number the op wrapped into a tensor is not the user's: hooks never see it (PyTorch).
  if (t_hooks_active && pack_saved_tensor && !t.is_wrapped_number()) set_packed(pack_saved_tensor(t));
}

namespace {
// "ExpBackward0" -> "Exp", "CustomBackward" -> "Custom"; other names as they are.
std::string op_name_of(std::string name) {
  size_t end = name.size();
  while (end > 0 && name[end - 1] >= '0' && name[end - 1] <= '9') --end;
  const std::string suffix = "Backward";
  if (end >= suffix.size() && name.compare(end - suffix.size(), suffix.size(), suffix) == 0 && end > suffix.size()) {
    return name.substr(0, end - suffix.size());
  }
  return name;
}
}  // namespace

void check_pack_hook_kept(const Tensor& t, uint32_t version_before) {
  ENGINE_CHECK(t.version() == version_before, std::runtime_error,
               "A saved tensor pack hook is modifying its input in place. Tensors provided as input to pack hook "
               "cannot be modified by in-place operations as this can lead to unexpected side-effects. Please "
               "open an issue if you need to perform in-place operations on the input to a pack hook.");
}

void SavedTensor::set_packed(std::shared_ptr<PackedTensor> packed) {
  if (!packed) return;
  packed_ = std::move(packed);
  data_ = Tensor();
}

Tensor SavedTensor::unpack(const std::shared_ptr<Node>& owner) const {
  if (!was_defined_) return Tensor();
  ENGINE_CHECK(!released_, std::runtime_error, kSavedTensorsFreedMessage);
  if (packed_) {
    // Whatever the unpack hook returns stands for the saved tensor (no version check: the pack hook
    // may have copied it); it gets the saved tensor's place in the graph.
    Tensor t = packed_->unpack();
    if (!t.defined() || (!is_output_ && !requires_grad_)) return t;
    Tensor out = detach(t);
    auto& m = ensure_autograd_meta(out);
    std::shared_ptr<Node> fn = is_output_ ? owner : producer_.lock();
    if (fn && !had_history_ && !is_output_) {
      // A saved leaf: a leaf again, whose gradient goes to the saved leaf's accumulator.
      m.requires_grad = true;
      m.grad_accumulator = fn;
    } else if (fn) {
      m.grad_fn = std::move(fn);
      m.output_nr = output_nr_;
    } else if (requires_grad_) {
      if (!is_output_ && t.get() && requires_grad(t) && is_leaf(t)) return t;
      m.requires_grad = true;
    }
    return out;
  }
  const uint32_t current = data_.version();
  if (current != saved_version_) {
    std::string msg = str_cat("one of the variables needed for gradient computation has been modified by an ",
                              "inplace operation: [", legacy_type_name(data_.dtype()), " ", dims_str(data_.shape()),
                              "]");
    // As PyTorch 2.13: a saved input is named by the op that wrote it last (its current history),
    // a saved output by the op that saved it; either by the op's name, without "Backward0".
    std::shared_ptr<Node> producer = is_output_ ? owner : grad_fn(data_);
    if (!producer && !is_output_ && had_history_) producer = producer_.lock();
    const uint32_t nr = is_output_ ? output_nr_ : engine::output_nr(data_);
    if (producer) msg += str_cat(", which is output ", nr, " of ", op_name_of(producer->producer_name()), ",");
    msg += str_cat(" is at version ", current, "; expected version ", saved_version_,
                   " instead. Hint: enable anomaly detection to find the operation that failed to compute its "
                   "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).");
    throw std::runtime_error(msg);
  }
  if (!is_output_) {
    ENGINE_CHECK(!had_history_ || grad_fn(data_), std::runtime_error,
                 "Trying to use a saved tensor that has been detached in-place, i.e. with .detach_().This is not "
                 "supported, please use out-of-place `.detach()` instead");
    return data_;
  }
  // Rebuild the output: same data, history pointing at the node that saved it.
  Tensor out = detach(data_);
  if (owner) {
    auto& m = ensure_autograd_meta(out);
    m.grad_fn = owner;
    m.output_nr = output_nr_;
  } else if (requires_grad_) {
    ensure_autograd_meta(out).requires_grad = true;
  }
  return out;
}

void SavedTensor::reset() {
  data_ = Tensor();
  packed_.reset();
  released_ = true;
}

}  // namespace engine
