// Function.apply, implemented natively: decides inputs, builds the ctx and the node, runs the
// user's forward (and setup_context) with grad mode off, wraps outputs, converts saved tensors.
#include "engine/python/py_function.h"

#include <pybind11/stl.h>

#include <unordered_set>

#include "engine/autograd/engine.h"
#include "engine/autograd/error_node.h"
#include "engine/autograd/grad_mode.h"
#include "engine/autograd/variable.h"
#include "engine/autograd/view_meta.h"
#include "engine/core/error.h"
#include "engine/ops/ops.h"
#include "engine/python/bindings.h"
#include "engine/python/py_function_entry.h"

namespace engine {
// An alias of `t` that stays outside autograd (requires_grad False, no grad_fn) while ops that
// record history take `guard` as its edge: differentiating through it runs the guard, which
// raises. Defined in autograd/variable.cpp, with the tensor metadata it needs.
Tensor guarded_alias(const Tensor& t, std::shared_ptr<Node> guard);
}  // namespace engine

namespace engine::python {

namespace {

// What apply needs to know about a Function class, computed once when the class is created.
struct FunctionInfo {
  py::object forward;
  py::object setup_context;  // None unless overridden
  py::object backward_cls;   // the ctx type, <Name>Backward
  std::string name;          // the Function's own name
  std::string backward_name;  // <Name>Backward
  py::object backward;        // what the engine calls: backward_cls._engine_backward
  bool forward_takes_ctx = true;
  // With setup_context, `inputs` are forward's bound arguments (defaults filled in). The common
  // case, positional arguments only, is bound here; anything else (keywords, *args, a wrong count
  // that needs Python's own error) goes through `binder`. nparams < 0: no fast path.
  int64_t nparams = 0;
  py::tuple defaults;
  py::object binder;  // callable(*args, **kwargs) -> tuple, or None when the fast path always applies
};

// Drops the ctx reference through the node teardown, so a long chain of custom nodes (each owned
// by its ctx) is freed iteratively rather than by nested deallocations.
struct CtxRelease : DeferredRelease {
  explicit CtxRelease(PyObject* o) : obj(o) {}
  ~CtxRelease() override {
    py::gil_scoped_acquire gil;
    Py_DECREF(obj);
  }
  PyObject* obj;
};

// saved_tensors_hooks(pack, unpack) in force on this thread, innermost last.
namespace {
// The per-thread stack of (pack, unpack) hooks. It dies with its thread, which may be after the
// interpreter has shut down (the main thread's, at exit): the hooks are released only while there
// is an interpreter to release them to, otherwise left to the process's end.
struct SavedTensorsHooksStack {
  std::vector<std::pair<py::object, py::object>> hooks;
  ~SavedTensorsHooksStack() {
    if (hooks.empty()) return;
#if PY_VERSION_HEX >= 0x030D0000
    const bool finalizing = Py_IsFinalizing();
#else
    const bool finalizing = _Py_IsFinalizing();
#endif
    if (Py_IsInitialized() && !finalizing) {
      py::gil_scoped_acquire gil;
      hooks.clear();
    } else {
      for (auto& [pack, unpack] : hooks) {
        pack.release();
        unpack.release();
      }
    }
  }
};
}  // namespace

std::vector<std::pair<py::object, py::object>>& hooks_stack() {
  thread_local SavedTensorsHooksStack stack;
  return stack.hooks;
}

// A data descriptor on a ctx type for one attribute name that held a tensor at the end of apply:
// reads unpack the native slot (version check, output history rebuilt), writes and deletes go to
// the instance __dict__ (dropping any native slot), so other ctx objects of the type, and
// non-tensor values, behave as plain attributes.
struct CtxTensorAttr {
  py::object name;
};

FunctionCtx::Attr* find_attr(FunctionCtx& c, PyObject* name) {
  for (auto& a : c.attrs) {
    if (a.name.ptr() == name) return &a;
  }
  for (auto& a : c.attrs) {
    if (PyUnicode_Compare(a.name.ptr(), name) == 0) return &a;
  }
  return nullptr;
}

void drop_attr(FunctionCtx& c, PyObject* name) {
  for (auto it = c.attrs.begin(); it != c.attrs.end(); ++it) {
    if (it->name.ptr() == name || PyUnicode_Compare(it->name.ptr(), name) == 0) {
      c.attrs.erase(it);
      return;
    }
  }
}

// True when `cls` has (or now has) a CtxTensorAttr for `name`; false when the name is taken by
// something else on the class (a method, say), in which case the attribute stays in __dict__.
bool ensure_attr_descriptor(const py::object& cls, const py::object& name) {
  PyObject* existing = _PyType_Lookup(reinterpret_cast<PyTypeObject*>(cls.ptr()), name.ptr());
  if (existing) return py::isinstance<CtxTensorAttr>(existing);
  cls.attr(name) = py::cast(CtxTensorAttr{name});
  return true;
}

py::tuple bind_inputs(const FunctionInfo& info, const py::args& args, const py::kwargs& kwargs) {
  if (!info.setup_context || info.setup_context.is_none()) {
    // Without setup_context every argument counts as given, keyword arguments after positional ones.
    if (kwargs.empty()) return args;
    py::list all(args);
    for (auto kv : kwargs) all.append(kv.second);
    return py::tuple(all);
  }
  const int64_t n = static_cast<int64_t>(args.size());
  const int64_t ndef = static_cast<int64_t>(info.defaults.size());
  if (kwargs.empty() && info.nparams >= 0 && n <= info.nparams && n >= info.nparams - ndef) {
    if (n == info.nparams) return args;
    py::tuple out(info.nparams);
    for (int64_t i = 0; i < n; ++i) out[i] = args[i];
    for (int64_t i = n; i < info.nparams; ++i) out[i] = info.defaults[i - (info.nparams - ndef)];
    return out;
  }
  ENGINE_CHECK(!info.binder.is_none(), std::logic_error, "Function binder missing");
  return info.binder(*args, **kwargs).cast<py::tuple>();
}

bool contains(const py::tuple& objs, const Tensor& t) {
  for (py::handle o : objs) {
    if (is_tensor(o) && o.cast<Tensor>().is_same(t)) return true;
  }
  return false;
}

}  // namespace

Tensor FunctionCtx::unpack(const SavedTensor& s, bool intermediate, const std::shared_ptr<Node>& owner,
                           const std::string& what) {
  Tensor t = s.unpack(owner);
  if (intermediate && in_backward && owner && GradMode::is_enabled() && t.defined() && is_floating(t.dtype()) &&
      !requires_grad(t)) {
    // Its flags stay as they are (no requires_grad, no grad_fn); only a derivative actually taken
    // through it raises.
    t = guarded_alias(
        t, std::make_shared<ErrorNode>(
               str_cat("function ", owner->name(), " used ", what,
                       ", a tensor computed in forward, in a backward run with create_graph=True. It carries no "
                       "graph, so the derivative through it would be silently missing. Save the inputs or outputs "
                       "it is computed from (ctx.save_for_backward) and recompute it in backward, or decorate "
                       "backward with @once_differentiable."),
               owner->next_edges()));
  }
  return t;
}

// engine._C.Tensor itself (a saved tensor of a subclass keeps its Python object).
py::handle plain_tensor_type() {
  static py::handle type = py::object(py::module_::import("engine._C").attr("Tensor")).release();
  return type;
}

py::tuple FunctionCtx::saved_tensors(const std::shared_ptr<Node>& owner) {
  if (saved_released) throw std::runtime_error(kSavedTensorsFreedMessage);
  py::tuple out(saved.size());
  for (size_t i = 0; i < saved.size(); ++i) {
    if (i < packed.size() && packed[i].first) {
      out[i] = packed[i].first(packed[i].second);
      continue;
    }
    Tensor t = unpack(saved[i], saved_intermediate[i], owner, str_cat("saved tensor ", i));
    if (i < subclass_saved.size() && subclass_saved[i]) {
      out[i] = subclass_saved[i];
      continue;
    }
    out[i] = py::cast(std::move(t));
  }
  return out;
}

FunctionCtx::FunctionCtx() = default;
FunctionCtx::~FunctionCtx() = default;

std::shared_ptr<PyNode> share_node(FunctionCtx& c) {
  if (!c.owned_node) return nullptr;
  if (auto n = c.node.lock()) return n;
  // No live control block (first use, or the graph let go while Python still holds the ctx):
  // start one, holding a reference to the ctx that its deleter gives back.
  PyObject* ctx = c.owned_node->ctx().release().ptr();
  std::shared_ptr<PyNode> n(c.owned_node.get(),
                            [ctx](PyNode*) { defer_release(std::make_unique<CtxRelease>(ctx)); });
  c.node = n;
  return n;
}

PyNode::PyNode(PyObject* ctx, FunctionCtx* native, std::string name, std::string forward_name)
    : ctx_(ctx), native_(native), name_(std::move(name)), forward_name_(std::move(forward_name)) {}

void PyNode::visit_saved(const SavedVisitor& visit) {
  for (size_t i = 0; i < native_->saved.size(); ++i) {
    const std::string name = std::to_string(i);
    visit(name.c_str(), native_->saved[i]);
  }
}

void PyNode::release_variables() {
  py::gil_scoped_acquire gil;
  if (!native_->has_saved) return;
  for (auto& s : native_->saved) s.reset();
  native_->packed.clear();
  native_->subclass_saved.clear();
  native_->saved_released = true;
}

variable_list PyNode::apply(variable_list&& grads) {
  py::gil_scoped_acquire gil;
  const size_t n_out = output_is_tensor.size();
  py::tuple args(1 + n_out);
  args[0] = ctx();
  for (size_t i = 0; i < n_out; ++i) {
    if (!output_is_tensor[i]) {
      args[1 + i] = py::none();
    } else if (grads[i].defined()) {
      args[1 + i] = py::cast(grads[i]);
    } else if (native_->materialize_grads &&
               !(i < output_non_differentiable.size() && output_non_differentiable[i] &&
                 !py::getattr(ctx(), "_materialize_non_diff_grads", py::bool_(true)).cast<bool>())) {
      // ctx._materialize_non_diff_grads = False leaves the outputs without a gradient None.
      const InputMetadata& m = input_metadata()[i];
      args[1 + i] = py::cast(ops::zeros(m.shape, m.dtype));
    } else {
      args[1 + i] = py::none();
    }
  }
  struct InBackward {
    FunctionCtx* c;
    bool prev;
    ~InBackward() { c->in_backward = prev; }
  } in_backward{native_, native_->in_backward};
  native_->in_backward = true;
  py::object result = backward_fn(*args);
  if (!PyTuple_Check(result.ptr())) result = py::make_tuple(result);
  py::tuple res = result.cast<py::tuple>();
  const size_t n_in = input_is_tensor.size();
  size_t got = res.size();
  // Extra trailing Nones are accepted, as in PyTorch.
  while (got > n_in && res[got - 1].is_none()) --got;
  ENGINE_CHECK(got == n_in || (got < n_in && res.size() == n_in), std::runtime_error, "function ", name_,
               " returned an incorrect number of gradients (expected ", n_in, ", got ", res.size(), ")");
  variable_list out;
  out.reserve(next_edges_.size());
  for (size_t i = 0; i < n_in; ++i) {
    py::handle r = res[i];
    if (!input_is_tensor[i]) {
      ENGINE_CHECK(r.is_none(), std::runtime_error, "function ", name_,
                   " returned a gradient different than None at position ", i + 1,
                   ", but the corresponding forward input was not a Variable");
      continue;
    }
    if (r.is_none()) {
      out.emplace_back();
    } else {
      ENGINE_CHECK(is_tensor(r), std::runtime_error, "expected Variable or None (got ", type_name(r), ")");
      out.push_back(r.cast<Tensor>());
    }
  }
  return out;
}

namespace {

py::object function_apply(py::handle cls, py::args args, py::kwargs kwargs) {
  py::object info_obj = cls.attr("_engine_info");
  const FunctionInfo& info = info_obj.cast<const FunctionInfo&>();
  const bool has_setup = !info.setup_context.is_none();
  py::tuple inputs = bind_inputs(info, args, kwargs);

  const bool grad_on = GradMode::is_enabled();
  const size_t n_in = inputs.size();
  std::vector<Tensor> tensor_inputs;
  std::vector<bool> input_is_tensor(n_in, false);
  py::tuple needs(n_in);
  bool any_requires = false;
  for (size_t i = 0; i < n_in; ++i) {
    py::handle obj = inputs[i];
    bool needs_grad = false;
    if (is_tensor(obj)) {
      Tensor t = obj.cast<Tensor>();
      input_is_tensor[i] = true;
      // PyTorch's needs_input_grad reads the inputs alone, grad mode aside (a forward run
      // under no_grad still sees True); whether a node is recorded also asks grad mode.
      needs_grad = requires_grad(t);
      tensor_inputs.push_back(std::move(t));
    }
    any_requires = any_requires || (grad_on && needs_grad);
    needs[i] = py::bool_(needs_grad);
  }

  py::object ctx = info.backward_cls();
  FunctionCtx* native = ctx.cast<FunctionCtx*>();
  native->needs_input_grad = needs;
  std::shared_ptr<PyNode> node;
  if (any_requires) {
    native->owned_node =
        std::make_unique<PyNode>(ctx.ptr(), native, info.backward_name, info.name);
    native->owned_node->backward_fn = info.backward;
    node = share_node(*native);
    edge_list edges;
    for (const Tensor& t : tensor_inputs) edges.push_back(gradient_edge(t));
    node->mutable_next_edges() = std::move(edges);
    node->input_is_tensor = std::move(input_is_tensor);
  }

  py::object raw;
  {
    AutoGradMode no_grad(false);
    raw = info.forward_takes_ctx ? info.forward(ctx, *args, **kwargs) : info.forward(*args, **kwargs);
    if (has_setup) info.setup_context(ctx, inputs, raw);
  }

  // ---- wrap outputs ----
  const bool is_tuple = PyTuple_Check(raw.ptr());
  const bool wrappable = is_tuple || is_tensor(raw);
  std::vector<py::object> outs;
  if (is_tuple) {
    for (py::handle o : raw.cast<py::tuple>()) outs.push_back(py::reinterpret_borrow<py::object>(o));
  } else {
    outs.push_back(raw);
  }
  std::unordered_set<TensorImpl*> output_impls, returned_inputs;
  bool dirty_seen_all = true;
  for (py::handle d : native->dirty) {
    const bool is_input = std::any_of(tensor_inputs.begin(), tensor_inputs.end(),
                                      [&](const Tensor& i) { return i.is_same(d.cast<Tensor>()); });
    // A view of a value made in forward cannot be rebased as a modified input would be: refused
    // (a plain non-input only warns), as in PyTorch.
    ENGINE_CHECK(is_input || !d.cast<Tensor>().is_view(), std::runtime_error,
                 "ctx.mark_dirty() received a tensor that was not an input. Only input Tensors that have been "
                 "mutated should be passed to ctx.mark_dirty().");
    if (!is_input && PyErr_WarnEx(PyExc_UserWarning,
                                  "ctx.mark_dirty() received a tensor that was not an input. Only input Tensors that "
                                  "have been mutated should be passed to ctx.mark_dirty().",
                                  1) < 0) {
      throw py::error_already_set();
    }
    bool returned = false;
    for (auto& o : outs) returned = returned || (is_tensor(o) && o.cast<Tensor>().is_same(d.cast<Tensor>()));
    dirty_seen_all = dirty_seen_all && returned;
  }
  ENGINE_CHECK(dirty_seen_all, std::runtime_error,
               "Some elements marked as dirty during the forward method were not returned as output. The inputs that "
               "are modified inplace must all be outputs of the Function.");
  // How many tensors the Function returns: a view among several outputs is restricted as the
  // outputs of PyTorch's multi-output view ops are.
  size_t n_tensor_outs = 0;
  if (wrappable) {
    for (auto& o : outs) n_tensor_outs += is_tensor(o) ? 1 : 0;
  }
  if (wrappable) {
    for (auto& o : outs) {
      if (!is_tensor(o)) {
        if (node) {
          node->output_is_tensor.push_back(false);
          node->add_input_metadata(ops::empty({}, DType::Float32));
        }
        continue;
      }
      Tensor t = o.cast<Tensor>();
      const bool is_input = std::any_of(tensor_inputs.begin(), tensor_inputs.end(), [&](const Tensor& i) { return i.is_same(t); });
      if (is_input) returned_inputs.insert(t.get());
      if (!node) {
        // Nothing to differentiate (no_grad, or no input requires grad): as in PyTorch, no output
        // requires grad, even a leaf forward made with requires_grad=True, and an input returned
        // as-is comes back as a history-free alias rather than as the input itself, unless it was
        // written in place (ctx.mark_dirty) and requires no grad: that one is the caller's own
        // object, as in PyTorch (which detaches one that requires grad, dirty or not).
        if (is_input && (!contains(native->dirty, t) || requires_grad(t))) {
          t = detach(t);
          // A Tensor subclass comes back as an instance of its class, as in PyTorch.
          py::handle cls = py::type::handle_of(o);
          o = py::cast(t);
          if (!cls.is(py::type::handle_of(o))) o = o.attr("_alias_subclass")(cls, o);
        } else if (auto* m = autograd_meta(t)) {
          m->grad_fn.reset();
          m->requires_grad = false;
        }
        if (!is_input && t.is_view() && grad_on) {
          // A view made in forward still may not be written in place where that write would be
          // recorded (PyTorch marks it so without a graph too; see inplace.cpp). Called under
          // no_grad, the Function acts as an equivalent view op would there: the view keeps its
          // no_grad mark, follows its base's requires_grad, and refuses in-place writes made
          // later with grad mode on.
          t.get()->view_creation_meta = static_cast<uint8_t>(CreationMeta::InCustomFunction);
        }
        output_impls.insert(t.get());
        continue;
      }
      const bool dirty = contains(native->dirty, t);
      if (output_impls.count(t.get())) {
        // The same tensor returned again: the same object, its history moved to this later slot.
        node->output_is_tensor.push_back(true);
        set_history(t, node);
        continue;
      }
      if (dirty) {
        ENGINE_CHECK(!(is_leaf(t) && requires_grad(t)), std::runtime_error,
                     "a leaf Variable that requires grad has been used in an in-place operation.");
        if (t.is_view()) {
          Tensor base(t.get()->view_base);
          ENGINE_CHECK(!(is_leaf(base) && requires_grad(base)), std::runtime_error,
                       "a view of a leaf Variable that requires grad is being used in an in-place operation.");
          ENGINE_CHECK(n_tensor_outs <= 1, std::runtime_error,
                       "If your Function modifies inplace an input that is a view of another Tensor, your Function "
                       "cannot return more than one Tensor. This is not supported by the current autograd engine. "
                       "You should either make sure the input is not a view (using .clone() for example) or make "
                       "your Function only return one Tensor (potentially splitting it into two Functions: one "
                       "doing the inplace that returns a single Tensor and a second one that does the other "
                       "operations). You can ask on the forum https://discuss.pytorch.org/ if you need help to do "
                       "this change.");
        }
        t.bump_version();
      } else if (is_input || requires_grad(t)) {
        // An input returned as-is (or a tensor with history of its own) is returned as a new alias,
        // so the caller's tensor keeps its own history.
        t = t.as_strided(t.shape(), t.strides(), t.offset());
        o = py::cast(t);
      }
      node->output_is_tensor.push_back(true);
      // Marked non-differentiable, or of a type that has no gradient (a bool mask, indices): no
      // history, as in PyTorch.
      const bool differentiable = !contains(native->non_differentiable, t) && is_floating(t.dtype());
      node->output_non_differentiable.resize(node->output_is_tensor.size(), false);
      node->output_non_differentiable.back() = !differentiable;
      if (!differentiable) {
        node->add_input_metadata(t);
        if (auto* m = autograd_meta(t)) {
          m->requires_grad = false;
          m->grad_fn.reset();
        }
      } else {
        set_history(t, node);
        if (dirty && t.is_view()) ops::rebase_dirty_view(t);
        if (!dirty && t.is_view()) {
          // A view made in forward (or an input returned as-is): an in-place write to it would
          // bypass the custom backward, so it is refused (see inplace.cpp). The output's number and
          // the Function's name go in the slots multi-output views use for the same message.
          t.get()->view_creation_meta = static_cast<uint8_t>(n_tensor_outs > 1 ? CreationMeta::MultiOutput
                                                                                : CreationMeta::InCustomFunction);
          auto& m = ensure_autograd_meta(t);
          m.multi_output_fn = interned_name(node->producer_name());
          m.multi_output_nr = static_cast<uint32_t>(node->output_is_tensor.size() - 1);
        }
      }
      output_impls.insert(t.get());
    }
  }

  // ---- saved tensors ----
  auto is_output = [&](const Tensor& t) {
    return node && output_impls.count(t.get()) && !returned_inputs.count(t.get());
  };
  auto is_intermediate = [&](const Tensor& t) {
    if (!node || output_impls.count(t.get()) || grad_fn(t)) return false;
    for (const Tensor& i : tensor_inputs) {
      if (i.is_same(t)) return false;
    }
    return true;
  };
  if (native->has_saved) {
    std::vector<SavedTensor> saved;
    std::vector<bool> intermediate;
    const auto& hooks = hooks_stack();
    for (py::handle s : native->to_save) {
      if (s.is_none()) {
        saved.emplace_back();
        intermediate.push_back(false);
        continue;
      }
      Tensor t = s.cast<Tensor>();
      ENGINE_CHECK(!(has_setup && returned_inputs.count(t.get()) && node), std::runtime_error,
                   "An input that has been returned as-is as output is being saved for backward. This is not supported "
                   "if you override setup_context. You should return and save a view of the input instead, e.g. with "
                   "x.view_as(x) or setup ctx inside the forward function itself.");
      if (node && !hooks.empty()) {
        // saved_tensors_hooks: keep what pack returns instead of the tensor.
        native->packed.resize(native->to_save.size());
        native->packed[saved.size()] = {hooks.back().second, hooks.back().first(s)};
        saved.emplace_back();
        intermediate.push_back(false);
        continue;
      }
      saved.emplace_back(t, is_output(t));
      intermediate.push_back(is_intermediate(t));
      if (intermediate.back() && !py::type::handle_of(s).is(plain_tensor_type())) {
        native->subclass_saved.resize(native->to_save.size());
        native->subclass_saved[saved.size() - 1] = py::reinterpret_borrow<py::object>(s);
      }
    }
    native->saved = std::move(saved);
    native->saved_intermediate = std::move(intermediate);
    native->to_save = py::tuple();
  }
  native->non_differentiable = py::tuple();
  native->dirty = py::tuple();

  // ---- tensor attributes: moved out of __dict__ into native slots read through a descriptor ----
  if (node) {
    PyObject** dict_ptr = _PyObject_GetDictPtr(ctx.ptr());
    if (dict_ptr && *dict_ptr && PyDict_GET_SIZE(*dict_ptr) > 0) {
      py::dict d = py::reinterpret_borrow<py::dict>(*dict_ptr);
      std::vector<py::object> names;
      for (auto kv : d) {
        if (is_tensor(kv.second) && PyUnicode_Check(kv.first.ptr())) names.push_back(py::reinterpret_borrow<py::object>(kv.first));
      }
      for (auto& name : names) {
        if (!ensure_attr_descriptor(info.backward_cls, name)) continue;
        Tensor t = py::reinterpret_borrow<py::object>(PyDict_GetItem(d.ptr(), name.ptr())).cast<Tensor>();
        // Plain ctx attributes are not saved tensors: saved_tensors_hooks leave them alone.
        const bool hooks_on = saved_tensor_hooks_active();
        set_saved_tensor_hooks_active(false);
        native->attrs.push_back({name, SavedTensor(t, is_output(t)), is_intermediate(t)});
        set_saved_tensor_hooks_active(hooks_on);
        PyDict_DelItem(d.ptr(), name.ptr());
      }
    }
    if (AnomalyMode::enabled()) py::module_::import("engine.autograd.anomaly_mode").attr("_record")(ctx);
  }

  if (!wrappable) return raw;
  if (!is_tuple) return outs[0];
  py::tuple result(outs.size());
  for (size_t i = 0; i < outs.size(); ++i) result[i] = outs[i];
  return std::move(result);
}

std::shared_ptr<PyNode> node_of(FunctionCtx& c) { return share_node(c); }

}  // namespace

void init_function(py::module_& m) {
  py::class_<FunctionInfo>(m, "_FunctionInfo")
      .def(py::init([](py::object forward, py::object setup_context, py::object backward_cls, std::string name,
                       bool forward_takes_ctx, int64_t nparams, py::tuple defaults, py::object binder) {
        FunctionInfo i;
        i.forward = std::move(forward);
        i.setup_context = std::move(setup_context);
        i.backward_cls = std::move(backward_cls);
        i.name = std::move(name);
        i.backward_name = py::str(i.backward_cls.attr("__name__"));
        i.backward = i.backward_cls.attr("_engine_backward");
        i.forward_takes_ctx = forward_takes_ctx;
        i.nparams = nparams;
        i.defaults = std::move(defaults);
        i.binder = std::move(binder);
        return i;
      }));

  // The ctx takes part in the cycle GC with its __dict__ (py::dynamic_attr) and the Python hooks
  // of the node it owns: a hook whose closure refers to the ctx makes a cycle through native code.
  // While the graph holds the node it also holds a reference to the ctx, so such a cycle is only
  // collected once the graph is gone.
  py::class_<FunctionCtx>(m, "_FunctionCtx", py::dynamic_attr(), py::custom_type_setup([](PyHeapTypeObject* heap_type) {
    PyTypeObject* type = &heap_type->ht_type;
    // The collector can run while pybind11 is still laying an instance out (the first instance
    // of a new ctx subclass fills pybind11's type cache, which allocates): there is no value or
    // holder to look at yet (the zeroed instance has neither layout), and nothing to visit.
    static constexpr auto laid_out = [](PyObject* self) {
      auto* inst = reinterpret_cast<py::detail::instance*>(self);
      return inst->simple_layout || inst->nonsimple.values_and_holders != nullptr;
    };
    type->tp_traverse = [](PyObject* self, visitproc visit, void* arg) -> int {
      if (int r = py::detail::pybind11_traverse(self, visit, arg)) return r;
      if (!laid_out(self)) return 0;
      auto v_h = reinterpret_cast<py::detail::instance*>(self)->get_value_and_holder();
      if (!v_h.holder_constructed()) return 0;
      auto* c = v_h.value_ptr<FunctionCtx>();
      return c && c->owned_node ? traverse_node_hooks(*c->owned_node, visit, arg) : 0;
    };
    type->tp_clear = [](PyObject* self) -> int {
      if (!laid_out(self)) return py::detail::pybind11_clear(self);
      auto v_h = reinterpret_cast<py::detail::instance*>(self)->get_value_and_holder();
      if (v_h.holder_constructed()) {
        auto* c = v_h.value_ptr<FunctionCtx>();
        if (c && c->owned_node) clear_node_hooks(*c->owned_node);
      }
      return py::detail::pybind11_clear(self);
    };
  }))
      .def(py::init<>())
      .def("save_for_backward", [](FunctionCtx& c, py::args tensors) {
        for (size_t i = 0; i < tensors.size(); ++i) {
          ENGINE_CHECK(tensors[i].is_none() || is_tensor(tensors[i]), engine::TypeError,
                       "save_for_backward can only save variables, but argument ", i, " is of type ",
                       type_name(tensors[i]));
        }
        // Called again in backward (code that reruns forward there, with the same ctx): PyTorch keeps
        // what forward saved, so later reads of saved_tensors (retain_graph, gradcheck) still see it.
        if (c.in_backward) return;
        c.to_save = tensors;
        c.has_saved = true;
      })
      .def_property_readonly("saved_tensors", [](FunctionCtx& c) -> py::tuple {
        if (c.to_save.size() > 0) return py::tuple();  // still inside forward: nothing is saved yet
        return c.saved_tensors(node_of(c));
      })
      .def("_release_saved_tensors", [](FunctionCtx& c) {
        // clear_saved_tensors_on_access: the first read of saved_tensors is the last.
        for (auto& t : c.saved) t.reset();
        c.packed.clear();
        c.saved_released = true;
      })
      .def_property_readonly("_raw_saved_tensors", [](FunctionCtx& c) -> py::tuple {
        ENGINE_CHECK(!c.saved_released, std::runtime_error, kSavedTensorsFreedMessage);
        auto n = node_of(c);
        if (!n || !c.has_saved) return py::tuple();
        py::tuple out(c.saved.size());
        for (size_t i = 0; i < c.saved.size(); ++i) out[i] = raw_saved_tensor_ref(n, std::to_string(i));
        return out;
      })
      .def_property_readonly("needs_input_grad", [](const FunctionCtx& c) { return c.needs_input_grad; })
      .def("set_materialize_grads", [](FunctionCtx& c, bool v) { c.materialize_grads = v; })
      .def("mark_non_differentiable", [](FunctionCtx& c, py::args tensors) {
        for (py::handle t : tensors) {
          ENGINE_CHECK(is_tensor(t), std::runtime_error, "mark_non_differentiable only accepts variable arguments, but got ",
                       type_name(t));
        }
        c.non_differentiable = tensors;
      })
      .def("mark_dirty", [](FunctionCtx& c, py::args tensors) {
        for (py::handle t : tensors) {
          ENGINE_CHECK(is_tensor(t), std::runtime_error, "mark_dirty can only accept variables, but argument ",
                       type_name(t));
        }
        c.dirty = tensors;
      })
      .def_property_readonly("next_functions", [](FunctionCtx& c) {
        auto n = node_of(c);
        py::tuple out(n ? n->next_edges().size() : 0);
        for (size_t i = 0; n && i < n->next_edges().size(); ++i) {
          const Edge& e = n->next_edges()[i];
          out[i] = py::make_tuple(node_to_py(e.function), e.input_nr);
        }
        return out;
      });

  def_function_apply(m, &function_apply);

  py::class_<CtxTensorAttr>(m, "_CtxTensorAttr")
      .def("__get__", [](const CtxTensorAttr& self, py::handle obj, py::handle) -> py::object {
        if (obj.is_none()) return py::cast(self);
        FunctionCtx& c = obj.cast<FunctionCtx&>();
        if (FunctionCtx::Attr* a = find_attr(c, self.name.ptr())) {
          return py::cast(c.unpack(a->value, a->intermediate, node_of(c), str_cat("ctx.", py::str(self.name).cast<std::string>())));
        }
        PyObject** dict = _PyObject_GetDictPtr(obj.ptr());
        if (dict && *dict) {
          if (PyObject* v = PyDict_GetItemWithError(*dict, self.name.ptr())) return py::reinterpret_borrow<py::object>(v);
        }
        throw py::attribute_error(str_cat("'", type_name(obj), "' object has no attribute '",
                                          py::str(self.name).cast<std::string>(), "'"));
      })
      .def("__set__", [](const CtxTensorAttr& self, py::handle obj, py::object value) {
        drop_attr(obj.cast<FunctionCtx&>(), self.name.ptr());
        py::getattr(obj, "__dict__")[self.name] = value;
      })
      .def("__delete__", [](const CtxTensorAttr& self, py::handle obj) {
        FunctionCtx& c = obj.cast<FunctionCtx&>();
        if (find_attr(c, self.name.ptr())) {
          drop_attr(c, self.name.ptr());
          return;
        }
        py::dict d = py::getattr(obj, "__dict__");
        if (!d.contains(self.name)) throw py::attribute_error(py::str(self.name).cast<std::string>());
        PyDict_DelItem(d.ptr(), self.name.ptr());
      });

  m.def("_push_saved_tensors_hooks", [](py::object pack, py::object unpack) {
    hooks_stack().emplace_back(std::move(pack), std::move(unpack));
    set_saved_tensor_hooks_active(true);
  });
  m.def("_pop_saved_tensors_hooks", [] {
    auto& st = hooks_stack();
    if (!st.empty()) st.pop_back();
    set_saved_tensor_hooks_active(!st.empty());
  });

  // once_differentiable: results of a backward run without graph, wrapped so that differentiating
  // them raises (only when some incoming gradient requires grad, as in PyTorch).
  m.def("_once_differentiable_wrap", [](py::object result, py::args grads) -> py::object {
    if (!GradMode::is_enabled()) return result;
    bool any = false;
    for (py::handle g : grads) any = any || (is_tensor(g) && requires_grad(g.cast<Tensor>()));
    if (!any) return result;
    const bool single = !PyTuple_Check(result.ptr());
    py::tuple items = single ? py::make_tuple(result) : result.cast<py::tuple>();
    // As PyTorch's DelayedError: the error node's inputs are detached leaves standing for the
    // results (one edge per result, none for a non-tensor), not the incoming gradients' history.
    variable_list values;
    edge_list next;
    for (py::handle r : items) {
      Tensor leaf;
      if (is_tensor(r)) {
        leaf = detach(r.cast<Tensor>());
        set_requires_grad(leaf, true);
      }
      next.push_back(leaf.defined() ? gradient_edge(leaf) : Edge());
      values.push_back(std::move(leaf));
    }
    variable_list wrapped = wrap_in_error(
        values, "trying to differentiate twice a function that was marked with @once_differentiable", next);
    py::tuple out(items.size());
    for (size_t i = 0; i < items.size(); ++i) {
      out[i] = wrapped[i].defined() ? py::cast(wrapped[i]) : py::reinterpret_borrow<py::object>(items[i]);
    }
    return single ? py::object(out[0]) : py::object(out);
  });

  AnomalyMode::report = [](Node& node) {
    py::gil_scoped_acquire gil;
    try {
      // The node's Python object, whose metadata holds the forward traceback (if one was recorded).
      py::object py_node = node_to_py(node.shared_from_this());
      py::module_::import("engine.autograd.anomaly_mode").attr("_report")(py_node, node.name());
    } catch (py::error_already_set& e) {
      // A warning turned into an error must not hide the failure being reported: its text goes to
      // stderr instead, as PyTorch's does.
      try {
        py::module_::import("sys").attr("stderr").attr("write")(py::str(e.value()).cast<std::string>() + "\n");
      } catch (py::error_already_set& again) {
        again.discard_as_unraisable(__func__);
      }
    }
  };
}

std::vector<std::pair<py::object, py::object>>& saved_tensors_hooks_stack() { return hooks_stack(); }

}  // namespace engine::python
