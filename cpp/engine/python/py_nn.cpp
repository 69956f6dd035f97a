// Convolution, pooling and sliding-window views: the native ops behind engine.nn.functional's
// conv*, *pool*, unfold / fold (engine/nn/_conv.py, _pooling.py) and Tensor.unfold.
#include <pybind11/stl.h>

#include "engine/core/error.h"
#include "engine/ops/linear.h"
#include "engine/ops/loss_nodes.h"
#include "engine/ops/masked_fill_take.h"
#include "engine/ops/ops.h"
#include "engine/python/bindings.h"

namespace engine::python {

void init_nn(py::module_& m) {
  m.def("linear", &ops::linear, py::arg("input"), py::arg("weight"), py::arg("bias") = py::none(),
        "F.linear: input @ weight.T + bias in one GEMM and one graph node.");
  m.def(
      "_record_addmm",
      [](const Tensor& out, const Tensor& self, const Tensor& mat1, const Tensor& mat2, double beta, double alpha) {
        ops::record_addmm(out, self, mat1, mat2, beta, alpha);
        return out;
      },
      py::arg("out"), py::arg("input"), py::arg("mat1"), py::arg("mat2"), py::arg("beta"), py::arg("alpha"),
      "Makes `out`, computed without recording, the output of addmm's AddmmBackward0 node.");
  m.def(
      "_record_loss",
      [](const Tensor& out, const std::string& kind, int64_t reduction, const Tensor& self, const Tensor& target,
         const std::optional<Tensor>& weight, const std::optional<Tensor>& pos_weight,
         const std::optional<Tensor>& total_weight, double beta, int64_t ignore_index) {
        ops::LossArgs args;
        if (kind == "mse") args.kind = ops::LossKind::Mse;
        else if (kind == "smooth_l1") args.kind = ops::LossKind::SmoothL1;
        else if (kind == "bce") args.kind = ops::LossKind::BinaryCrossEntropy;
        else if (kind == "bce_logits") args.kind = ops::LossKind::BinaryCrossEntropyWithLogits;
        else if (kind == "nll") args.kind = ops::LossKind::NllLoss;
        else throw ValueError("_record_loss(): unknown loss kind '" + kind + "'");
        args.reduction = reduction;
        args.beta = beta;
        args.ignore_index = ignore_index;
        ops::record_loss(out, args, self, target, weight, pos_weight, total_weight);
        return out;
      },
      py::arg("out"), py::arg("kind"), py::arg("reduction"), py::arg("input"), py::arg("target"),
      py::arg("weight") = py::none(), py::arg("pos_weight") = py::none(), py::arg("total_weight") = py::none(),
      py::arg("beta") = 1.0, py::arg("ignore_index") = -100,
      "Makes `out`, a loss computed without recording, the output of the loss's node (MseLossBackward0, "
      "SmoothL1LossBackward0, BinaryCrossEntropyBackward0, BinaryCrossEntropyWithLogitsBackward0, "
      "NllLossBackward0); kind: mse, smooth_l1, bce, bce_logits or nll; reduction: 0 none, 1 mean, 2 sum.");
  m.def(
      "_record_masked_fill",
      [](const Tensor& out, const Tensor& self, const Tensor& mask, const Tensor& value, bool tensor_value) {
        ops::record_masked_fill(out, self, mask, value, tensor_value);
        return out;
      },
      py::arg("out"), py::arg("input"), py::arg("mask"), py::arg("value"), py::arg("tensor_value"),
      "Makes `out`, masked_fill computed without recording, the output of MaskedFillBackward0, or of "
      "MaskedFillBackward1 for a value given as a 0-d tensor (tensor_value).");
  m.def(
      "_record_take",
      [](const Tensor& out, const Tensor& self, const Tensor& index, const Tensor& flat_positions) {
        ops::record_take(out, self, index, flat_positions);
        return out;
      },
      py::arg("out"), py::arg("input"), py::arg("index"), py::arg("flat_positions"),
      "Makes `out`, take computed without recording, the output of TakeBackward0; flat_positions: the "
      "non-negative row-major positions taken.");
  m.def("convolution", &ops::convolution, py::arg("input"), py::arg("weight"), py::arg("bias"), py::arg("stride"),
        py::arg("padding"), py::arg("dilation"), py::arg("transposed"), py::arg("output_padding"),
        py::arg("groups"), "torch.convolution: the N-d (transposed) convolution behind conv*d.");
  m.def(
      "_softmax", [](const Tensor& input, int64_t dim) { return ops::softmax(input, dim, false); },
      py::arg("input"), py::arg("dim"), "softmax along dim as one node (SoftmaxBackward0) that saves its result.");
  m.def(
      "_log_softmax", [](const Tensor& input, int64_t dim) { return ops::softmax(input, dim, true); },
      py::arg("input"), py::arg("dim"), "log_softmax along dim as one node (LogSoftmaxBackward0) that saves its result.");
  m.def("_im2col", &ops::im2col, py::arg("input"), py::arg("kernel_size"), py::arg("dilation"), py::arg("padding"),
        py::arg("stride"));
  m.def("_col2im", &ops::col2im, py::arg("input"), py::arg("output_size"), py::arg("kernel_size"),
        py::arg("dilation"), py::arg("padding"), py::arg("stride"));
  m.def("_max_pool", &ops::max_pool, py::arg("input"), py::arg("kernel_size"), py::arg("stride"), py::arg("padding"),
        py::arg("dilation"), py::arg("ceil_mode"));
  m.def("_adaptive_max_pool", &ops::adaptive_max_pool, py::arg("input"), py::arg("output_size"));
  m.def("_avg_pool", &ops::avg_pool, py::arg("input"), py::arg("kernel_size"), py::arg("stride"), py::arg("padding"),
        py::arg("ceil_mode"), py::arg("count_include_pad"), py::arg("divisor_override"));
  m.def("_adaptive_avg_pool", &ops::adaptive_avg_pool, py::arg("input"), py::arg("output_size"));
  m.attr("Tensor").attr("unfold") = py::cpp_function(
      [](const Tensor& t, int64_t dimension, int64_t size, int64_t step) {
        return ops::unfold_view(t, dimension, size, step);
      },
      py::name("unfold"), py::is_method(m.attr("Tensor")), py::arg("dimension"), py::arg("size"), py::arg("step"));
}

}  // namespace engine::python
