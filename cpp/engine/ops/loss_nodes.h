#pragma once
// The losses of nn.functional as one node each, with PyTorch's names and saved attributes
// (MseLossBackward0, SmoothL1LossBackward0, BinaryCrossEntropyBackward0,
// BinaryCrossEntropyWithLogitsBackward0, NllLossBackward0). The loss value is computed by the
// caller without history (engine/nn/functional.py, which keeps PyTorch's argument checks and
// messages in one place); the node is then attached to it. Its backward is written with
// differentiable ops, so second derivatives go through it as through PyTorch's.
#include <optional>

#include "engine/core/tensor.h"

namespace engine::ops {

enum class LossKind : uint8_t { Mse, SmoothL1, BinaryCrossEntropy, BinaryCrossEntropyWithLogits, NllLoss };

// reduction: 0 none, 1 mean, 2 sum (PyTorch's enum, as its nodes show it).
struct LossArgs {
  LossKind kind = LossKind::Mse;
  int64_t reduction = 1;
  double beta = 1.0;          // smooth_l1
  int64_t ignore_index = -100;  // nll_loss
};

// Attaches the loss's node to `out` (the loss computed without history) when `self` or `target`
// records. nll_loss: `target` is the class index tensor, `total_weight` the summed weight of the
// counted targets; its node has one input (self), as PyTorch's.
void record_loss(const Tensor& out, const LossArgs& args, const Tensor& self, const Tensor& target,
                 const std::optional<Tensor>& weight, const std::optional<Tensor>& pos_weight,
                 const std::optional<Tensor>& total_weight);

}  // namespace engine::ops
