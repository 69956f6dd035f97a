// Tensor.grad's Python object. A pybind11 object lives only while Python holds it, so without a
// keeper every read of `.grad` after the last Python reference died would make a new object
// (breaking `weakref.ref(t.grad)` and attributes set on the gradient). PyTorch's tensor keeps its
// own Python object; here the owner's autograd state keeps its gradient's, which forms no cycle:
// the owner holds the gradient's object, which holds only the gradient.
#include "engine/python/py_tensor_grad.h"

#include <mutex>

#include "engine/autograd/accumulate_grad.h"

namespace engine::python {

std::shared_ptr<void> keep_python_object(py::handle obj) {
  PyObject* o = obj.inc_ref().ptr();
  return std::shared_ptr<void>(o, [](void* p) {
    // The last owner may be a backward worker without the GIL, or the interpreter may be gone.
    if (!Py_IsInitialized() || _Py_IsFinalizing()) return;
    PyGILState_STATE state = PyGILState_Ensure();
    Py_DECREF(static_cast<PyObject*>(p));
    PyGILState_Release(state);
  });
}

py::object grad_object(AutogradMeta& meta) {
  std::shared_ptr<void> stale;  // released after the lock: its deleter takes the GIL
  std::lock_guard<std::mutex> lock(grad_accumulation_mutex());  // another thread may be accumulating
  if (!meta.grad.defined()) return py::none();
  if (meta.grad_py) {
    auto* cached = static_cast<PyObject*>(meta.grad_py.get());
    const auto* holder = tensor_holder(cached);
    if (holder && holder->get() == meta.grad.get()) return py::reinterpret_borrow<py::object>(cached);
  }
  py::object obj = py::cast(meta.grad);
  stale = std::exchange(meta.grad_py, keep_python_object(obj));
  return obj;
}

}  // namespace engine::python
