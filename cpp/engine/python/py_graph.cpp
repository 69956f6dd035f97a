// The graph API's Python side (torch.autograd.graph): a Python class per built-in node type, nodes
// that can be called and carry a metadata dict, saved-tensor introspection (grad_fn._saved_self,
// _raw_saved_self.register_hooks), saved_tensors_hooks for built-in ops, gradient edges, queries
// about the running backward pass, and inference mode.
#include <algorithm>
#include <limits>

#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include "engine/autograd/engine.h"
#include "engine/autograd/error_node.h"
#include "engine/autograd/grad_mode.h"
#include "engine/autograd/saved_tensor.h"
#include "engine/autograd/variable.h"
#include "engine/autograd/view_meta.h"
#include "engine/core/error.h"
#include "engine/kernels/elementwise.h"
#include "engine/ops/ops.h"
#include "engine/python/bindings.h"
#include "engine/python/py_function.h"

namespace engine::python {

namespace {

// Drops a Python object with the GIL held, wherever the C++ owner dies (or leaks it at exit).
void drop_with_gil(py::object& o) {
  if (!o) return;
  if (!Py_IsInitialized()) {
    o.release();
    return;
  }
  py::gil_scoped_acquire gil;
  o = py::object();
}

// The Python state of a node: its `metadata` dict, and the Python hooks it holds (for the GC).
struct NodePyState : DeferredRelease {
  py::object metadata;
  std::vector<std::weak_ptr<PyFn>> hooks;
  ~NodePyState() override { drop_with_gil(metadata); }
};

// A tensor saved through saved_tensors_hooks: what pack returned, and the unpack hook to read it.
struct PyPackedTensor : PackedTensor {
  PyPackedTensor(py::object unpack, py::object packed) : unpack_(std::move(unpack)), packed_(std::move(packed)) {}
  ~PyPackedTensor() override {
    drop_with_gil(unpack_);
    drop_with_gil(packed_);
  }
  Tensor unpack() const override {
    py::gil_scoped_acquire gil;
    py::object r = unpack_(packed_);
    ENGINE_CHECK(is_tensor(r), engine::TypeError,
                 "Output of saved tensor unpack_hook expected to be a Tensor but got result of type ", type_name(r));
    return r.cast<Tensor>();
  }

  const py::object& unpack_hook() const { return unpack_; }
  const py::object& packed() const { return packed_; }

