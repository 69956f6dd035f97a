#pragma once
// The Python entry of Function.apply (py_function_entry.cpp).
#include <pybind11/pybind11.h>

namespace engine::python {

// `kwargs` is a dict, or null when the call passed no keyword (most calls: no dict is made).
using FunctionApply = pybind11::object (*)(pybind11::handle cls, pybind11::tuple args, pybind11::object kwargs);

// Defines m._function_apply(cls, *args, **kwargs) as a vectorcall function calling `apply`.
void def_function_apply(pybind11::module_& m, FunctionApply apply);
// Whether `def` is that function's (its docstring is malloc'ed and may be replaced, as pybind11's).
bool is_function_apply_entry(const PyMethodDef* def);

}  // namespace engine::python
