// One guard around pybind11's dispatcher, through which every function of the module is called:
// - Clear messages for calls whose arguments match no binding. pybind11 reports them as
//   "f(): incompatible function arguments ... Invoked with: <every argument's repr>" (whole tensors
//   printed, C++ type spellings); they are described the way PyTorch does ("f(): argument 'dim'
//   (position 1) must be int, not str") by engine._arg_errors, in Python, on this error path only.
// - No method runs on an object whose C++ value was never constructed. pybind11 lets
//   `Cls.__new__(Cls)` make such a shell; a method on it would read uninitialised memory. Classes
//   built only natively (Tensor, Node, dtype) refuse __new__ outright; for classes with an
//   __init__, a method called on a shell raises TypeError.
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "engine/core/error.h"
#include "engine/python/bindings.h"
#include "engine/python/py_function_entry.h"
#include "engine/python/py_method_entry.h"
#include "engine/python/py_transform_dispatch.h"

namespace engine::python {

namespace {

using Dispatcher = PyObject* (*)(PyObject*, PyObject* const*, Py_ssize_t, PyObject*);
Dispatcher g_pybind_dispatcher = nullptr;

// Replaces the pending TypeError by engine._arg_errors.describe(message, args, kwargs) when it is
// pybind11's overload-resolution failure. Any failure while describing keeps the original error.
void describe_argument_error(PyObject* const* args, Py_ssize_t nargsf, PyObject* kwnames) {
  PyObject *type, *value, *trace;
  PyErr_Fetch(&type, &value, &trace);
  PyErr_NormalizeException(&type, &value, &trace);
  PyObject* described = nullptr;
  PyObject* message = value ? PyObject_Str(value) : nullptr;
  if (message && PyUnicode_Check(message)) {
    bool ours = false;
    for (const char* text : {"(): incompatible function arguments.", "(): incompatible constructor arguments."}) {
      PyObject* marker = PyUnicode_FromString(text);
      ours = ours || (marker && PyUnicode_Find(message, marker, 0, PY_SSIZE_T_MAX, 1) >= 0);
      Py_XDECREF(marker);
    }
    PyObject* module = ours ? PyImport_ImportModule("engine._arg_errors") : nullptr;
    if (module) {
      const Py_ssize_t n = PyVectorcall_NARGS(nargsf);
      PyObject* positional = PyTuple_New(n);
      PyObject* keywords = PyDict_New();
      for (Py_ssize_t i = 0; positional && i < n; ++i) {
        Py_INCREF(args[i]);
        PyTuple_SET_ITEM(positional, i, args[i]);
      }
      for (Py_ssize_t k = 0; kwnames && keywords && k < PyTuple_GET_SIZE(kwnames); ++k) {
        PyDict_SetItem(keywords, PyTuple_GET_ITEM(kwnames, k), args[n + k]);
      }
      if (positional && keywords) {
        described = PyObject_CallMethod(module, "describe", "OOO", message, positional, keywords);
      }
      Py_XDECREF(positional);
      Py_XDECREF(keywords);
      Py_DECREF(module);
    }
  }
  Py_XDECREF(message);
  PyErr_Clear();
  if (described && PyExceptionInstance_Check(described)) {
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(trace);
    PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(described)), described);
  } else {
    PyErr_Restore(type, value, trace);
  }
  Py_XDECREF(described);
}

using NewFunc = PyObject* (*)(PyTypeObject*, PyObject*, PyObject*);
NewFunc g_pybind_new = nullptr;

PyObject* refuse_new(PyTypeObject* type, PyObject*, PyObject*) {
  PyErr_Format(PyExc_TypeError, "cannot create '%s' instances", type->tp_name);
  return nullptr;
}

// pybind11's own __new__ under another address, which marks the classes whose shells are checked.
PyObject* checked_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) { return g_pybind_new(type, args, kwargs); }

bool is_shell(PyObject* obj) {
  if (Py_TYPE(obj)->tp_new != &checked_new) return false;
  auto* inst = reinterpret_cast<py::detail::instance*>(obj);
  // A shell has no value pointer; an object handed out by reference has one but no holder.
  for (auto vh : py::detail::values_and_holders(inst)) {
    if (!vh.value_ptr()) return true;
  }
  return false;
}

