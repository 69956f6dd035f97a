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
// defer_release for a plain function and argument, with no DeferredRelease object to allocate
// (one per custom node); defined in autograd/node.cpp beside defer_release.
void defer_release_call(void (*release)(void*), void* arg);
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

// Holds the GIL for its scope, taken through CPython's own per-thread state: where the thread
// holds it already (the common case) this is a counter increment, a fraction of what pybind11's
// gil_scoped_acquire spends looking up its internals.
class GilHold {
 public:
  GilHold() : state_(PyGILState_Ensure()) {}
  ~GilHold() { PyGILState_Release(state_); }
  GilHold(const GilHold&) = delete;
  GilHold& operator=(const GilHold&) = delete;

 private:
  PyGILState_STATE state_;
};

// Drops a ctx reference (the argument, a PyObject*); run through the node teardown
// (defer_release_call), so a long chain of custom nodes (each owned by its ctx) is freed
// iteratively rather than by nested deallocations.
void release_ctx(void* obj) {
  GilHold gil;
  Py_DECREF(static_cast<PyObject*>(obj));
}

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

// `kwargs`: a non-empty dict, or null.
py::tuple bind_inputs(const FunctionInfo& info, const py::tuple& args, const py::object& kwargs) {
  if (!info.setup_context || info.setup_context.is_none()) {
    // Without setup_context every argument counts as given, keyword arguments after positional ones.
    if (!kwargs) return args;
    py::list all(args);
    for (auto kv : py::reinterpret_borrow<py::dict>(kwargs)) all.append(kv.second);
    return py::tuple(all);
  }
  const int64_t n = static_cast<int64_t>(args.size());
  const int64_t ndef = static_cast<int64_t>(info.defaults.size());
  if (!kwargs && info.nparams >= 0 && n <= info.nparams && n >= info.nparams - ndef) {
    if (n == info.nparams) return args;
    py::tuple out(info.nparams);
    for (int64_t i = 0; i < n; ++i) out[i] = args[i];
    for (int64_t i = n; i < info.nparams; ++i) out[i] = info.defaults[i - (info.nparams - ndef)];
    return out;
  }
  ENGINE_CHECK(!info.binder.is_none(), std::logic_error, "Function binder missing");
  py::dict keywords = kwargs ? py::reinterpret_borrow<py::dict>(kwargs) : py::dict();
  return info.binder(*args, **keywords).cast<py::tuple>();
}

// fn(first, *args, **kwargs), `first` left out when null and `kwargs` a dict or null, through
// vectorcall: the common positional call builds no argument tuple or dict.
py::object call_forward(PyObject* fn, PyObject* first, const py::tuple& args, PyObject* kwargs) {
  const Py_ssize_t n = PyTuple_GET_SIZE(args.ptr());
  const Py_ssize_t nkw = kwargs ? PyDict_GET_SIZE(kwargs) : 0;
  const Py_ssize_t total = (first ? 1 : 0) + n + nkw;
  // Borrowed references: the caller holds `first`, `args` and `kwargs` for the call.
  PyObject* inline_stack[9];
  std::vector<PyObject*> heap;
  PyObject** stack = inline_stack;
  if (total + 1 > 9) {
    heap.resize(static_cast<size_t>(total) + 1);
    stack = heap.data();
  }
  Py_ssize_t k = 1;  // slot 0 is the callee's to use (PY_VECTORCALL_ARGUMENTS_OFFSET)
  if (first) stack[k++] = first;
  for (Py_ssize_t i = 0; i < n; ++i) stack[k++] = PyTuple_GET_ITEM(args.ptr(), i);
  py::tuple names;
  if (nkw) {
    names = py::tuple(nkw);
    Py_ssize_t pos = 0, j = 0;
    PyObject *key, *value;
    while (PyDict_Next(kwargs, &pos, &key, &value)) {
      stack[k++] = value;
      Py_INCREF(key);
      PyTuple_SET_ITEM(names.ptr(), j++, key);
    }
  }
  PyObject* r = PyObject_Vectorcall(fn, stack + 1, static_cast<size_t>(total - nkw) | PY_VECTORCALL_ARGUMENTS_OFFSET,
                                    nkw ? names.ptr() : nullptr);
  if (!r) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(r);
}

// The types whose instances apply reads natively (set by init_function).
PyTypeObject* g_info_type = nullptr;
PyTypeObject* g_ctx_type = nullptr;
const py::detail::type_info* g_ctx_tinfo = nullptr;

