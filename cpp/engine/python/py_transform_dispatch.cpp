// The one place function transforms (forward-mode AD, vmap) enter native calls.
//
// A transform marks the tensors it owns by attaching a Python object to them (TensorImpl's
// extension slot): a dual tensor's tangent, a batched tensor's batch dimension. While at least one
// transform is active (a dual level or a vmap is open), every call into this module whose
// arguments include a marked tensor goes to the handler engine's Python layer installed
// (engine._transforms.dispatch), as handler(function, args, kwargs); the handler unwraps, runs the
// op's rule and wraps the result. With no transform active the cost is one integer test per call.
//
// A few functions take no marked tensor yet still belong to the transforms: random creation
// (`randn(3)` inside a vmapped function follows vmap's `randomness`) and `Function.apply` (an
// old-style Function is refused under any engine.func transform). They are registered with a
// *condition*, a counter engine's Python layer keeps (open vmap levels, open engine.func levels);
// while it is positive, calls to them go to the handler too. Autocast uses the same door: while a
// region is on, the ops its policy casts go to the handler, which casts their inputs. The handler runs the function itself
// through `_call_unrouted`, which lets exactly the next call through.
//
// The meta device uses the same door (engine._meta_dispatch): once a meta tensor or a meta device
// argument has been seen, calls with a meta tensor among their arguments, calls with a keyword
// `device` naming the meta device, and (while the default device is meta) calls of the factory
// functions registered with `_route_meta_factory` go to the handler, which works out the result's
// shape, strides and dtype without data.
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "engine/core/error.h"
#include "engine/core/fast_tls.h"
#include "engine/python/bindings.h"
#include "engine/python/py_transform_dispatch.h"

namespace engine::python {

namespace {

// The Python object a transform attached; released with the GIL held, whichever thread drops the
// last reference to the tensor.
struct PyTensorExtension final : TensorExtension {
  explicit PyTensorExtension(py::object o) : state(std::move(o)) {}
  ~PyTensorExtension() override {
    if (!Py_IsInitialized()) {
      (void)state.release();  // the interpreter is gone: nothing left to free it into
      return;
    }
    py::gil_scoped_acquire gil;
    state = py::object();
  }
  py::object state;
};

int g_active_transforms = 0;
ENGINE_FAST_TLS thread_local bool t_paused = false;
// Counters of the conditions under which registered functions are routed without a marked
// argument, and whether the next call on this thread skips that routing once.
// (0: an engine.func transform is open, 1: vmap is open, 2: an autocast region is on.)
constexpr int kRouteConditions = 3;
int g_route_counters[kRouteConditions] = {0, 0, 0};

bool any_route_condition() {
  for (int c : g_route_counters) {
    if (c > 0) return true;
  }
  return false;
}
ENGINE_FAST_TLS thread_local bool t_skip_unmarked = false;
// Set once a meta tensor exists (or a meta device was asked for): from then on meta tensors count as
// marked. Cleared never: until then, calls pay nothing for the meta device.
bool g_meta_routing = false;
// Whether the default device is meta (engine.set_default_device / `with engine.device("meta")`).
bool g_default_meta = false;
std::unordered_set<PyObject*>& meta_factories() {
  static auto* set = new std::unordered_set<PyObject*>();
  return *set;
}
py::object* g_handler = nullptr;  // leaked on purpose: it must outlive module teardown order
// pybind11 calls its dispatcher with the function's capsule as `self`: this maps it back to the
// function object the user called, which is what the handler is given.
std::unordered_map<PyObject*, PyObject*>& function_of_self() {
  static auto* map = new std::unordered_map<PyObject*, PyObject*>();
  return *map;
}

// The functions that read and write the marks themselves are never routed.
std::unordered_set<PyObject*>& exempt() {
  static auto* set = new std::unordered_set<PyObject*>();
  return *set;
}

// Functions routed without a marked argument -> the condition (index of a counter) they need.
std::unordered_map<PyObject*, int>& routed_unmarked() {
  static auto* map = new std::unordered_map<PyObject*, int>();
  return *map;
}

bool has_state(PyObject* obj) {
  if (!is_tensor(obj)) return false;
  auto* inst = reinterpret_cast<py::detail::instance*>(obj);
  auto vh = inst->get_value_and_holder();
  if (!vh.holder_constructed()) return false;
  const auto& impl = vh.holder<std::shared_ptr<TensorImpl>>();
  return impl && (impl->extension || (g_meta_routing && impl->storage->is_meta()));
}

// Whether keyword `device` names the meta device ("meta", "meta:0" or engine.device("meta")).
bool asks_meta_device(PyObject* const* args, Py_ssize_t nargsf, PyObject* kwnames) {
  const Py_ssize_t n = PyVectorcall_NARGS(nargsf);
  for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(kwnames); ++k) {
    PyObject* name = PyTuple_GET_ITEM(kwnames, k);
    if (PyUnicode_GET_LENGTH(name) != 6 || PyUnicode_CompareWithASCIIString(name, "device") != 0) continue;
    PyObject* value = args[n + k];
    if (value == Py_None) return false;
    PyObject* text = PyUnicode_Check(value) ? (Py_INCREF(value), value) : PyObject_Str(value);
    if (!text) {
      PyErr_Clear();
      return false;
    }
    const bool meta = PyUnicode_Tailmatch(text, py::str("meta").ptr(), 0, 4, -1) == 1 &&
                      (PyUnicode_GET_LENGTH(text) == 4 || PyUnicode_ReadChar(text, 4) == ':');
    Py_DECREF(text);
    return meta;
  }
  return false;
}

bool any_marked(PyObject* obj) {
  if (has_state(obj)) return true;
  if (PyList_Check(obj) || PyTuple_Check(obj)) {
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(obj);
    PyObject** items = PySequence_Fast_ITEMS(obj);
    for (Py_ssize_t i = 0; i < n; ++i) {
      if (has_state(items[i])) return true;
    }
  }
  return false;
}

}  // namespace