PyObject* dispatch(PyObject* self, PyObject* const* args, Py_ssize_t nargsf, PyObject* kwnames, bool is_init) {
  if (!is_init && PyVectorcall_NARGS(nargsf) > 0 && is_shell(args[0])) {
    PyErr_Format(PyExc_TypeError, "%s object was created with __new__ but never initialised: call %s(...) instead",
                 Py_TYPE(args[0])->tp_name, Py_TYPE(args[0])->tp_name);
    return nullptr;
  }
  if (!is_init && transform_dispatch_wanted(self, args, nargsf, kwnames)) return transform_dispatch(self, args, nargsf, kwnames);
  PyObject* result = g_pybind_dispatcher(self, args, nargsf, kwnames);
  if (!result && PyErr_ExceptionMatches(PyExc_TypeError)) describe_argument_error(args, nargsf, kwnames);
  return result;
}

PyObject* dispatch_method(PyObject* self, PyObject* const* args, Py_ssize_t nargsf, PyObject* kwnames) {
  return dispatch(self, args, nargsf, kwnames, false);
}

// The methods given a direct entry (set_method_entry): few, so a short list.
constexpr int kMaxEntries = 8;
const PyMethodDef* g_entry_defs[kMaxEntries] = {};
int g_entry_count = 0;

bool has_direct_entry(const PyMethodDef* def) {
  for (int i = 0; i < g_entry_count; ++i) {
    if (g_entry_defs[i] == def) return true;
  }
  return false;
}

PyObject* dispatch_init(PyObject* self, PyObject* const* args, Py_ssize_t nargsf, PyObject* kwnames) {
  return dispatch(self, args, nargsf, kwnames, true);
}

void wrap_function(PyObject* f) {
  if (!f || !PyCFunction_Check(f)) return;
  PyMethodDef* def = reinterpret_cast<PyCFunctionObject*>(f)->m_ml;
  if (reinterpret_cast<Dispatcher>(reinterpret_cast<void (*)()>(def->ml_meth)) != g_pybind_dispatcher) return;
  const bool is_init = std::string(def->ml_name) == "__init__";
  def->ml_meth = reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(is_init ? &dispatch_init : &dispatch_method));
  if (!is_init) register_transform_function(f);
}

void guard_new(PyTypeObject* type) {
  if (type->tp_new != g_pybind_new) return;  // not a pybind11 class
  // A py::init constructor is an instance method in the class dict; without one, pybind11 leaves
  // only the slot wrapper that raises "No constructor defined!".
  PyObject* own_init = PyDict_GetItemString(type->tp_dict, "__init__");
  type->tp_new = own_init && PyInstanceMethod_Check(own_init) ? &checked_new : &refuse_new;
  // `Cls.__new__` must reach that slot: give the class its own __new__, the same built-in wrapper
  // that object.__new__ is (Python subclasses then keep inheriting the slot, as for any C type).
  py::object object_new = py::handle(reinterpret_cast<PyObject*>(&PyBaseObject_Type)).attr("__new__");
  PyMethodDef* wrapper = reinterpret_cast<PyCFunctionObject*>(object_new.ptr())->m_ml;
  py::object own_new = py::reinterpret_steal<py::object>(PyCFunction_NewEx(wrapper, reinterpret_cast<PyObject*>(type), nullptr));
  if (!own_new || PyDict_SetItemString(type->tp_dict, "__new__", own_new.ptr()) < 0) throw py::error_already_set();
  PyType_Modified(type);
}

// A class attribute as pybind11 stores it: a function inside an instance method, a staticmethod,
// or a property's getter and setter.
void wrap_attribute(py::handle value) {
  PyObject* v = value.ptr();
  if (PyInstanceMethod_Check(v)) {
    wrap_function(PyInstanceMethod_GET_FUNCTION(v));
  } else if (PyObject_TypeCheck(v, &PyStaticMethod_Type) || PyObject_TypeCheck(v, &PyProperty_Type)) {
    for (const char* name : {"__func__", "fget", "fset"}) {
      if (!PyObject_HasAttrString(v, name)) continue;
      py::object f = py::reinterpret_borrow<py::object>(value).attr(name);
      wrap_function(f.ptr());
    }
  } else {
    wrap_function(v);
  }
}

}  // namespace

