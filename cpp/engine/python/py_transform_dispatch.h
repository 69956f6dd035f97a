#pragma once
// Routing of native calls on tensors that a function transform marked (py_transform_dispatch.cpp).
#include <Python.h>

namespace engine::python {

// Whether this call must go to the transform handler: a transform is open, dispatch is not
// paused on this thread, `self` is not one of the mark accessors, and an argument (or an element of
// a list/tuple argument) is marked.
bool transform_dispatch_wanted(PyObject* self, PyObject* const* args, Py_ssize_t nargsf, PyObject* kwnames);
// Calls the handler as handler(function, args, kwargs); `self` is what pybind11 passed.
PyObject* transform_dispatch(PyObject* self, PyObject* const* args, Py_ssize_t nargsf, PyObject* kwnames);
// Remembers which function object a pybind11 `self` capsule belongs to.
void register_transform_function(PyObject* function);

}  // namespace engine::python
