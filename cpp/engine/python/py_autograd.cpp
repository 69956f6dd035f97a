// Autograd entry points: grad mode, Tensor.backward / autograd.grad, and graph introspection.
#include <algorithm>

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
#include "engine/python/py_method_entry.h"
#include "engine/python/py_transform_dispatch.h"

namespace engine::python {

py::object node_to_py(const std::shared_ptr<Node>& node) {
  if (!node) return py::none();
  if (auto* pn = dynamic_cast<PyNode*>(node.get())) return pn->ctx();
  return builtin_node_to_py(node);
}

namespace {

std::string size_str(const Dims& d) {
  std::string s = "torch.Size([";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? ", " : "") + std::to_string(d[i]);
  return s + "])";
}

// Releases the GIL for its scope (the pass takes it back wherever it calls Python), through
// CPython directly: pybind11's gil_scoped_release also looks up its internals.
class GilRelease {
 public:
  GilRelease() : state_(PyEval_SaveThread()) {}
  ~GilRelease() { PyEval_RestoreThread(state_); }
  GilRelease(const GilRelease&) = delete;
  GilRelease& operator=(const GilRelease&) = delete;

 private:
  PyThreadState* state_;
};

// The backward pass itself, from the Python side: roots[i] receives grads[i].
variable_list run_pass(const Edge* roots, const Tensor* grads, size_t n, const BackwardOptions& opts) {
  // As in PyTorch, saved_tensors_hooks entered or left by code that runs inside the backward pass
  // (a hook, an unpack hook) do not outlive it: the stack is put back when the pass ends.
  using HookStack = std::vector<std::pair<py::object, py::object>>;
  struct RestoreHooks {
    HookStack& stack;
    HookStack before;
    ~RestoreHooks() {
      const bool same = stack.size() == before.size() &&
                        std::equal(stack.begin(), stack.end(), before.begin(), [](const auto& a, const auto& b) {
                          return a.first.ptr() == b.first.ptr() && a.second.ptr() == b.second.ptr();
                        });
      if (same) return;
      stack = std::move(before);
      set_saved_tensor_hooks_active(!stack.empty());
    }
  } restore{saved_tensors_hooks_stack(), saved_tensors_hooks_stack()};
  GilRelease nogil;
  return engine::run_backward(roots, grads, n, opts);
}

// `out.backward()`, no argument: the implicit gradient of a one-element output, into the leaves.
// The same checks, in the same order, as run_backward below.
void backward_of_scalar(const Tensor& out) {
  ENGINE_CHECK(requires_grad(out), std::runtime_error, "element ", 0,
               " of tensors does not require grad and does not have a grad_fn");
  const Edge root = gradient_edge(out);
  ENGINE_CHECK(numel_of(out.shape()) == 1, std::runtime_error,
               "grad can be implicitly created only for scalar outputs");
  const Tensor grad = ops::ones(out.shape(), out.dtype());
  run_pass(&root, &grad, 1, BackwardOptions());
}

// Shared by Tensor.backward and autograd.grad: `inputs` empty means accumulate into leaves.
py::object run_backward(const std::vector<py::object>& outputs, const std::vector<py::object>& grad_outputs,
                        bool keep_graph, bool create_graph, const std::vector<py::object>& inputs, bool allow_unused,
                        bool accumulate) {
  ENGINE_CHECK(outputs.size() == grad_outputs.size(), std::runtime_error, "grad requires one gradient per output, got ",
               grad_outputs.size(), " gradients for ", outputs.size(), " outputs");
  edge_list roots;
  variable_list grads;
  for (size_t i = 0; i < outputs.size(); ++i) {
    // An output is a tensor or a GradientEdge (a node's input slot, whose shape the node records).
    Edge root;
    Dims shape;
    DType dtype;
    if (is_tensor(outputs[i])) {
      const Tensor out = outputs[i].cast<Tensor>();
      ENGINE_CHECK(requires_grad(out), std::runtime_error, "element ", i,
                   " of tensors does not require grad and does not have a grad_fn");
      root = gradient_edge(out);
      shape = out.shape();
      dtype = out.dtype();
    } else {
      root = edge_from_py(outputs[i]);
      ENGINE_CHECK(root.is_valid() && root.input_nr < root.function->input_metadata().size(), std::runtime_error,
                   "element ", i, " of tensors does not require grad and does not have a grad_fn");
      const InputMetadata& m = root.function->input_metadata()[root.input_nr];
      shape = m.shape;
      dtype = m.dtype;
    }
    Tensor g;
    if (grad_outputs[i].is_none()) {
      ENGINE_CHECK(numel_of(shape) == 1, std::runtime_error,
                   "grad can be implicitly created only for scalar outputs");
      g = ops::ones(shape, dtype);
    } else {
      ENGINE_CHECK(is_tensor(grad_outputs[i]), engine::TypeError,
                   "gradients can be either Tensors or None, but got ", type_name(grad_outputs[i]));
      g = grad_outputs[i].cast<Tensor>();
      ENGINE_CHECK(g.shape() == shape, std::runtime_error, "Mismatch in shape: grad_output[", i,
                   "] has a shape of ", size_str(g.shape()), " and output[", i, "] has a shape of ",
                   size_str(shape), ".");
    }
    roots.push_back(std::move(root));
    grads.push_back(g);
  }
  BackwardOptions opts;
  opts.keep_graph = keep_graph;
  opts.create_graph = create_graph;
  // `inputs` may hold tensors and GradientEdges (torch.autograd.graph.get_gradient_edge).
  for (const py::object& in : inputs) opts.capture.push_back(edge_from_py(in));
  opts.accumulate = accumulate && !inputs.empty();
  variable_list result = run_pass(roots.data(), grads.data(), roots.size(), opts);
  if (accumulate) {
    // backward(inputs=...): accumulate only into the given tensors.
    // (A leaf's own AccumulateGrad has run; the others' gradients were captured.)
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (!result[i].defined() || !is_tensor(inputs[i])) continue;
      auto& m = ensure_autograd_meta(inputs[i].cast<Tensor>());
      Tensor g = create_graph ? result[i] : detach(result[i]);
      std::lock_guard<std::mutex> lock(grad_accumulation_mutex());
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


py::tuple to_py_grads(const variable_list& grads) {
  py::tuple out(grads.size());
  for (size_t i = 0; i < grads.size(); ++i) out[i] = grads[i].defined() ? py::cast(grads[i]) : py::none();
  return out;
}

// A hook's answer: None keeps the gradients, otherwise a sequence replaces them.
// A hook's replacement for a gradient must look like the gradient it replaces (PyTorch's
// check_single_result): anything else would reach the next node as a wrongly shaped input.
Tensor checked_hook_result(py::handle r, const Tensor& value, const char* hook) {
  ENGINE_CHECK(is_tensor(r), engine::TypeError, "hook '", hook, "' returned ", type_name(r),
               ", expected a Tensor or None");
  Tensor t = r.cast<Tensor>();
  if (!value.defined()) return t;
  ENGINE_CHECK(t.dtype() == value.dtype(), std::runtime_error, "hook '", hook,
               "' has changed the type of value (was ", legacy_type_name(value.dtype()), " got ",
               legacy_type_name(t.dtype()), ")");
  ENGINE_CHECK(t.shape() == value.shape(), std::runtime_error, "hook '", hook, "' has changed the size of value");
  return t;
}

variable_list from_py_grads(const py::object& r, const variable_list& values, const char* what) {
  if (r.is_none()) return {};
  ENGINE_CHECK(is_tensor(r) || PyTuple_Check(r.ptr()) || PyList_Check(r.ptr()), engine::TypeError, "hook '", what,
               "' returned ", type_name(r), ", expected a tuple of Tensors or None");
  py::tuple t = is_tensor(r) ? py::make_tuple(r) : py::tuple(r);
  ENGINE_CHECK(t.size() == values.size(), std::runtime_error, "hook '", what,
               "' has returned an incorrect number of values (got ", t.size(), ", but expected ", values.size(), ")");
  variable_list out(t.size());
  for (size_t i = 0; i < t.size(); ++i) {
    if (!t[i].is_none()) out[i] = checked_hook_result(t[i], values[i], what);
  }
  return out;
}

std::string hook_name(const py::object& fn) {
  return py::str(py::getattr(fn, "__name__", py::str("<hook>")));
}

// The node a Python object stands for (a built-in Node or a custom Function's ctx), and a way to
// find it again later that does not keep it alive (for RemovableHandle.remove()).
std::pair<std::shared_ptr<Node>, std::function<std::shared_ptr<Node>()>> node_and_locator(py::handle self) {
  if (py::isinstance<FunctionCtx>(self)) {
    auto n = share_node(self.cast<FunctionCtx&>());
    ENGINE_CHECK(n, std::runtime_error, "cannot register a hook on a Function that recorded no graph node");
    auto weak = std::make_shared<PyFn>(py::weakref(self));
    return {n, [weak]() -> std::shared_ptr<Node> {
              py::object o = weak->fn();
              return o.is_none() ? nullptr : share_node(o.cast<FunctionCtx&>());
            }};
  }
  ENGINE_CHECK(py::isinstance<Node>(self), engine::TypeError, "register_hook(): expected a graph node (a tensor's "
               "grad_fn), got ", type_name(self));
  auto n = self.cast<std::shared_ptr<Node>>();
  ENGINE_CHECK(n, engine::TypeError, "register_hook(): expected a graph node, got None");
  std::weak_ptr<Node> weak = n;
  return {n, [weak]() { return weak.lock(); }};
}

py::object make_handle(std::function<void()> remove) {
  return py::module_::import("engine.utils.hooks").attr("RemovableHandle")(py::cpp_function(std::move(remove)));
}

py::object register_node_hook(py::handle self, py::object fn, bool pre) {
  // Like PyTorch, a node takes any object as its hook: one that cannot be called fails with
  // Python's own TypeError when backward reaches it.
  auto [node, locate] = node_and_locator(self);
  auto f = std::make_shared<PyFn>(fn);
  note_python_hook(*node, f);
  size_t index;
  std::unique_lock<std::mutex> lock(hooks_mutex());
  node->mark_hooked();
  if (pre) {
    index = node->pre_hooks().size();
    node->pre_hooks().push_back([f](const variable_list& grads) {
      py::gil_scoped_acquire gil;
      return from_py_grads(f->fn(to_py_grads(grads)), grads, hook_name(f->fn).c_str());
    });
  } else {
    index = node->post_hooks().size();
    node->post_hooks().push_back([f](const variable_list& grad_inputs, const variable_list& grad_outputs) {
      py::gil_scoped_acquire gil;
      return from_py_grads(f->fn(to_py_grads(grad_inputs), to_py_grads(grad_outputs)), grad_inputs,
                           hook_name(f->fn).c_str());
    });
  }
  lock.unlock();
  return make_handle([locate = locate, index, pre] {
    auto n = locate();
    if (!n) return;
    std::lock_guard<std::mutex> lock(hooks_mutex());
    if (pre && index < n->pre_hooks().size()) n->pre_hooks()[index] = nullptr;
    if (!pre && index < n->post_hooks().size()) n->post_hooks()[index] = nullptr;
  });
}

Node::TensorHook tensor_hook(const std::shared_ptr<PyFn>& f) {
  return [f](const Tensor& g) -> Tensor {
    py::gil_scoped_acquire gil;
    // An output that received no gradient is shown to the hook as None, as in PyTorch.
    py::object r = f->fn(g.defined() ? py::cast(g) : py::none());
    if (r.is_none() || !g.defined()) return Tensor();
    return checked_hook_result(r, g, hook_name(f->fn).c_str());
  };
}

py::object tensor_register_hook(const Tensor& t, py::object fn) {
  ENGINE_CHECK(requires_grad(t), std::runtime_error, "cannot register a hook on a tensor that doesn't require gradient");
  ENGINE_CHECK(PyCallable_Check(fn.ptr()), engine::TypeError, "register_hook(): the hook must be callable, not ",
               type_name(fn));
  auto f = std::make_shared<PyFn>(std::move(fn));
  if (is_leaf(t)) {
    auto hook = tensor_hook(f);
    auto& hooks = ensure_autograd_meta(t).hooks;
    size_t index;
    {
      std::lock_guard<std::mutex> lock(hooks_mutex());
      index = hooks.size();
      hooks.push_back(std::move(hook));
    }
    std::weak_ptr<TensorImpl> weak = t.impl();
    return make_handle([weak, index] {
      if (auto impl = weak.lock()) {
        auto& hooks = ensure_autograd_meta(Tensor(impl)).hooks;
        std::lock_guard<std::mutex> lock(hooks_mutex());
        if (index < hooks.size()) hooks[index] = nullptr;
      }
    });
  }
  // A hook on a non-leaf is a pre-hook of its grad_fn for this output, as in PyTorch.
  auto [node, locate] = node_and_locator(node_to_py(grad_fn(t)));
  note_python_hook(*node, f);
  auto hook = tensor_hook(f);
  size_t index;
  {
    std::lock_guard<std::mutex> lock(hooks_mutex());
    node->mark_hooked();
    index = node->tensor_pre_hooks().size();
    node->tensor_pre_hooks().emplace_back(output_nr(t), std::move(hook));
  }
  return make_handle([locate = locate, index] {
    auto n = locate();
    std::lock_guard<std::mutex> lock(hooks_mutex());
    if (n && index < n->tensor_pre_hooks().size()) n->tensor_pre_hooks()[index].second = nullptr;
  });
}

py::object tensor_register_post_accumulate_grad_hook(const Tensor& t, py::object fn) {
  ENGINE_CHECK(is_leaf(t), std::runtime_error, "post accumulate grad hooks cannot be registered on non-leaf tensors");
  ENGINE_CHECK(requires_grad(t), std::runtime_error,
               "cannot register a hook on a tensor that doesn't require gradient");
  ENGINE_CHECK(PyCallable_Check(fn.ptr()), engine::TypeError,
               "register_post_accumulate_grad_hook(): the hook must be callable, not ", type_name(fn));
  auto f = std::make_shared<PyFn>(std::move(fn));
  auto& hooks = ensure_autograd_meta(t).post_accumulate_hooks;
  size_t index;
  {
    std::lock_guard<std::mutex> lock(hooks_mutex());
    index = hooks.size();
    hooks.push_back([f](const Tensor& v) {
      py::gil_scoped_acquire gil;
      py::object r = f->fn(py::cast(v));
      // PyTorch's words: a returned tensor is refused, anything else is a type error.
      ENGINE_CHECK(r.is_none() || is_tensor(r), engine::TypeError, "expected Variable, but hook returned '",
                   type_name(r), "'");
      ENGINE_CHECK(r.is_none(), std::runtime_error, "Tensor post accumulate grad hooks should return None.");
    });
  }
  std::weak_ptr<TensorImpl> weak = t.impl();
  return make_handle([weak, index] {
    if (auto impl = weak.lock()) {
      auto& hooks = ensure_autograd_meta(Tensor(impl)).post_accumulate_hooks;
      std::lock_guard<std::mutex> lock(hooks_mutex());
      if (index < hooks.size()) hooks[index] = nullptr;
    }
  });
}

// Tensor.grad_dtype: on a leaf, the dtype its gradient is cast to (None: any dtype is kept).
void define_grad_dtype(py::object cls, py::object dtype_type) {
  py::object property = py::module_::import("builtins").attr("property");
  auto get = [](const Tensor& t) -> py::object {
    ENGINE_CHECK(is_leaf(t), std::runtime_error, "grad_dtype can only be accessed on leaf tensors.");
    const auto d = allowed_grad_dtype(t);
    return d ? dtype_to_py(*d) : py::none();
  };
  auto set = [dtype_type](const Tensor& t, py::handle value) {
    ENGINE_CHECK(is_leaf(t), std::runtime_error, "grad_dtype can only be set on leaf tensors.");
    ENGINE_CHECK(value.is_none() || py::isinstance(value, dtype_type), std::runtime_error,
                 "grad_dtype must be a torch.dtype or None, but got ", type_name(value));
    auto& m = ensure_autograd_meta(t);
    std::lock_guard<std::mutex> lock(grad_accumulation_mutex());
    if (!value.is_none()) {
      const DType d = dtype_from_py(value);
      ENGINE_CHECK(!m.grad.defined() || m.grad.dtype() == d, std::runtime_error, "Cannot set grad_dtype to '",
                   scalar_type_name(d), "' because there is already a gradient with dtype '",
                   cpp_type_name(m.grad.dtype()),
                   "'. Please clear the gradient (.grad = None) before changing grad_dtype, or ensure the new "
                   "grad_dtype matches the existing gradient's dtype.");
      m.grad_dtype = d;
    }
    m.grad_dtype_set = true;
    m.grad_dtype_any = value.is_none();
  };
  cls.attr("grad_dtype") = property(py::cpp_function(get), py::cpp_function(set));
}

// Tensor's autograd attributes as PyTorch's: `del t.grad` clears the gradient, deleting the others
// is refused, and `t.data = x` checks x. The properties are the ones py_tensor.cpp defines, rebuilt
// with a deleter (and, for data, a checking setter).
void patch_tensor_attributes(py::module_& m) {
  py::object cls = m.attr("Tensor");
  py::object property = py::module_::import("builtins").attr("property");
  py::object dict = cls.attr("__dict__");
  auto refuse = [](const char* msg) {
    return py::cpp_function([msg](py::handle) { throw std::runtime_error(msg); });
  };
  py::object grad = dict["grad"];
  py::object grad_set = grad.attr("fset");
  cls.attr("grad") = property(grad.attr("fget"), grad_set,
                              py::cpp_function([grad_set](py::handle self) { grad_set(self, py::none()); }),
                              grad.attr("__doc__"));
  py::object data = dict["data"];
  py::object data_set = data.attr("fset");
  cls.attr("data") = property(
      data.attr("fget"),
      py::cpp_function([data_set](py::handle self, py::handle value) {
        ENGINE_CHECK(is_tensor(value), engine::TypeError, "Variable data has to be a tensor, but got ",
                     type_name(value));
        ENGINE_CHECK(!requires_grad(self.cast<Tensor>()) || is_floating(value.cast<Tensor>().dtype()) ||
                         is_complex(value.cast<Tensor>().dtype()),
                     std::runtime_error,
                     "data set to a tensor that requires gradients must be floating point or complex dtype");
        data_set(self, value);
      }),
      refuse("Deleting tensor data is not allowed. Delete tensor instead!"), data.attr("__doc__"));
  py::object rg = dict["requires_grad"];
  cls.attr("requires_grad") =
      property(rg.attr("fget"), rg.attr("fset"), refuse("requires_grad must be a bool"), rg.attr("__doc__"));
  // A getter of its own: sharing grad_fn's would give that function this second name.
  cls.attr("_grad_fn") =
      property(py::cpp_function([](py::handle self) { return self.attr("grad_fn"); }), py::none(),
               refuse("Deletion of _grad_fn not allowed. Detach tensor instead!"));
  define_grad_dtype(cls, m.attr("dtype"));
  // (Tensor._backward_hooks, the legacy hook dict, is engine/autograd/_legacy_hooks.py.)
}

// `t.backward()` with no argument on an exact Tensor: backward_of_scalar without the dispatcher's
// keyword handling. Any other call, and a tensor a transform marked, takes the binding.
PyObject* backward_entry(PyObject* self, PyObject* const* args, Py_ssize_t nargsf, PyObject* kwnames) {
  return serve_argument_free_call(self, args, nargsf, kwnames, [](const Tensor& t) -> PyObject* {
    backward_of_scalar(t);
    Py_RETURN_NONE;
  });
}

}  // namespace

void install_backward_entry(py::module_& m) {
  set_method_entry(m.attr("Tensor").attr("__dict__")["backward"], &backward_entry);
}

void init_autograd(py::module_& m) {
  patch_tensor_attributes(m);
  m.def("_register_node_hook", [](py::handle self, py::object fn) { return register_node_hook(self, fn, false); });
  m.def("_register_node_prehook", [](py::handle self, py::object fn) { return register_node_hook(self, fn, true); });
  m.def("_tensor_register_hook", &tensor_register_hook);
  m.def("_tensor_register_post_accumulate_grad_hook", &tensor_register_post_accumulate_grad_hook);
  m.def("_set_anomaly_enabled", [](bool enabled, bool check_nan) { AnomalyMode::set(enabled, check_nan); });
  m.def("is_anomaly_enabled", [] { return AnomalyMode::enabled(); });
  m.def("is_anomaly_check_nan_enabled", [] { return AnomalyMode::check_nan(); });
  m.def("is_grad_enabled", [] { return GradMode::is_enabled(); });
  m.def("_set_grad_enabled", [](bool v) { GradMode::set_enabled(v); });
  // Tensor.backward: the common call (no `inputs`, no `create_graph`) goes straight to the
  // executor; anything else takes engine.autograd.backward, which handles every option.
  m.attr("Tensor").attr("backward") = py::cpp_function(
      [](py::object self, py::object gradient, py::object retain_graph, bool create_graph, py::object inputs) {
        if (create_graph || !inputs.is_none() || !(gradient.is_none() || is_tensor(gradient))) {
          py::module_::import("engine.autograd").attr("backward")(self, gradient, retain_graph, create_graph,
                                                                 py::arg("inputs") = inputs);
          return;
        }
        const bool keep = retain_graph.is_none() ? false : bool_arg(retain_graph, "backward", "retain_graph");
        run_backward({self}, {gradient}, keep, false, {}, true, false);
      },
      py::name("backward"), py::is_method(m.attr("Tensor")), py::arg("gradient") = py::none(),
      py::arg("retain_graph") = py::none(), py::arg("create_graph") = false, py::arg("inputs") = py::none(),
      "Computes the gradient of this tensor w.r.t. the graph leaves (see ``engine.autograd.backward``).");
  m.def("_run_backward", &run_backward, py::arg("outputs"), py::arg("grad_outputs"), py::arg("keep_graph"),
        py::arg("create_graph"), py::arg("inputs"), py::arg("allow_unused"), py::arg("accumulate"));

  // Node objects take part in the cycle GC: a hook whose closure refers to its own node makes a
  // cycle through native code, which Python sees through tp_traverse (see traverse_node_hooks).
  py::class_<Node, std::shared_ptr<Node>>(m, "Node", py::custom_type_setup([](PyHeapTypeObject* heap_type) {
    PyTypeObject* type = &heap_type->ht_type;
    type->tp_flags |= Py_TPFLAGS_HAVE_GC;
    type->tp_traverse = [](PyObject* self, visitproc visit, void* arg) -> int {
      Py_VISIT(Py_TYPE(self));
      auto v_h = reinterpret_cast<py::detail::instance*>(self)->get_value_and_holder();
      if (!v_h.holder_constructed()) return 0;
      const auto& node = v_h.holder<std::shared_ptr<Node>>();
      // Only when this object is the node's last owner: otherwise the graph, which Python cannot
      // see, still needs the hooks.
      return node && node.use_count() == 1 ? traverse_node_hooks(*node, visit, arg) : 0;
    };
    type->tp_clear = [](PyObject* self) -> int {
      auto v_h = reinterpret_cast<py::detail::instance*>(self)->get_value_and_holder();
      if (!v_h.holder_constructed()) return 0;
      const auto& node = v_h.holder<std::shared_ptr<Node>>();
      if (node && node.use_count() == 1) clear_node_hooks(*node);
      return 0;
    };
  }))
      .def("name", &Node::display_name)
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
      .def("__repr__", [](py::handle self) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%p", static_cast<const void*>(self.ptr()));
        return "<" + py::str(py::type::handle_of(self).attr("__name__")).cast<std::string>() + " object at " + buf +
               ">";
      });
  init_graph(m);
}

}  // namespace engine::python
