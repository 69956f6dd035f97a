// The losses' nodes (loss_nodes.h). Each backward is PyTorch's formula (derivatives.yaml and its
// *_backward kernels) written with differentiable ops: grad * dloss/dself, then the mean's 1/N.
#include "engine/ops/loss_nodes.h"

#include "engine/autograd/node.h"
#include "engine/autograd/saved_tensor.h"
#include "engine/autograd/variable.h"
#include "engine/core/error.h"
#include "engine/ops/activation.h"
#include "engine/ops/node_util.h"
#include "engine/ops/ops.h"

namespace engine::ops {

namespace {

constexpr int64_t kMean = 1;
// PyTorch's binary_cross_entropy clamps x (1 - x) at 1e-12 (as a float) in its gradient.
constexpr double kBceEps = static_cast<double>(1e-12f);

Tensor scalar_of(double v) { return wrapped_scalar(v, DType::Float64); }

struct LossBackward : Node {
  LossArgs args;
  int64_t count = 1;  // elements the loss averages over (reduction='mean')
  SavedTensor self_, target_, weight_, pos_weight_, total_weight_;

  std::string name() const override {
    switch (args.kind) {
      case LossKind::Mse: return "MseLossBackward0";
      case LossKind::SmoothL1: return "SmoothL1LossBackward0";
      case LossKind::BinaryCrossEntropy: return "BinaryCrossEntropyBackward0";
      case LossKind::BinaryCrossEntropyWithLogits: return "BinaryCrossEntropyWithLogitsBackward0";
      case LossKind::NllLoss: return "NllLossBackward0";
    }
    return "";
  }

  void release_variables() override {
    self_.reset();
    target_.reset();
    weight_.reset();
    pos_weight_.reset();
    total_weight_.reset();
  }

  void visit_saved(const SavedVisitor& visit) override {
    if (args.kind == LossKind::BinaryCrossEntropyWithLogits) visit("pos_weight", pos_weight_);
    visit("self", self_);
    visit("target", target_);
    if (args.kind == LossKind::NllLoss) visit("total_weight", total_weight_);
    if (args.kind == LossKind::BinaryCrossEntropy || args.kind == LossKind::BinaryCrossEntropyWithLogits ||
        args.kind == LossKind::NllLoss) {
      visit("weight", weight_);
    }
  }

  void visit_saved_values(const SavedValueVisitor& visit) const override {
    if (args.kind == LossKind::SmoothL1) visit("beta", args.beta);
    if (args.kind == LossKind::NllLoss) visit("ignore_index", args.ignore_index);
    visit("reduction", args.reduction);
  }

  // The incoming gradient scaled for the mean: 1/N for the elementwise losses.
  Tensor scaled(const Tensor& g) const { return args.reduction == kMean ? g * (1.0 / static_cast<double>(count)) : g; }

  variable_list apply(variable_list&& grads) override {
    auto me = shared_from_this();
    const Tensor& g = grads[0];
    const Tensor x = self_.unpack(me), t = target_.unpack(me);
    const Tensor w = weight_.defined() ? weight_.unpack(me) : Tensor();
    variable_list out(num_outputs());
    switch (args.kind) {
      case LossKind::Mse: {
        Tensor gx = (x - t) * scaled(g) * 2.0;
        if (should_compute_output(0)) out[0] = gx;
        if (should_compute_output(1)) out[1] = -gx;
        break;
      }
      case LossKind::SmoothL1: {
        const Tensor d = x - t;
        // |d| >= beta: its sign, else d / beta (PyTorch's smooth_l1_loss_backward; a NaN
        // difference takes the second branch and passes the NaN on).
        Tensor gx = where(ge(abs(d), scalar_of(args.beta)), sign(d), d * (1.0 / args.beta)) * scaled(g);
        if (should_compute_output(0)) out[0] = gx;
        if (should_compute_output(1)) out[1] = -gx;
        break;
      }
      case LossKind::BinaryCrossEntropy: {
        Tensor gs = w.defined() ? scaled(g) * w : scaled(g);
        if (should_compute_output(0)) out[0] = gs * (x - t) / clamp_min((1.0 - x) * x, scalar_of(kBceEps));
        if (should_compute_output(1)) out[1] = gs * (log1p(-x) - log(x));
        break;
      }
      case LossKind::BinaryCrossEntropyWithLogits: {
        Tensor gs = w.defined() ? scaled(g) * w : scaled(g);
        const Tensor pw = pos_weight_.defined() ? pos_weight_.unpack(me) : Tensor();
        if (should_compute_output(0)) {
          if (pw.defined()) {
            const Tensor pt = pw * t;
            out[0] = gs * ((pt + (1.0 - t)) * sigmoid(x) - pt);
          } else {
            out[0] = gs * (sigmoid(x) - t);
          }
        }
        if (should_compute_output(1)) {
          out[1] = pw.defined() ? gs * (log_sigmoid(-x) - log_sigmoid(x) * pw) : gs * -x;
        }
        break;
      }
      case LossKind::NllLoss: {
        if (!should_compute_output(0)) break;
        // -weight[target] * grad at each counted target's class, zero elsewhere; the mean divides
        // by the total weight.
        const int64_t class_dim = x.dim() == 1 ? 0 : 1;
        const Tensor valid = ne(t, wrapped_scalar(static_cast<double>(args.ignore_index), DType::Int64));
        const Tensor safe = where(valid, t, wrapped_scalar(0.0, DType::Int64));
        Tensor wt = to_dtype(valid, g.dtype());
        if (w.defined()) wt = wt * reshape(index_select(w, 0, reshape(safe, Dims{-1})), safe.shape());
        Tensor gt = args.reduction == kMean ? g / total_weight_.unpack(me) : g;
        Tensor contrib = -(wt * gt);
        out[0] = scatter(zeros(x.shape(), g.dtype()), class_dim, unsqueeze(safe, class_dim),
                         unsqueeze(contrib, class_dim), false);
        break;
      }
    }
    return out;
  }
};

SavedTensor saved_optional(const std::optional<Tensor>& t) {
  return t && t->defined() ? SavedTensor(*t, false) : SavedTensor();
}

}  // namespace

void record_loss(const Tensor& out, const LossArgs& args, const Tensor& self, const Tensor& target,
                 const std::optional<Tensor>& weight, const std::optional<Tensor>& pos_weight,
                 const std::optional<Tensor>& total_weight) {
  const bool nll = args.kind == LossKind::NllLoss;
  if (nll ? !compute_requires_grad({&self}) : !compute_requires_grad({&self, &target})) return;
  check_unrecorded(out, "_record_loss");
  auto node = std::make_shared<LossBackward>();
  node->mutable_next_edges() = nll ? collect_next_edges({&self}) : collect_next_edges({&self, &target});
  node->args = args;
  if (!nll) {  // nll_loss's mean divides by the total weight instead
    Dims shape = broadcast_shapes(self.shape(), target.shape());
    if (weight && weight->defined()) shape = broadcast_shapes(shape, weight->shape());
    node->count = numel_of(shape);
  }
  node->self_ = SavedTensor(self, false);
  node->target_ = SavedTensor(target, false);
  node->weight_ = saved_optional(weight);
  node->pos_weight_ = saved_optional(pos_weight);
  node->total_weight_ = saved_optional(total_weight);
  set_history(out, node);
}

}  // namespace engine::ops
