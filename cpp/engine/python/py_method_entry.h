#pragma once
// Direct entries for the hottest native methods (py_dispatch_guard.cpp installs them).
//
// Every method of the module runs through pybind11's dispatcher behind one guard (overload walk,
// argument casters, keyword defaults: about a thousand instructions per call). A method whose
// common call is argument-free (`t.sum()`, `t.backward()`) can have an entry that serves that call
// itself and hands every other call, unchanged, to the guarded dispatcher. The function object,
// its docstring and its place in transform dispatch stay those of the pybind11 binding.
#include <Python.h>

#include <pybind11/pybind11.h>

#include "engine/core/tensor.h"
#include "engine/python/py_transform_dispatch.h"
#include "engine/python/tensor_caster.h"

namespace engine::python {

using MethodEntry = PyObject* (*)(PyObject* self, PyObject* const* args, Py_ssize_t nargsf, PyObject* kwnames);

// What a pybind11 method's call goes through without a direct entry: the guard (shells, transform
// dispatch, argument-error messages) and pybind11's dispatcher.
PyObject* guarded_dispatch(PyObject* self, PyObject* const* args, Py_ssize_t nargsf, PyObject* kwnames);

// Makes `entry` the method's entry point. Call after install_dispatch_guard.
void set_method_entry(pybind11::handle method, MethodEntry entry);

// The shared shape of a direct entry: an argument-free call on an exact Tensor is served by
// `body(tensor)` (a new reference), C++ exceptions translated as pybind11 would; any other call,
// and a tensor a transform marked, goes where it would without the entry.
template <typename Body>
PyObject* serve_argument_free_call(PyObject* self, PyObject* const* args, Py_ssize_t nargsf, PyObject* kwnames,
                                   Body body) {
  if (PyVectorcall_NARGS(nargsf) != 1 || kwnames || Py_TYPE(args[0]) != g_tensor_py_type) {
    return guarded_dispatch(self, args, nargsf, kwnames);
  }
  const auto* holder = tensor_holder(args[0]);
  if (!holder || !*holder) return guarded_dispatch(self, args, nargsf, kwnames);
  if (transform_dispatch_wanted(self, args, nargsf, kwnames)) return transform_dispatch(self, args, nargsf, kwnames);
  try {
    return body(Tensor(*holder));
  } catch (...) {
    pybind11::detail::try_translate_exceptions();
    return nullptr;
  }
}

// Installed after the guard by module init: Tensor.sum (py_tensor.cpp), Tensor.backward (py_autograd.cpp).
void install_sum_entry(pybind11::module_& m);
void install_backward_entry(pybind11::module_& m);

}  // namespace engine::python
