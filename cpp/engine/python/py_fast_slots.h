#pragma once
// Tensor's arithmetic operators as native number slots (py_fast_slots.cpp).
#include <pybind11/pybind11.h>

namespace engine::python {

// Installs the slots on m.Tensor; called after every Tensor method is defined.
void install_fast_slots(pybind11::module_& m);

}  // namespace engine::python
