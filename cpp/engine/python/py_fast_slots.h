#pragma once
// Tensor's arithmetic operators as native number slots (py_fast_slots.cpp).
#include <pybind11/pybind11.h>

#include "engine/core/dtype.h"

namespace engine::python {

// A Python float, or an int below 2**53 in magnitude (exact as a double), as the value and the
// dtype PyTorch wraps it in (Float64, Int64); false for anything else (bool included). Such a
// number is applied as a value (ops::add_number and its kin).
bool simple_number(PyObject* obj, double& value, DType& number_dtype);
// Whether `alpha` is the int 1 (add's and sub's default).
bool is_unit_alpha(PyObject* alpha);

// Installs the slots on m.Tensor; called after every Tensor method is defined.
void install_fast_slots(pybind11::module_& m);

}  // namespace engine::python
