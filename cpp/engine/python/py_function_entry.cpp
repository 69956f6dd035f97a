// `_function_apply(cls, *args, **kwargs)`, the native body of Function.apply, as a CPython
// METH_FASTCALL function instead of a pybind11 binding: every custom Function call enters here,
// and pybind11's generic dispatcher (overload walk, argument casters, its own tuple and dict) costs
// more than building the arguments' tuple the body takes (and a dict, only when keywords were
// passed). The function still reaches function transforms as every other native function does
// (see py_transform_dispatch.cpp).
#include "engine/python/py_function_entry.h"

#include <cstdlib>
#include <cstring>
#include <new>

#include "engine/python/py_transform_dispatch.h"

namespace engine::python {

namespace py = pybind11;

namespace {

FunctionApply g_apply = nullptr;

PyObject* function_apply_entry(PyObject* self, PyObject* const* args, Py_ssize_t nargsf, PyObject* kwnames) {
  if (transform_dispatch_wanted(self, args, nargsf, kwnames)) return transform_dispatch(self, args, nargsf, kwnames);
  const Py_ssize_t n = PyVectorcall_NARGS(nargsf);
  if (n < 1) {
    PyErr_SetString(PyExc_TypeError, "_function_apply(): missing required argument 'cls' (pos 1)");
    return nullptr;
  }
  try {
    py::tuple rest(n - 1);
    for (Py_ssize_t i = 1; i < n; ++i) {
      Py_INCREF(args[i]);
      PyTuple_SET_ITEM(rest.ptr(), i - 1, args[i]);
    }
    py::object keywords;
    if (kwnames && PyTuple_GET_SIZE(kwnames) > 0) {
      keywords = py::dict();
      for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(kwnames); ++k) {
        if (PyDict_SetItem(keywords.ptr(), PyTuple_GET_ITEM(kwnames, k), args[n + k]) < 0) return nullptr;
      }
    }
    py::object result = g_apply(args[0], py::reinterpret_steal<py::tuple>(rest.release()), std::move(keywords));
    return result.release().ptr();
  } catch (...) {
    py::detail::try_translate_exceptions();
    return nullptr;
  }
}

// The docstring is malloc'ed, as pybind11's are, so engine._docs can extend it (see add_docstr).
PyMethodDef g_def = {"_function_apply",
                     reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&function_apply_entry)),
                     METH_FASTCALL | METH_KEYWORDS, nullptr};
constexpr char kDoc[] =
    "_function_apply(cls, /, *args, **kwargs)\n--\n\n"
    "Runs the custom Function `cls` on the arguments: Function.apply's native body.";

}  // namespace

bool is_function_apply_entry(const PyMethodDef* def) { return def == &g_def; }

void def_function_apply(py::module_& m, FunctionApply apply) {
  g_apply = apply;
  if (!g_def.ml_doc) {
    char* doc = static_cast<char*>(std::malloc(sizeof(kDoc)));
    if (!doc) throw std::bad_alloc();
    std::memcpy(doc, kDoc, sizeof(kDoc));
    g_def.ml_doc = doc;
  }
  // A `self` of its own, by which transform dispatch finds this function.
  py::capsule self(static_cast<void*>(&g_def), "engine._function_apply");
  py::object f = py::reinterpret_steal<py::object>(PyCFunction_NewEx(&g_def, self.ptr(), m.attr("__name__").ptr()));
  if (!f) throw py::error_already_set();
  m.attr("_function_apply") = f;
  register_transform_function(f.ptr());
}

}  // namespace engine::python
