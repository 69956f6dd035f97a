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

namespace engine::python {

using MethodEntry = PyObject* (*)(PyObject* self, PyObject* const* args, Py_ssize_t nargsf, PyObject* kwnames);

// What a pybind11 method's call goes through without a direct entry: the guard (shells, transform
// dispatch, argument-error messages) and pybind11's dispatcher.
PyObject* guarded_dispatch(PyObject* self, PyObject* const* args, Py_ssize_t nargsf, PyObject* kwnames);

// Makes `entry` the method's entry point. Call after install_dispatch_guard.
void set_method_entry(pybind11::handle method, MethodEntry entry);

// Installed after the guard by module init: Tensor.sum (py_tensor.cpp), Tensor.backward (py_autograd.cpp).
void install_sum_entry(pybind11::module_& m);
void install_backward_entry(pybind11::module_& m);

}  // namespace engine::python