// cls._engine_info (kept alive in `keep`): read from the class's attribute cache and the instance's
// value pointer directly where it is the _FunctionInfo every Function subclass gets, by getattr
// and pybind11's cast otherwise.
const FunctionInfo& function_info(py::handle cls, py::object& keep) {
  static PyObject* const name = PyUnicode_InternFromString("_engine_info");
  if (PyType_Check(cls.ptr())) {
    PyObject* found = _PyType_Lookup(reinterpret_cast<PyTypeObject*>(cls.ptr()), name);
    if (found && Py_TYPE(found) == g_info_type) {
      auto* inst = reinterpret_cast<py::detail::instance*>(found);
      if (inst->simple_layout && inst->simple_holder_constructed) {
        keep = py::reinterpret_borrow<py::object>(found);
        return *inst->get_value_and_holder().value_ptr<FunctionInfo>();
      }
    }
  }
  keep = cls.attr(name);
  return keep.cast<const FunctionInfo&>();
}

// A new ctx of `type` (the class's <Name>Backward), made as type() makes it but without pybind11's
// constructor dispatch: tp_new gives the instance, and the native state and its holder are
// constructed where py::init<>() would construct them. The instance stays out of pybind11's registry
// of C++ pointers (a hash insert now and an erase at deallocation, per call): nothing converts a
// FunctionCtx pointer back to its Python object (a node keeps that object itself), and
// deallocation deregisters only registered instances. A type with an __init__ (or __new__) of its
// own is called normally.
std::pair<py::object, FunctionCtx*> new_ctx(const py::object& type) {
  auto* t = reinterpret_cast<PyTypeObject*>(type.ptr());
  if (PyType_Check(type.ptr()) && t->tp_new == g_ctx_type->tp_new && t->tp_init == g_ctx_type->tp_init) {
    static PyObject* const no_args = PyTuple_New(0);
    py::object obj = py::reinterpret_steal<py::object>(t->tp_new(t, no_args, nullptr));
    if (!obj) throw py::error_already_set();
    auto* inst = reinterpret_cast<py::detail::instance*>(obj.ptr());
    if (inst->simple_layout) {
      py::detail::value_and_holder v_h(inst, g_ctx_tinfo, 0, 0);
      auto* native = new FunctionCtx();
      v_h.value_ptr() = native;
      using Holder = std::unique_ptr<FunctionCtx>;
      new (std::addressof(v_h.holder<Holder>())) Holder(native);
      v_h.set_holder_constructed();
      return {std::move(obj), native};
    }
    // Several native bases: pybind11's own __init__ finds this one's slot.
    if (t->tp_init(obj.ptr(), no_args, nullptr) < 0) throw py::error_already_set();
    return {obj, obj.cast<FunctionCtx*>()};
  }
  py::object obj = type();
  return {obj, obj.cast<FunctionCtx*>()};
}

// A set of TensorImpl pointers (a Function's outputs): an inline list scanned for the few a
// Function returns, a hash set once there are many.
class ImplSet {
 public:
  void insert(TensorImpl* p) {
    if (count(p)) return;
    if (!hashed_.empty() || few_.size() == kFew) {
      if (hashed_.empty()) hashed_.insert(few_.begin(), few_.end());
      hashed_.insert(p);
      return;
    }
    few_.push_back(p);
  }
  size_t count(TensorImpl* p) const {
    if (!hashed_.empty()) return hashed_.count(p);
    for (TensorImpl* q : few_) {
      if (q == p) return 1;
    }
    return 0;
  }

 private:
  static constexpr size_t kFew = 16;
  SmallVector<TensorImpl*, kFew> few_;
  std::unordered_set<TensorImpl*> hashed_;
};

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
  if (intermediate && in_backward && owner && GradMode::is_enabled() && t.defined() &&
      (is_floating(t.dtype()) || is_complex(t.dtype())) &&
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
  std::shared_ptr<PyNode> n(c.owned_node.get(), [ctx](PyNode*) { defer_release_call(&release_ctx, ctx); },
                            ObjectAllocator<PyNode>());
  c.node = n;
  return n;
}

PyNode::PyNode(PyObject* ctx, FunctionCtx* native, py::object info, const std::string* name,
               const std::string* forward_name)
    : ctx_(ctx), native_(native), info_(std::move(info)), name_(name), forward_name_(forward_name) {}

void PyNode::visit_saved(const SavedVisitor& visit) {
  for (size_t i = 0; i < native_->saved.size(); ++i) {
    const std::string name = std::to_string(i);
    visit(name.c_str(), native_->saved[i]);
  }
}

void PyNode::release_variables() {
  // Most custom nodes save nothing: no GIL to take (the pass runs without it) for those.
  if (!native_->has_saved.load(std::memory_order_acquire)) return;
  GilHold gil;
  for (auto& s : native_->saved) s.reset();
  native_->subclass_saved.clear();
  native_->saved_released = true;
}