PyObject* guarded_dispatch(PyObject* self, PyObject* const* args, Py_ssize_t nargsf, PyObject* kwnames) {
  return dispatch(self, args, nargsf, kwnames, false);
}

void set_method_entry(py::handle method, MethodEntry entry) {
  PyObject* f = method.ptr();
  if (PyInstanceMethod_Check(f)) f = PyInstanceMethod_GET_FUNCTION(f);
  ENGINE_CHECK(f && PyCFunction_Check(f), std::logic_error, "set_method_entry: not a native function");
  PyMethodDef* def = reinterpret_cast<PyCFunctionObject*>(f)->m_ml;
  // Only over the guard itself, so the entry's fallback (guarded_dispatch) is what ran before.
  ENGINE_CHECK(reinterpret_cast<Dispatcher>(reinterpret_cast<void (*)()>(def->ml_meth)) == &dispatch_method &&
                   g_entry_count < kMaxEntries,
               std::logic_error, "set_method_entry: ", def->ml_name, " is not a guarded method");
  g_entry_defs[g_entry_count++] = def;
  def->ml_meth = reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(entry));
}

// Documentation written in Python (engine._docs) for a native function: appended to pybind11's
// signature lines, which help() and the stub generator read first. pybind11 owns ml_doc (a
// malloc'ed copy it frees with the function), so the new text is malloc'ed the same way and the
// old one freed. Only this module's functions qualify: other C functions' docs are static.
void add_docstr(py::handle function, const std::string& text) {
  PyObject* f = function.ptr();
  if (PyInstanceMethod_Check(f)) f = PyInstanceMethod_GET_FUNCTION(f);
  ENGINE_CHECK(f && PyCFunction_Check(f), engine::TypeError, "_add_docstr(): expected a native function, got ",
               type_name(function));
  PyMethodDef* def = reinterpret_cast<PyCFunctionObject*>(f)->m_ml;
  const auto meth = reinterpret_cast<Dispatcher>(reinterpret_cast<void (*)()>(def->ml_meth));
  ENGINE_CHECK(meth == g_pybind_dispatcher || meth == &dispatch_method || meth == &dispatch_init ||
                   is_function_apply_entry(def) || has_direct_entry(def),
               engine::TypeError,
               "_add_docstr(): expected a function of engine's native module");
  std::string doc = def->ml_doc ? def->ml_doc : "";
  while (!doc.empty() && doc.back() == '\n') doc.pop_back();
  doc += doc.empty() ? text : "\n\n" + text;
  char* copy = static_cast<char*>(std::malloc(doc.size() + 1));
  if (!copy) throw std::bad_alloc();
  std::memcpy(copy, doc.c_str(), doc.size() + 1);
  std::free(const_cast<char*>(def->ml_doc));
  def->ml_doc = copy;
}

void install_dispatch_guard(py::module_& m) {
  m.def("_add_docstr", &add_docstr, py::arg("function"), py::arg("text"),
        "Appends `text` to a native function's docstring.");
  // Every pybind11 function shares one dispatcher: read it off a function this module defined.
  py::object probe = m.attr("get_num_threads");
  g_pybind_dispatcher = reinterpret_cast<Dispatcher>(
      reinterpret_cast<void (*)()>(reinterpret_cast<PyCFunctionObject*>(probe.ptr())->m_ml->ml_meth));
  g_pybind_new = reinterpret_cast<PyTypeObject*>(m.attr("Tensor").ptr())->tp_new;
  for (auto item : m.attr("__dict__").cast<py::dict>()) {
    py::handle v = item.second;
    if (PyType_Check(v.ptr())) {
      guard_new(reinterpret_cast<PyTypeObject*>(v.ptr()));
      for (auto attr : v.attr("__dict__").cast<py::dict>()) wrap_attribute(attr.second);
    } else {
      wrap_attribute(v);
    }
  }
}

}  // namespace engine::python