bool transform_dispatch_wanted(PyObject* self, PyObject* const* args, Py_ssize_t nargsf, PyObject* kwnames) {
  const bool skip_unmarked = t_skip_unmarked;
  t_skip_unmarked = false;
  if (t_paused || !g_handler) return false;
  if (g_active_transforms <= 0 && !g_meta_routing && !kwnames) return false;
  // The exempt functions take no `device`: a keyword call pays this scan, not a set lookup.
  if (kwnames && asks_meta_device(args, nargsf, kwnames)) {
    g_meta_routing = true;
    return true;
  }
  if (g_active_transforms <= 0 && !g_meta_routing) return false;
  if (exempt().count(self)) return false;
  const Py_ssize_t n = PyVectorcall_NARGS(nargsf) + (kwnames ? PyTuple_GET_SIZE(kwnames) : 0);
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (any_marked(args[i])) return true;
  }
  if (g_default_meta && !skip_unmarked && meta_factories().count(self)) return true;
  if (g_active_transforms <= 0 || skip_unmarked || !any_route_condition()) return false;
  const auto it = routed_unmarked().find(self);
  return it != routed_unmarked().end() && g_route_counters[it->second] > 0;
}

PyObject* transform_dispatch(PyObject* self, PyObject* const* args, Py_ssize_t nargsf, PyObject* kwnames) {
  auto it = function_of_self().find(self);
  if (it == function_of_self().end()) {
    PyErr_SetString(PyExc_RuntimeError, "transform dispatch: a native function that was never registered");
    return nullptr;
  }
  const Py_ssize_t n = PyVectorcall_NARGS(nargsf);
  PyObject* positional = PyTuple_New(n);
  PyObject* keywords = PyDict_New();
  if (!positional || !keywords) {
    Py_XDECREF(positional);
    Py_XDECREF(keywords);
    return nullptr;
  }
  for (Py_ssize_t i = 0; i < n; ++i) {
    Py_INCREF(args[i]);
    PyTuple_SET_ITEM(positional, i, args[i]);
  }
  for (Py_ssize_t k = 0; kwnames && k < PyTuple_GET_SIZE(kwnames); ++k) {
    if (PyDict_SetItem(keywords, PyTuple_GET_ITEM(kwnames, k), args[n + k]) < 0) {
      Py_DECREF(positional);
      Py_DECREF(keywords);
      return nullptr;
    }
  }
  PyObject* result = PyObject_CallFunctionObjArgs(g_handler->ptr(), it->second, positional, keywords, nullptr);
  Py_DECREF(positional);
  Py_DECREF(keywords);
  return result;
}

void register_transform_function(PyObject* function) {
  PyObject* self = PyCFunction_GET_SELF(function);
  if (!self) return;
  Py_INCREF(function);
  function_of_self()[self] = function;
  const std::string name = reinterpret_cast<PyCFunctionObject*>(function)->m_ml->ml_name;
  if (name == "_transform_state" || name == "_set_transform_state" || name.rfind("_meta_", 0) == 0 ||
      name.rfind("_storage_", 0) == 0) {
    exempt().insert(self);
  }
}

