#pragma once
// Tensor.grad's Python object: one per gradient tensor while it is the gradient, as in PyTorch.
#include <memory>

#include "engine/autograd/variable.h"
#include "engine/python/bindings.h"

namespace engine::python {

// A strong reference to `obj` that may be dropped from any thread (its deleter takes the GIL).
std::shared_ptr<void> keep_python_object(py::handle obj);

// `meta.grad` as a Python object (None when undefined): the same object on every read while the
// gradient is the same tensor, so weak references to it and attributes set on it survive.
py::object grad_object(AutogradMeta& meta);

}  // namespace engine::python
