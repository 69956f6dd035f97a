#pragma once
// Tensor.set_: makes a tensor look at other memory (another tensor's), in place.
#include "engine/python/bindings.h"

namespace engine::python {

// Tensor.set_(), set_(source), set_(source, storage_offset, size, stride=None); returns `self`.
py::object tensor_set(py::object self, const py::args& args, const py::kwargs& kwargs);

}  // namespace engine::python