namespace {
// The positional arguments of one vectorcall, owned: kept inline for a few, with the slot before
// them free for the callee (PY_VECTORCALL_ARGUMENTS_OFFSET), so no argument tuple is built.
class CallArgs {
 public:
  explicit CallArgs(size_t n) : n_(n) {
    if (n + 1 > kInline) {
      heap_.resize(n + 1);
      p_ = heap_.data();
    }
    std::fill(p_, p_ + n + 1, nullptr);
  }
  ~CallArgs() {
    for (size_t i = 1; i <= n_; ++i) Py_XDECREF(p_[i]);
  }
  CallArgs(const CallArgs&) = delete;
  CallArgs& operator=(const CallArgs&) = delete;
  // Takes the reference.
  void set(size_t i, PyObject* o) { p_[i + 1] = o; }
  py::object call(PyObject* fn) const {
    PyObject* r = PyObject_Vectorcall(fn, p_ + 1, n_ | PY_VECTORCALL_ARGUMENTS_OFFSET, nullptr);
    if (!r) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(r);
  }

 private:
  static constexpr size_t kInline = 10;
  size_t n_;
  PyObject* inline_[kInline];
  std::vector<PyObject*> heap_;
  PyObject** p_ = inline_;
};
}  // namespace

variable_list PyNode::apply(variable_list&& grads) {
  GilHold gil;
  const size_t n_out = output_is_tensor.size();
  CallArgs args(1 + n_out);
  args.set(0, py::reinterpret_borrow<py::object>(ctx_).release().ptr());
  for (size_t i = 0; i < n_out; ++i) {
    if (!output_is_tensor[i]) {
      args.set(1 + i, py::none().release().ptr());
    } else if (grads[i].defined()) {
      args.set(1 + i, py::cast(grads[i]).release().ptr());
    } else if (native_->materialize_grads &&
               !(i < output_non_differentiable.size() && output_non_differentiable[i] &&
                 !py::getattr(ctx(), "_materialize_non_diff_grads", py::bool_(true)).cast<bool>())) {
      // ctx._materialize_non_diff_grads = False leaves the outputs without a gradient None.
      const InputMetadata& m = input_metadata()[i];
      args.set(1 + i, py::cast(ops::zeros(m.shape, m.dtype)).release().ptr());
    } else {
      args.set(1 + i, py::none().release().ptr());
    }
  }
  struct InBackward {
    FunctionCtx* c;
    bool prev;
    ~InBackward() { c->in_backward = prev; }
  } in_backward{native_, native_->in_backward};
  native_->in_backward = true;
  py::object result = args.call(backward_fn.ptr());
  // One gradient or a tuple of them (read in place: no tuple is built around a single one).
  PyObject* single = result.ptr();
  PyObject* const* items = &single;
  size_t size = 1;
  if (PyTuple_Check(result.ptr())) {
    items = &PyTuple_GET_ITEM(result.ptr(), 0);
    size = static_cast<size_t>(PyTuple_GET_SIZE(result.ptr()));
  }
  struct {
    PyObject* const* items;
    size_t n;
    size_t size() const { return n; }
    py::handle operator[](size_t i) const { return items[i]; }
  } res{items, size};
  const size_t n_in = input_is_tensor.size();
  size_t got = res.size();
  // Extra trailing Nones are accepted, as in PyTorch.
  while (got > n_in && res[got - 1].is_none()) --got;
  ENGINE_CHECK(got == n_in || (got < n_in && res.size() == n_in), std::runtime_error, "function ", *name_,
               " returned an incorrect number of gradients (expected ", n_in, ", got ", res.size(), ")");
  variable_list out;
  out.reserve(next_edges_.size());
  for (size_t i = 0; i < n_in; ++i) {
    py::handle r = res[i];
    if (!input_is_tensor[i]) {
      ENGINE_CHECK(r.is_none(), std::runtime_error, "function ", *name_,
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

py::object function_apply(py::handle cls, py::tuple args, py::object kwargs) {
  py::object info_obj;
  const FunctionInfo& info = function_info(cls, info_obj);
  if (kwargs && PyDict_GET_SIZE(kwargs.ptr()) == 0) kwargs = py::object();
  const bool has_setup = !info.setup_context.is_none();
  py::tuple inputs = bind_inputs(info, args, kwargs);

  const bool grad_on = GradMode::is_enabled();
  const size_t n_in = inputs.size();
  // Per-call lists come from the small-object lists (see allocate_object), as do the ctx and node.
  std::vector<Tensor, ObjectAllocator<Tensor>> tensor_inputs;
  tensor_inputs.reserve(n_in);
  PyNode::Flags input_is_tensor(n_in, false);
  py::tuple needs(n_in);
  bool any_requires = false;
  for (size_t i = 0; i < n_in; ++i) {
    PyObject* obj = PyTuple_GET_ITEM(inputs.ptr(), static_cast<Py_ssize_t>(i));
    bool needs_grad = false;
    if (const auto* holder = tensor_holder(obj); holder && *holder) {
      Tensor t(*holder);
      input_is_tensor[i] = true;
      // PyTorch's needs_input_grad reads the inputs alone, grad mode aside (a forward run
      // under no_grad still sees True); whether a node is recorded also asks grad mode.
      needs_grad = requires_grad(t);
      tensor_inputs.push_back(std::move(t));
    } else if (is_tensor(obj)) {
      Tensor t = py::handle(obj).cast<Tensor>();
      input_is_tensor[i] = true;
      needs_grad = requires_grad(t);
      tensor_inputs.push_back(std::move(t));
    }
    any_requires = any_requires || (grad_on && needs_grad);
    PyObject* flag = needs_grad ? Py_True : Py_False;
    Py_INCREF(flag);
    PyTuple_SET_ITEM(needs.ptr(), static_cast<Py_ssize_t>(i), flag);
  }

  auto [ctx, native] = new_ctx(info.backward_cls);
  native->needs_input_grad = needs;
  std::shared_ptr<PyNode> node;
  if (any_requires) {
    native->owned_node = std::make_unique<PyNode>(ctx.ptr(), native, info_obj, &info.backward_name, &info.name);
    native->owned_node->backward_fn = info.backward;
    node = share_node(*native);
    edge_list edges;
    edges.reserve(tensor_inputs.size());
    for (const Tensor& t : tensor_inputs) edges.push_back(gradient_edge(t));
    node->mutable_next_edges() = std::move(edges);
    node->input_is_tensor = std::move(input_is_tensor);
  }

  py::object raw;
  {
    AutoGradMode no_grad(false);
    raw = call_forward(info.forward.ptr(), info.forward_takes_ctx ? ctx.ptr() : nullptr, args, kwargs.ptr());
    if (has_setup) {
      PyObject* setup_args[4] = {nullptr, ctx.ptr(), inputs.ptr(), raw.ptr()};
      PyObject* r = PyObject_Vectorcall(info.setup_context.ptr(), setup_args + 1, 3 | PY_VECTORCALL_ARGUMENTS_OFFSET,
                                        nullptr);
      if (!r) throw py::error_already_set();
      Py_DECREF(r);
    }
  }

  // ---- wrap outputs ----
  const bool is_tuple = PyTuple_Check(raw.ptr());
  const bool wrappable = is_tuple || is_tensor(raw);
  std::vector<py::object, ObjectAllocator<py::object>> outs;
  outs.reserve(is_tuple ? static_cast<size_t>(PyTuple_GET_SIZE(raw.ptr())) : 1);
  if (node) node->reserve_input_metadata(outs.capacity());
  if (is_tuple) {
    for (py::handle o : raw.cast<py::tuple>()) outs.push_back(py::reinterpret_borrow<py::object>(o));
  } else {
    outs.push_back(raw);
  }
  // The outputs' and the returned inputs' impls: a Function returns a few tensors, so a scan of an
  // inline list beats a hash set and its allocations.
  ImplSet output_impls, returned_inputs;
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
      const bool differentiable = !contains(native->non_differentiable, t) &&
                                  (is_floating(t.dtype()) || is_complex(t.dtype()));
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
        // saved_tensors_hooks: keep what pack returns instead of the tensor, with the tensor's place
        // in the graph, so that unpacking gives, as PyTorch's SavedVariable does, a new tensor that
        // carries the saved one's history (its grad_fn, or a leaf's accumulator).
        py::object packed = hooks.back().first(s);
        struct Pause {  // the SavedTensor below records the tensor; the pack hook already ran
          bool was = saved_tensor_hooks_active();
          Pause() { set_saved_tensor_hooks_active(false); }
          ~Pause() { set_saved_tensor_hooks_active(was); }
        };
        SavedTensor kept;
        {
          Pause pause;
          kept = SavedTensor(t, is_output(t));
        }
        kept.set_packed(hook_packed_tensor(hooks.back().second, std::move(packed)));
        saved.push_back(std::move(kept));
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

  // The module keeps both types: borrowed pointers for apply's checks.
  g_info_type = reinterpret_cast<PyTypeObject*>(m.attr("_FunctionInfo").ptr());
  g_ctx_type = reinterpret_cast<PyTypeObject*>(m.attr("_FunctionCtx").ptr());
  g_ctx_tinfo = py::detail::get_type_info(typeid(FunctionCtx));
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