 private:
  py::object unpack_, packed_;
};

// Calls `pack(t)` with saved-tensor hooks switched off, so that ops the hook runs save nothing
// through it again.
std::shared_ptr<PackedTensor> pack_with(const py::object& pack, const py::object& unpack, const Tensor& t) {
  struct Pause {
    bool was = saved_tensor_hooks_active();
    Pause() { set_saved_tensor_hooks_active(false); }
    ~Pause() { set_saved_tensor_hooks_active(was); }
  } pause;
  // Pack hooks run with grad mode off, and may not write into the tensor (PyTorch's rules).
  AutoGradMode no_grad(false);
  const uint32_t before = t.version();
  py::object packed = pack(py::cast(t));
  check_pack_hook_kept(t, before);
  return std::make_shared<PyPackedTensor>(unpack, std::move(packed));
}

std::shared_ptr<PackedTensor> pack_with_current_hooks(const Tensor& t) {
  py::gil_scoped_acquire gil;
  auto& stack = saved_tensors_hooks_stack();
  if (stack.empty()) return nullptr;
  auto [pack, unpack] = stack.back();
  return pack_with(pack, unpack, t);
}

// The name a node's Python class has: the node's name without a C++ namespace.
std::string class_name_of(const Node& n) {
  std::string name = n.display_name();
  const size_t colon = name.rfind("::");
  return colon == std::string::npos ? name : name.substr(colon + 2);
}

// One Python class per node name, subclasses of Node without instance state of their own, made
// on first use and kept for the interpreter's life.
py::object node_class(const std::string& name) {
  static py::dict* classes = new py::dict();
  py::str key(name);
  if (classes->contains(key)) return (*classes)[key];
  py::object base = py::type::of<Node>();
  auto* base_type = reinterpret_cast<PyTypeObject*>(base.ptr());
  // Built from a spec with the base's deallocator and layout and no state of its own, so that an
  // existing Node wrapper can be re-classed into it (__class__ assignment needs exactly that).
  // The spec's name is referenced by the type for its whole life: keep it.
  static auto* names = new std::vector<std::unique_ptr<std::string>>();
  names->push_back(std::make_unique<std::string>("builtins." + name));  // module.qualname, as PyTorch's
  PyType_Slot slots[] = {{Py_tp_dealloc, reinterpret_cast<void*>(base_type->tp_dealloc)}, {0, nullptr}};
  PyType_Spec spec{names->back()->c_str(), 0, 0, static_cast<unsigned int>(Py_TPFLAGS_DEFAULT), slots};
  py::object cls = py::reinterpret_steal<py::object>(PyType_FromSpecWithBases(&spec, py::make_tuple(base).ptr()));
  if (!cls) throw py::error_already_set();
  (*classes)[key] = cls;
  return cls;
}

// Finds the saved tensor `name` of `n`, or null.
SavedTensor* find_saved(Node& n, const std::string& name) {
  SavedTensor* found = nullptr;
  n.visit_saved([&](const char* k, SavedTensor& s) {
    if (!found && name == k) found = &s;
  });
  return found;
}

// Finds the saved tensor list `name` of `n`, or null.
std::vector<SavedTensor>* find_saved_list(Node& n, const std::string& name) {
  std::vector<SavedTensor>* found = nullptr;
  n.visit_saved_lists([&](const char* k, std::vector<SavedTensor>& l) {
    if (!found && name == k) found = &l;
  });
  return found;
}

// grad_fn._raw_saved_<name> (or entry `index` of a saved list): a handle on one saved tensor of a node.
struct SavedTensorRef {
  std::shared_ptr<Node> owner;
  std::string name;
  int64_t index = -1;

