// Tensor.grad's Python object. A pybind11 object lives only while Python holds it, so without a
// keeper every read of `.grad` after the last Python reference died would make a new object
// (breaking `weakref.ref(t.grad)` and attributes set on the gradient). PyTorch's tensor keeps its
// own Python object; here the owner's autograd state keeps its gradient's, which forms no cycle:
// the owner holds the gradient's object, which holds only the gradient.
#include "engine/python/py_tensor_grad.h"

#include <mutex>

#include "engine/autograd/accumulate_grad.h"

namespace engine::python {

namespace {

bool interpreter_finalizing() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsFinalizing();
#else
  return _Py_IsFinalizing();
#endif
}

}  // namespace

std::shared_ptr<void> keep_python_object(py::handle obj) {
  PyObject* o = obj.inc_ref().ptr();
  return std::shared_ptr<void>(o, [](void* p) {
    // The last owner may be a backward worker without the GIL, or the interpreter may be gone.
    if (!Py_IsInitialized() || interpreter_finalizing()) return;
    PyGILState_STATE state = PyGILState_Ensure();
    Py_DECREF(static_cast<PyObject*>(p));
    PyGILState_Release(state);
  });
}

py::object grad_object(AutogradMeta& meta) {
  // Read under the lock (another thread may be accumulating), but make Python objects outside it:
  // an allocation may run the cycle collector, whose finalizers may read a `.grad` themselves.
  Tensor grad;
  std::shared_ptr<void> cached;
  {
    std::lock_guard<std::mutex> lock(grad_accumulation_mutex());
    grad = meta.grad;
    cached = meta.grad_py;
  }
  if (!grad.defined()) return py::none();
  if (cached) {
    auto* obj = static_cast<PyObject*>(cached.get());
    const auto* holder = tensor_holder(obj);
    if (holder && holder->get() == grad.get()) return py::reinterpret_borrow<py::object>(obj);
  }
  py::object obj = py::cast(grad);
  std::shared_ptr<void> kept = keep_python_object(obj);
  {
    std::lock_guard<std::mutex> lock(grad_accumulation_mutex());
    if (meta.grad.get() == grad.get()) std::swap(meta.grad_py, kept);
  }
  return obj;  // `kept` (now the stale object, if any) and `cached` go after the lock
}

}  // namespace engine::python
