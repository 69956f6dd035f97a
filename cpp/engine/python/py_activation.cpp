// The activation functions behind engine.nn.functional (engine/nn/_activations.py), one native
// node each: numbers are taken as given, so the node shows an int argument as an int (as PyTorch).
#include <pybind11/stl.h>

#include "engine/autograd/variable.h"
#include "engine/ops/activation.h"
#include "engine/ops/ops.h"
#include "engine/python/bindings.h"

namespace engine::python {

namespace {

ops::GivenNumber given_number(py::handle h, const char* fn, const char* arg) {
  // Any Python number (or object with __float__ / __index__); an int stays an int.
  const bool is_int = PyLong_Check(h.ptr()) || (!PyFloat_Check(h.ptr()) && PyIndex_Check(h.ptr()));
  const double v = PyFloat_AsDouble(h.ptr());
  if (v == -1.0 && PyErr_Occurred()) {
    PyErr_Clear();
    throw py::type_error(std::string(fn) + "(): argument '" + arg + "' must be Number, not " +
                         std::string(py::str(py::type::handle_of(h).attr("__name__"))));
  }
  return {v, is_int};
}

}  // namespace

void init_activation(py::module_& m) {
  m.def("gelu", &ops::gelu, py::arg("input"), py::arg("approximate") = "none",
        "F.gelu as one node (GeluBackward0).");
  m.def("silu", &ops::silu, py::arg("input"), "F.silu as one node (SiluBackward0).");
  m.def("mish", &ops::mish, py::arg("input"), "F.mish as one node (MishBackward0).");
  m.def("hardsigmoid", &ops::hardsigmoid, py::arg("input"), "F.hardsigmoid as one node (HardsigmoidBackward0).");
  m.def("hardswish", &ops::hardswish, py::arg("input"), "F.hardswish as one node (HardswishBackward0).");
  m.def("log_sigmoid", &ops::log_sigmoid, py::arg("input"), "F.logsigmoid as one node (LogSigmoidBackward0).");
  m.def(
      "elu",
      [](const Tensor& x, py::handle alpha, py::handle scale, py::handle input_scale) {
        return ops::elu(x, given_number(alpha, "elu", "alpha"), given_number(scale, "elu", "scale"),
                        given_number(input_scale, "elu", "input_scale"));
      },
      py::arg("input"), py::arg("alpha") = 1.0, py::arg("scale") = 1, py::arg("input_scale") = 1,
      "F.elu / selu as one node (EluBackward0).");
  m.def(
      "elu_",
      [](Tensor x, py::handle alpha, py::handle scale, py::handle input_scale) {
        return ops::elu_(x, given_number(alpha, "elu_", "alpha"), given_number(scale, "elu_", "scale"),
                         given_number(input_scale, "elu_", "input_scale"));
      },
      py::arg("input"), py::arg("alpha") = 1.0, py::arg("scale") = 1, py::arg("input_scale") = 1,
      "In-place elu: one node that saves the result (EluBackward1).");
  m.def(
      "leaky_relu",
      [](const Tensor& x, py::handle slope) {
        return ops::leaky_relu(x, given_number(slope, "leaky_relu", "negative_slope"));
      },
      py::arg("input"), py::arg("negative_slope") = 0.01, "F.leaky_relu as one node (LeakyReluBackward0).");
  m.def(
      "leaky_relu_",
      [](Tensor x, py::handle slope) {
        return ops::leaky_relu_(x, given_number(slope, "leaky_relu_", "negative_slope"));
      },
      py::arg("input"), py::arg("negative_slope") = 0.01,
      "In-place leaky_relu: one node that saves the result (LeakyReluBackward1).");
  m.def(
      "softplus",
      [](const Tensor& x, py::handle beta, py::handle threshold) {
        return ops::softplus(x, given_number(beta, "softplus", "beta"), given_number(threshold, "softplus", "threshold"));
      },
      py::arg("input"), py::arg("beta") = 1, py::arg("threshold") = 20, "F.softplus as one node (SoftplusBackward0).");
  m.def(
      "hardtanh",
      [](const Tensor& x, py::handle lo, py::handle hi) {
        return ops::hardtanh(x, given_number(lo, "hardtanh", "min_val"), given_number(hi, "hardtanh", "max_val"));
      },
      py::arg("input"), py::arg("min_val") = -1.0, py::arg("max_val") = 1.0,
      "F.hardtanh of a floating tensor as one node (HardtanhBackward0).");
  m.def(
      "hardtanh_",
      [](Tensor x, py::handle lo, py::handle hi) {
        return ops::hardtanh_(x, given_number(lo, "hardtanh_", "min_val"), given_number(hi, "hardtanh_", "max_val"));
      },
      py::arg("input"), py::arg("min_val") = -1.0, py::arg("max_val") = 1.0,
      "In-place hardtanh of a floating tensor: one node (HardtanhBackward0).");
  m.def(
      "threshold",
      [](const Tensor& x, py::handle threshold, double value) {
        const ops::GivenNumber t = given_number(threshold, "threshold", "threshold");
        Tensor out = ops::threshold(x, t.value, value);
        // The node shows the threshold as given (an int or a bool stays one), as PyTorch's.
        if (const auto& fn = grad_fn(out)) {
          fn->saved_values.set("threshold", PyBool_Check(threshold.ptr()) ? SavedValue(t.value != 0.0) : t.saved());
        }
        return out;
      },
      py::arg("input"), py::arg("threshold"), py::arg("value"), "F.threshold as one node (ThresholdBackward0).");
  m.def("silu_", [](Tensor x) { return ops::silu_(x); }, py::arg("input"), "In-place silu: one node (SiluBackward0).");
}

}  // namespace engine::python