  SavedTensor& get() const {
    if (index >= 0) {
      std::vector<SavedTensor>* l = find_saved_list(*owner, name);
      ENGINE_CHECK(l && static_cast<size_t>(index) < l->size(), std::runtime_error, "saved tensor '", name, "' is gone");
      return (*l)[static_cast<size_t>(index)];
    }
    SavedTensor* s = find_saved(*owner, name);
    ENGINE_CHECK(s, std::runtime_error, "saved tensor '", name, "' is gone");
    return *s;
  }
  void register_hooks(py::object pack, py::object unpack) const {
    ENGINE_CHECK(PyCallable_Check(pack.ptr()) && PyCallable_Check(unpack.ptr()), engine::TypeError,
                 "register_hooks(): incompatible function arguments: expected two callables (pack_hook, "
                 "unpack_hook), got ", type_name(pack), " and ", type_name(unpack));
    SavedTensor& s = get();
    ENGINE_CHECK(!s.released(), std::runtime_error,
                 "Calling register_hooks on a saved tensor after it has been freed. Saved intermediate values of the "
                 "graph are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if you need "
                 "to backward through the graph a second time or if you need to access saved variables after calling "
                 "backward.");
    ENGINE_CHECK(s.defined(), std::runtime_error, "Calling register_hooks on a saved tensor with value None is forbidden");
    ENGINE_CHECK(!s.has_hooks(), std::runtime_error,
                 "Calling register_hooks on a saved tensor whose hooks have already been set. Hint: only one pair of "
                 "hooks is allowed at a time.");
    // The hook sees the saved data without autograd state, as in PyTorch.
    s.set_packed(pack_with(pack, unpack, detach(s.data())));
  }
};

Tensor zeros_for(const InputMetadata& m) { return ops::zeros(m.shape, m.dtype); }

// grad_fn(*grads): runs the node's backward on the given gradients of its outputs.
py::object call_node(const std::shared_ptr<Node>& n, py::args args) {
  const auto& meta = n->input_metadata();
  // PyTorch's words: one gradient per output of the node's forward.
  ENGINE_CHECK(args.size() == meta.size(), engine::TypeError, "expected ", meta.size(), " arguments, got ",
               args.size(), " instead");
  variable_list grads(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    py::handle a = args[i];
    if (a.is_none()) {
      // Built-in rules expect every gradient: None stands for zeros.
      if (n->skips_undefined_inputs()) grads[i] = zeros_for(meta[i]);
      continue;
    }
    ENGINE_CHECK(is_tensor(a), engine::TypeError, n->name(), "(): gradients must be Tensors or None, got ",
                 type_name(a));
    grads[i] = a.cast<Tensor>();
    ENGINE_CHECK(grads[i].shape() == meta[i].shape, std::runtime_error, n->name(), "(): gradient ", i, " has shape ",
                 dims_str(grads[i].shape()), " but the output it stands for has shape ", dims_str(meta[i].shape));
  }
  variable_list out = n->apply(std::move(grads));
  auto to_py = [](const Tensor& t) { return t.defined() ? py::cast(t) : py::none(); };
  if (out.size() == 1) return to_py(out[0]);
  py::tuple r(out.size());
  for (size_t i = 0; i < out.size(); ++i) r[i] = to_py(out[i]);
  return std::move(r);
}

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// An int as PyTorch's generated getters return it: through an unsigned conversion, so that a
// negative dim reads as 2**64 - |dim| (grad_fn._saved_dim of sum(-1) is 18446744073709551615).
py::object saved_int(int64_t v) { return py::reinterpret_steal<py::object>(PyLong_FromUnsignedLongLong(static_cast<uint64_t>(v))); }

py::object saved_value_to_py(const SavedValue& v) {
  switch (v.kind) {
    case SavedValue::Kind::Bool: return py::bool_(v.b);
    case SavedValue::Kind::Int: return saved_int(v.i);
    case SavedValue::Kind::ScalarInt: return py::int_(v.i);
    case SavedValue::Kind::Double: return py::float_(v.d);
    case SavedValue::Kind::String: return py::str(v.s);
    case SavedValue::Kind::Ints: {
      py::tuple t(v.ints.size());
      for (size_t i = 0; i < v.ints.size(); ++i) t[i] = saved_int(v.ints[i]);
      return std::move(t);
    }
    case SavedValue::Kind::None: break;
  }
  return py::none();
}

// The names of a node's saved attributes, as `_saved_<name>` (and `_raw_saved_<name>` for tensors).
std::vector<std::string> saved_attr_names(Node& n) {
  std::vector<std::string> out;
  for (const auto& [k, s] : n.saved_values.tensors) out.push_back(std::string("_saved_") + k);
  if (n.saved_values.exclusive) {
    for (const auto& [k, v] : n.saved_values.items) out.push_back(std::string("_saved_") + k);
    return out;
  }
  n.visit_saved([&](const char* k, SavedTensor&) {
    out.push_back(std::string("_saved_") + k);
    out.push_back(std::string("_raw_saved_") + k);
  });
  n.visit_saved_lists([&](const char* k, std::vector<SavedTensor>&) {
    out.push_back(std::string("_saved_") + k);
    out.push_back(std::string("_raw_saved_") + k);
  });
  // saved_values first (they take precedence), then what the node visits, each name once.
  for (const auto& [k, v] : n.saved_values.items) out.push_back(std::string("_saved_") + k);
  n.visit_saved_values([&](const char* k, const SavedValue&) {
    for (const auto& [own, v] : n.saved_values.items) {
      if (std::string_view(own) == k) return;
    }
    out.push_back(std::string("_saved_") + k);
  });
  return out;
}

py::object saved_attr(const std::shared_ptr<Node>& n, const std::string& attr) {
  const bool raw = starts_with(attr, "_raw_saved_");
  const bool plain = !raw && starts_with(attr, "_saved_");
  if (plain) {
    const std::string name = attr.substr(7);
    for (const auto& [k, s] : n->saved_values.tensors) {
      if (name != k) continue;
      ENGINE_CHECK(!s.released(), std::runtime_error, kSavedTensorsFreedMessage);
      return s.defined() ? py::cast(s.unpack(n)) : py::none();
    }
  }
  if ((raw || plain) && n->saved_values.exclusive) {
    if (plain) {
      const std::string name = attr.substr(7);
      for (const auto& [k, v] : n->saved_values.items) {
        if (name == k) return saved_value_to_py(v);
      }
    }
  } else if (raw || plain) {
    const std::string name = attr.substr(raw ? 11 : 7);
    if (SavedTensor* s = find_saved(*n, name)) {
      if (raw) return py::cast(SavedTensorRef{n, name});
      if (!s->defined()) return py::none();
      Tensor t = s->unpack(n);
      if (t.is_wrapped_number() && t.get()->wrapped_dtype != t.dtype()) {
        // A Python number kept in its tensor operand's dtype: shown as PyTorch wraps it.
        t = ops::wrapped_scalar(kernels::read_double(t, 0), t.get()->wrapped_dtype);
      }
      return py::cast(t);
    }
    if (std::vector<SavedTensor>* l = find_saved_list(*n, name)) {
      // A list reads as a tuple, None for the entries that were not given; once freed, the whole
      // list raises, raw or not (PyTorch's getters unpack it as a whole).
      py::tuple t(l->size());
      for (size_t i = 0; i < l->size(); ++i) {
        const SavedTensor& e = (*l)[i];
        ENGINE_CHECK(!e.released(), std::runtime_error, kSavedTensorsFreedMessage);
        if (raw) {
          t[i] = py::cast(SavedTensorRef{n, name, static_cast<int64_t>(i)});
        } else {
          t[i] = e.defined() ? py::cast(e.unpack(n)) : py::none();
        }
      }
      return std::move(t);
    }
    if (plain) {
      for (const auto& [k, v] : n->saved_values.items) {
        if (name == k) return saved_value_to_py(v);
      }
      py::object found;
      n->visit_saved_values([&](const char* k, const SavedValue& v) {
        if (!found && name == k) found = saved_value_to_py(v);
      });
      if (found) return found;
    }
  }
  throw py::attribute_error("'" + class_name_of(*n) + "' object has no attribute '" + attr + "'");
}

std::shared_ptr<Node> node_from_py(py::handle obj) {
  if (py::isinstance<FunctionCtx>(obj)) {
    auto n = share_node(obj.cast<FunctionCtx&>());
    ENGINE_CHECK(n, std::runtime_error, "this Function recorded no graph node");
    return n;
  }
  ENGINE_CHECK(py::isinstance<Node>(obj), engine::TypeError, "expected a graph node, got ", type_name(obj));
  return obj.cast<std::shared_ptr<Node>>();
}

}  // namespace

std::shared_ptr<PackedTensor> hook_packed_tensor(py::object unpack, py::object packed) {
  return std::make_shared<PyPackedTensor>(std::move(unpack), std::move(packed));
}

py::object raw_saved_tensor_ref(const std::shared_ptr<Node>& owner, const std::string& name) {
  return py::cast(SavedTensorRef{owner, name});
}

const char* interned_name(const std::string& name) {
  static auto* names = new std::vector<std::unique_ptr<std::string>>();
  for (auto& n : *names) {
    if (*n == name) return n->c_str();
  }
  names->push_back(std::make_unique<std::string>(name));
  return names->back()->c_str();
}

py::object builtin_node_to_py(const std::shared_ptr<Node>& node) {
  static PyTypeObject* base = reinterpret_cast<PyTypeObject*>(py::type::of<Node>().release().ptr());
  py::object o = py::cast(node);
  if (Py_TYPE(o.ptr()) == base) o.attr("__class__") = node_class(class_name_of(*node));
  return o;
}

Edge edge_from_py(py::handle obj) {
  if (is_tensor(obj)) {
    Tensor t = obj.cast<Tensor>();
    ENGINE_CHECK(requires_grad(t), std::runtime_error, "One of the differentiated Tensors does not require grad");
    return gradient_edge(t);
  }
  ENGINE_CHECK(py::hasattr(obj, "node") && py::hasattr(obj, "output_nr"), engine::TypeError,
               "inputs must be Tensors or GradientEdges, got ", type_name(obj));
  return Edge(node_from_py(obj.attr("node")), static_cast<uint32_t>(obj.attr("output_nr").cast<int64_t>()));
}

NodePyState& node_state(Node& n) {
  auto& st = n.py_state();
  if (!st) {
    auto s = std::make_unique<NodePyState>();
    s->metadata = py::dict();
    st = std::move(s);
  }
  return static_cast<NodePyState&>(*st);
}

// The `metadata` dict of a built-in node, made on first use.
py::dict node_metadata(Node& n) { return node_state(n).metadata; }

void note_python_hook(Node& node, const std::shared_ptr<PyFn>& fn) {
  auto& hooks = node_state(node).hooks;
  // Forget hooks already released, so the list does not grow with registrations.
  hooks.erase(std::remove_if(hooks.begin(), hooks.end(), [](const auto& w) { return w.expired(); }), hooks.end());
  hooks.push_back(fn);
}

int traverse_node_hooks(Node& node, visitproc visit, void* arg) {
  auto& st = node.py_state();
  if (!st) return 0;
  auto& s = static_cast<NodePyState&>(*st);
  Py_VISIT(s.metadata.ptr());
  for (const auto& w : s.hooks) {
    if (auto f = w.lock()) Py_VISIT(f->fn.ptr());
  }
  return 0;
}

void clear_node_hooks(Node& node) {
  std::vector<Node::PreHook> pre;
  std::vector<Node::PostHook> post;
  std::vector<std::pair<uint32_t, Node::TensorHook>> tensor;
  {
    std::lock_guard<std::mutex> lock(hooks_mutex());
    std::swap(pre, node.pre_hooks());
    std::swap(post, node.post_hooks());
    std::swap(tensor, node.tensor_pre_hooks());
  }
  // Released here, outside the lock: dropping a hook may run Python code.
  if (auto& st = node.py_state()) {
    auto& s = static_cast<NodePyState&>(*st);
    s.hooks.clear();
    s.metadata = py::dict();
  }
}

void init_graph(py::module_& m) {
  pack_saved_tensor = &pack_with_current_hooks;
  AnomalyMode::record = [](Node& node) {
    if (dynamic_cast<PyNode*>(&node)) return;  // a custom Function records itself (anomaly_mode._record)
    py::gil_scoped_acquire gil;
    try {
      Node* parent = current_node();
      py::object p = parent ? node_to_py(parent->shared_from_this()) : py::none();
      py::module_::import("engine.autograd.anomaly_mode").attr("_record_node")(node_metadata(node), p);
    } catch (py::error_already_set& e) {
      e.discard_as_unraisable("anomaly mode");
    }
  };
  // An op whose derivative PyTorch leaves unimplemented (unique's values): `out`, a fresh result
  // computed from `input`, gets a node named as PyTorch's that raises NotImplementedError when
  // backward reaches it, so it requires grad exactly when PyTorch's does.
  m.def(
      "_record_not_implemented",
      [](const Tensor& out, const Tensor& input, const std::string& node_name, const std::string& op) {
        if (compute_requires_grad({&input}) && (is_floating(out.dtype()) || is_complex(out.dtype()))) {
          set_history(out, std::make_shared<NotImplementedNode>(node_name, op, collect_next_edges({&input})));
        }
        return out;
      },
      py::arg("out"), py::arg("input"), py::arg("node_name"), py::arg("op"));
  m.def("_current_anomaly_parent", [] {
    Node* parent = current_node();
    return parent ? node_to_py(parent->shared_from_this()) : py::none();
  });

  py::object node_cls = py::type::of<Node>();
  node_cls.attr("__call__") = py::cpp_function(&call_node, py::name("__call__"), py::is_method(node_cls));
  node_cls.attr("__getattr__") = py::cpp_function(&saved_attr, py::name("__getattr__"), py::is_method(node_cls));
  // dir(grad_fn) lists the saved attributes too, as PyTorch's generated properties appear there.
  node_cls.attr("__dir__") = py::cpp_function(
      [](py::object self) {
        py::list names = py::module_::import("builtins").attr("object").attr("__dir__")(self);
        for (const auto& k : saved_attr_names(*self.cast<std::shared_ptr<Node>>())) names.append(py::str(k));
        return names;
      },
      py::name("__dir__"), py::is_method(node_cls));
  node_cls.attr("metadata") = py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(&PyProperty_Type))(
      py::cpp_function([](const std::shared_ptr<Node>& n) -> py::object { return node_metadata(*n); }),
      py::none(), py::none(), "A dict for the user's data about this node (torch.autograd.graph.Node.metadata).");

