// Autograd entry points: grad mode, Tensor.backward / autograd.grad, and graph introspection.
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include "engine/autograd/accumulate_grad.h"
#include "engine/autograd/engine.h"
#include "engine/autograd/grad_mode.h"
#include "engine/autograd/variable.h"
#include "engine/core/error.h"
#include "engine/ops/ops.h"
#include "engine/python/bindings.h"
#include "engine/python/py_function.h"

namespace engine::python {

py::object node_to_py(const std::shared_ptr<Node>& node) {
  if (!node) return py::none();
  if (auto* pn = dynamic_cast<PyNode*>(node.get())) return pn->ctx();
  return py::cast(node);
}

namespace {

std::string size_str(const Dims& d) {
  std::string s = "torch.Size([";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
  return s + "])";
}

// Shared by Tensor.backward and autograd.grad: `inputs` empty means accumulate into leaves.
py::object run_backward(const std::vector<Tensor>& outputs, const std::vector<py::object>& grad_outputs,
                        bool keep_graph, bool create_graph, const std::vector<Tensor>& inputs, bool allow_unused,
                        bool accumulate) {
  ENGINE_CHECK(outputs.size() == grad_outputs.size(), std::runtime_error, "grad requires one gradient per output, got ",
               grad_outputs.size(), " gradients for ", outputs.size(), " outputs");
  edge_list roots;
  variable_list grads;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const Tensor& out = outputs[i];
    ENGINE_CHECK(requires_grad(out), std::runtime_error, "element ", i,
                 " of tensors does not require grad and does not have a grad_fn");
    Tensor g;
    if (grad_outputs[i].is_none()) {
      ENGINE_CHECK(out.numel() == 1, std::runtime_error, "grad can be implicitly created only for scalar outputs");
      g = ops::ones(out.shape(), out.dtype());
    } else {
      g = grad_outputs[i].cast<Tensor>();
      ENGINE_CHECK(g.shape() == out.shape(), std::runtime_error, "Mismatch in shape: grad_output[", i,
                   "] has a shape of ", size_str(g.shape()), " and output[", i, "] has a shape of ",
                   size_str(out.shape()), ".");
    }
    roots.push_back(gradient_edge(out));
    grads.push_back(g);
  }
  BackwardOptions opts;
  opts.keep_graph = keep_graph;
  opts.create_graph = create_graph;
  for (size_t i = 0; i < inputs.size(); ++i) {
    ENGINE_CHECK(requires_grad(inputs[i]), std::runtime_error, "One of the differentiated Tensors does not require grad");
    opts.capture.push_back(gradient_edge(inputs[i]));
  }
  variable_list result;
  {
    py::gil_scoped_release nogil;
    result = engine::run_backward(roots, grads, opts);
  }
  if (accumulate) {
    // backward(inputs=...): accumulate only into the given tensors.
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (!result[i].defined()) continue;
      auto& m = ensure_autograd_meta(inputs[i]);
      Tensor g = create_graph ? result[i] : detach(result[i]);
      m.grad = m.grad.defined() ? ops::add(m.grad, g) : g;
    }
    return py::none();
  }
  py::tuple out(result.size());
  for (size_t i = 0; i < result.size(); ++i) {
    if (!result[i].defined()) {
      ENGINE_CHECK(allow_unused, std::runtime_error,
                   "One of the differentiated Tensors appears to not have been used in the graph. Set "
                   "allow_unused=True if this is the desired behavior.");
      out[i] = py::none();
    } else {
      out[i] = py::cast(create_graph ? result[i] : detach(result[i]));
    }
  }
  return std::move(out);
}

}  // namespace

void init_autograd(py::module_& m) {
  m.def("is_grad_enabled", [] { return GradMode::is_enabled(); });
  m.def("_set_grad_enabled", [](bool v) { GradMode::set_enabled(v); });
  m.def("_run_backward", &run_backward, py::arg("outputs"), py::arg("grad_outputs"), py::arg("keep_graph"),
        py::arg("create_graph"), py::arg("inputs"), py::arg("allow_unused"), py::arg("accumulate"));

  py::class_<Node, std::shared_ptr<Node>>(m, "Node")
      .def("name", &Node::name)
      .def_property_readonly("next_functions", [](const Node& n) {
        py::tuple out(n.next_edges().size());
        for (size_t i = 0; i < n.next_edges().size(); ++i) {
          const Edge& e = n.next_edges()[i];
          out[i] = py::make_tuple(node_to_py(e.function), e.input_nr);
        }
        return out;
      })
      .def_property_readonly("variable", [](const Node& n) -> py::object {
        if (auto* acc = dynamic_cast<const AccumulateGrad*>(&n)) return py::cast(acc->variable());
        throw py::attribute_error("'" + n.name() + "' object has no attribute 'variable'");
      })
      .def("__call__", [](const Node& n, py::args) {
        throw engine::TypeError("'" + n.name() + "' object is not callable");
      })
      .def("__repr__", [](py::handle self) {
        const Node& n = self.cast<const Node&>();
        char buf[32];
        std::snprintf(buf, sizeof buf, "%p", static_cast<const void*>(self.ptr()));
        return "<" + n.name() + " object at " + buf + ">";
      });
}

}  // namespace engine::python