void init_transform_dispatch(py::module_& m) {
  m.def("_transform_state", [](const Tensor& t) -> py::object {
    auto* ext = dynamic_cast<PyTensorExtension*>(t.get()->extension.get());
    return ext ? ext->state : py::none();
  }, py::arg("tensor"), "The object a function transform attached to `tensor` (None if none did).");
  m.def("_set_transform_state", [](const Tensor& t, py::object state) {
    if (state.is_none()) t.get()->extension.reset();
    else t.get()->extension = std::make_shared<PyTensorExtension>(std::move(state));
  }, py::arg("tensor"), py::arg("state"), "Attaches `state` to `tensor` (None detaches it).");
  m.def("_set_transform_handler", [](py::object handler) {
    if (!g_handler) g_handler = new py::object();
    *g_handler = std::move(handler);
  }, py::arg("handler"), "Installs handler(function, args, kwargs), called for native calls on marked tensors.");
  m.def("_enter_transform", [] { return ++g_active_transforms; },
        "Counts one more open transform; returns how many are open.");
  m.def("_exit_transform", [] {
    ENGINE_CHECK(g_active_transforms > 0, std::runtime_error, "_exit_transform(): no transform is open");
    return --g_active_transforms;
  }, "Counts one transform closed; returns how many are still open.");
  m.def("_route_unmarked", [](py::object function, int condition) {
    ENGINE_CHECK(condition >= 0 && condition < kRouteConditions, engine::ValueError,
                 "_route_unmarked(): condition must be in [0, ", kRouteConditions, "), got ", condition);
    PyObject* f = function.ptr();
    if (PyInstanceMethod_Check(f)) f = PyInstanceMethod_GET_FUNCTION(f);
    ENGINE_CHECK(PyCFunction_Check(f) && function_of_self().count(PyCFunction_GET_SELF(f)), engine::TypeError,
                 "_route_unmarked(): expected a function of engine's native module");
    routed_unmarked()[PyCFunction_GET_SELF(f)] = condition;
  }, py::arg("function"), py::arg("condition"),
     "Routes calls of `function` to the transform handler while counter `condition` is positive, marked "
     "arguments or not.");
  m.def("_set_route_counter", [](int condition, int value) {
    ENGINE_CHECK(condition >= 0 && condition < kRouteConditions, engine::ValueError,
                 "_set_route_counter(): condition must be in [0, ", kRouteConditions, "), got ", condition);
    g_route_counters[condition] = value;
  }, py::arg("condition"), py::arg("value"), "Sets the counter that `_route_unmarked` functions check.");
  m.def("_call_unrouted", [](py::object function, py::args args, py::kwargs kwargs) {
    // Set here, after this call's own dispatch: the next native call (function's) consumes it.
    t_skip_unmarked = true;
    PyObject* result = PyObject_Call(function.ptr(), args.ptr(), kwargs.ptr());
    t_skip_unmarked = false;
    if (!result) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(result);
  }, py::arg("function"), "Calls `function(*args, **kwargs)` without the routing of `_route_unmarked`.");
  m.def("_enable_meta_routing", [] { g_meta_routing = true; },
        "Routes calls on meta tensors to the handler from now on (set once the meta device is used).");
  m.def("_set_default_meta", [](bool on) {
    g_default_meta = on;
    if (on) g_meta_routing = true;
  }, py::arg("on"), "Routes the `_route_meta_factory` functions to the handler while the default device is meta.");
  m.def("_route_meta_factory", [](py::object function) {
    PyObject* f = function.ptr();
    if (PyInstanceMethod_Check(f)) f = PyInstanceMethod_GET_FUNCTION(f);
    ENGINE_CHECK(PyCFunction_Check(f) && function_of_self().count(PyCFunction_GET_SELF(f)), engine::TypeError,
                 "_route_meta_factory(): expected a function of engine's native module");
    meta_factories().insert(PyCFunction_GET_SELF(f));
  }, py::arg("function"), "Routes calls of factory `function` to the handler while the default device is meta.");
  m.def("_set_transform_dispatch_paused", [](bool paused) {
    const bool previous = t_paused;
    t_paused = paused;
    return previous;
  }, py::arg("paused"), "Pauses (or resumes) transform dispatch on this thread; returns the previous setting.");
}

}  // namespace engine::python