  py::class_<SavedTensorRef> saved_cls(
      m, "SavedTensor",
      "A tensor a node saved for its backward (grad_fn._raw_saved_self, ...): register_hooks(pack, "
      "unpack) to store it otherwise, .data and .unpack_hook to inspect it. Only nodes make them.");
  saved_cls
      // Only nodes make saved tensors; PyTorch refuses the constructor with these words.
      .def(py::init([]() -> std::unique_ptr<SavedTensorRef> {
        throw std::runtime_error("Trying to create a SavedTensor object from Python is forbidden.");
      }))
      .def("register_hooks", &SavedTensorRef::register_hooks, py::arg("pack_hook"), py::arg("unpack_hook") = py::none(),
           "Packs this saved tensor with pack_hook now; backward reads it back through unpack_hook.")
      .def_property_readonly(
          "data",
          [](const SavedTensorRef& r) -> py::object {
            SavedTensor& s = r.get();
            ENGINE_CHECK(!s.released(), std::runtime_error, kSavedTensorsFreedMessage);
            // What the pack hook returned, as is; else the stored tensor (an output's without history).
            if (auto* p = dynamic_cast<const PyPackedTensor*>(s.packed().get())) return p->packed();
            return s.data().defined() ? py::cast(s.data()) : py::none();
          },
          "The saved data: what the pack hook returned, or the tensor kept.")
      .def_property_readonly(
          "unpack_hook",
          [](const SavedTensorRef& r) -> py::object {
            auto* p = dynamic_cast<const PyPackedTensor*>(r.get().packed().get());
            return p ? p->unpack_hook() : py::none();
          },
          "The unpack hook this saved tensor will be read back through, or None.");
  // Where PyTorch's users name the class (torch._C._autograd.SavedTensor).
  py::module_ autograd_internals = m.def_submodule("_autograd");
  autograd_internals.attr("SavedTensor") = saved_cls;
  // Hides in-place writes from autograd (torch.autograd._unsafe_preserve_version_counter uses it).
  autograd_internals.def(
      "_unsafe_set_version_counter",
      [](const std::vector<Tensor>& tensors, const std::vector<int64_t>& versions) {
        ENGINE_CHECK(tensors.size() == versions.size(), std::runtime_error, "tensors_len=", tensors.size(),
                     ", versions_len=", versions.size());
        for (int64_t v : versions) {
          ENGINE_CHECK(v >= 0, std::runtime_error, "Cannot set a version_counter to a value below 0: ", v);
          ENGINE_CHECK(v <= static_cast<int64_t>(std::numeric_limits<uint32_t>::max()), std::runtime_error,
                       "Cannot set a version_counter to a value above ", std::numeric_limits<uint32_t>::max(), ": ", v);
        }
        for (size_t i = 0; i < tensors.size(); ++i) tensors[i].set_version(static_cast<uint32_t>(versions[i]));
      },
      py::arg("tensors"), py::arg("versions"));

