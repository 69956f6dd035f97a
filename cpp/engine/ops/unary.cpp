// Pointwise functions of one tensor.
#include "engine/core/error.h"
#include "engine/kernels/elementwise.h"
#include "engine/ops/node_util.h"
#include "engine/ops/ops.h"

namespace engine::ops {

using kernels::UnaryOp;

namespace {

// Floating functions of integer tensors compute in the default dtype, as PyTorch does.
Tensor unary_kernel(UnaryOp op, const Tensor& a, bool float_op) {
  DType dt = a.dtype();
  if (float_op && !is_floating(dt)) dt = default_dtype();
  Tensor in = a;
  if (dt != a.dtype()) {
    in = Tensor::empty(a.shape(), dt);
    kernels::copy(in, a);
  }
  Tensor out = Tensor::empty(a.shape(), dt);
  kernels::unary(op, out, in);
  return out;
}

// One node type per function: the rule reads the saved input or output.
struct UnaryBackward : Node {
  using Rule = Tensor (*)(const Tensor& grad, const Tensor& input, const Tensor& result);
  const char* node_name;
  Rule rule;
  SavedTensor input_, result_;
  UnaryBackward(const char* n, Rule r) : node_name(n), rule(r) {}
  std::string name() const override { return node_name; }
  variable_list apply(variable_list&& g) override {
    auto me = shared_from_this();
    return {rule(g[0], input_.unpack(me), result_.unpack(me))};
  }
  void release_variables() override {
    input_.reset();
    result_.reset();
  }
};

Tensor unary(UnaryOp op, const Tensor& a, bool float_op, const char* name, UnaryBackward::Rule rule,
             bool save_input, bool save_result) {
  Tensor out = unary_kernel(op, a, float_op);
  if (compute_requires_grad({&a})) {
    auto node = std::make_shared<UnaryBackward>(name, rule);
    node->mutable_next_edges() = collect_next_edges({&a});
    if (save_input) node->input_ = SavedTensor(a, false);
    set_history(out, node);
    if (save_result) node->result_ = SavedTensor(out, true);
  }
  return out;
}

}  // namespace

Tensor exp(const Tensor& a) {
  return unary(UnaryOp::Exp, a, true, "ExpBackward0", [](const Tensor& g, const Tensor&, const Tensor& y) { return g * y; },
               false, true);
}
Tensor log(const Tensor& a) {
  return unary(UnaryOp::Log, a, true, "LogBackward0", [](const Tensor& g, const Tensor& x, const Tensor&) { return g / x; },
               true, false);
}
Tensor sqrt(const Tensor& a) {
  return unary(UnaryOp::Sqrt, a, true, "SqrtBackward0",
               [](const Tensor& g, const Tensor&, const Tensor& y) { return g / (y * 2.0); }, false, true);
}
Tensor sin(const Tensor& a) {
  return unary(UnaryOp::Sin, a, true, "SinBackward0",
               [](const Tensor& g, const Tensor& x, const Tensor&) { return g * cos(x); }, true, false);
}
Tensor cos(const Tensor& a) {
  return unary(UnaryOp::Cos, a, true, "CosBackward0",
               [](const Tensor& g, const Tensor& x, const Tensor&) { return g * -sin(x); }, true, false);
}
Tensor tanh(const Tensor& a) {
  return unary(UnaryOp::Tanh, a, true, "TanhBackward0",
               [](const Tensor& g, const Tensor&, const Tensor& y) { return g * (1.0 - y * y); }, false, true);
}
Tensor sigmoid(const Tensor& a) {
  return unary(UnaryOp::Sigmoid, a, true, "SigmoidBackward0",
               [](const Tensor& g, const Tensor&, const Tensor& y) { return g * ((1.0 - y) * y); }, false, true);
}
Tensor relu(const Tensor& a) {
  ENGINE_CHECK(a.dtype() != DType::Bool, std::runtime_error, "Boolean inputs not supported for relu");
  return unary(UnaryOp::Relu, a, false, "ReluBackward0",
               [](const Tensor& g, const Tensor&, const Tensor& y) {
                 return g * gt(y, wrapped_scalar(0.0, DType::Int64));
               },
               false, true);
}
Tensor abs(const Tensor& a) {
  ENGINE_CHECK(a.dtype() != DType::Bool, NotImplementedError, "\"abs_cpu\" not implemented for 'Bool'");
  return unary(UnaryOp::Abs, a, false, "AbsBackward0",
               [](const Tensor& g, const Tensor& x, const Tensor&) { return g * sign(x); }, true, false);
}
Tensor sign(const Tensor& a) {
  return unary(UnaryOp::Sign, a, false, "SignBackward0",
               [](const Tensor& g, const Tensor&, const Tensor&) { return zeros(g.shape(), g.dtype()); }, false, false);
}

}  // namespace engine::ops