  m.def("_gradient_edge", [](const Tensor& t) {
    ENGINE_CHECK(requires_grad(t), std::runtime_error,
                 "It is not possible to get the gradient edge for a Tensor that does not require gradients");
    Edge e = gradient_edge(t);
    return py::make_tuple(node_to_py(e.function), e.input_nr);
  });
  m.def("_queue_callback", [](py::object fn) {
    ENGINE_CHECK(PyCallable_Check(fn.ptr()), engine::TypeError, "queue_callback(): expected a callable, got ",
                 type_name(fn));
    // The callback list dies inside the backward pass, where the GIL is not held.
    struct Holder {
      py::object fn;
      ~Holder() { drop_with_gil(fn); }
    };
    auto holder = std::make_shared<Holder>(Holder{std::move(fn)});
    queue_callback([holder] {
      py::gil_scoped_acquire gil;
      holder->fn();
    });
  });
  m.def("_will_engine_execute_node", [](py::handle node) { return will_execute_node(node_from_py(node).get()); });
  m.def("_current_graph_task_id", [] { return current_graph_task_id(); });
  m.def("_is_checkpoint_valid", [] { return is_checkpoint_valid(); });
  // Composite ops written in Python name their last node after the PyTorch operator they stand for.
  m.def("_name_grad_fn", [](const Tensor& t, std::string name) {
    if (const auto& fn = grad_fn(t)) fn->set_display_name(std::move(name));
  });
  // An op written in Python shows an argument on its node as PyTorch's does (grad_fn._saved_dim of
  // split(2, -1) is the dim as given); value: None, a bool, an int, a float, a str or a tuple of
  // ints.
  m.def("_show_saved", [](const Tensor& t, const std::string& name, py::handle value) {
    const auto& fn = grad_fn(t);
    if (!fn) return;
    const char* key = interned_name(name);
    if (is_tensor(value)) {
      // Saved as the node saves its own: an output of the node itself without its history.
      const Tensor v = value.cast<Tensor>();
      SavedTensor saved(v, grad_fn(v) == fn);
      for (auto& [k, s] : fn->saved_values.tensors) {
        if (std::string_view(k) == key) {
          s = std::move(saved);
          return;
        }
      }
      fn->saved_values.tensors.emplace_back(key, std::move(saved));
      return;
    }
    if (value.is_none()) {
      fn->saved_values.set(key, SavedValue());
    } else if (py::isinstance<py::bool_>(value)) {
      fn->saved_values.set(key, value.cast<bool>());
    } else if (py::isinstance<py::float_>(value)) {
      fn->saved_values.set(key, value.cast<double>());
    } else if (py::isinstance<py::int_>(value)) {
      fn->saved_values.set(key, value.cast<int64_t>());
    } else if (py::isinstance<py::str>(value)) {
      fn->saved_values.set(key, value.cast<std::string>());
    } else {
      fn->saved_values.set(key, value.cast<std::vector<int64_t>>());
    }
  });
  m.def("_show_saved_only", [](const Tensor& t) {
    if (const auto& fn = grad_fn(t)) fn->saved_values.exclusive = true;
  }, "The node of `t` shows only the values given to _show_saved (an op composed of others).");
  m.def("_increment_version", [](py::handle obj) {
    if (is_tensor(obj)) {
      obj.cast<Tensor>().bump_version();
      return;
    }
    // PyTorch's messages for a non-iterable and for an element that is not a tensor.
    if (!py::isinstance<py::iterable>(obj)) throw std::runtime_error("increment_version expect a Iterable[Tensor] as input");
    for (py::handle t : obj) {
      if (!is_tensor(t)) throw std::runtime_error("increment_version expects each element of the iterable to be a tensor");
      t.cast<Tensor>().bump_version();
    }
  });
  m.def("_mark_multi_output_views", [](const std::vector<Tensor>& views, const std::string& fn) {
    if (fn.empty()) {
      // The unsafe_ variants: views that may be written in place after all.
      for (const Tensor& v : views) {
        if (v.get()->view_creation_meta == static_cast<uint8_t>(CreationMeta::MultiOutput)) {
          v.get()->view_creation_meta = static_cast<uint8_t>(CreationMeta::Default);
        }
      }
      return;
    }
    mark_multi_output_views(views, interned_name(fn));
  });
  m.def("_set_inference_mode", [](bool enabled) { set_inference_mode_enabled(enabled); });
  m.def("is_inference_mode_enabled", [] { return inference_mode_enabled(); });
  m.def("is_inference", [](const Tensor& t) { return t.get()->is_inference; });
}

}  // namespace engine::python
