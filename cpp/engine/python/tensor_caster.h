#pragma once
// Lets bindings take and return engine::Tensor directly. The Python object is the TensorImpl held
// by a shared_ptr, so one TensorImpl always maps to one Python object (identity is preserved).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "engine/core/tensor.h"

namespace engine::python {
// The Python Tensor type, once the module has made it (set where the type is created).
inline PyTypeObject* g_tensor_py_type = nullptr;

// The holder of a Tensor object (or of a Python subclass's), read without pybind11's type lookups;
// null when `obj` is no Tensor in the plain one-base layout, or was never initialised.
inline const std::shared_ptr<TensorImpl>* tensor_holder(PyObject* obj) {
  if (!g_tensor_py_type || !PyObject_TypeCheck(obj, g_tensor_py_type)) return nullptr;
  auto* inst = reinterpret_cast<pybind11::detail::instance*>(obj);
  if (!inst->simple_layout || !inst->simple_holder_constructed) return nullptr;
  return &inst->get_value_and_holder().template holder<std::shared_ptr<TensorImpl>>();
}

// A new object of the Tensor type standing for `impl` (which has none), made as pybind11's cast
// makes one but kept out of pybind11's registry of instances (a hash insert now and an erase at
// deallocation): it is found again through impl->py_object, which the Tensor type's deallocator
// clears (py_tensor.cpp). Only where the type's instances have pybind11's simple layout.
inline PyObject* new_tensor_object(const std::shared_ptr<TensorImpl>& impl, const pybind11::detail::type_info* tinfo) {
  // pybind11's make_new_instance less its layout lookup (a hash of the type per call): tp_alloc
  // zeroes the instance, which leaves a simple layout's flags all false.
  PyObject* obj = tinfo->type->tp_alloc(tinfo->type, 0);
  if (!obj) throw pybind11::error_already_set();
  auto* inst = reinterpret_cast<pybind11::detail::instance*>(obj);
  inst->simple_layout = true;
  pybind11::detail::value_and_holder v_h(inst, tinfo, 0, 0);
  v_h.value_ptr() = impl.get();
  inst->owned = true;
  new (std::addressof(v_h.holder<std::shared_ptr<TensorImpl>>())) std::shared_ptr<TensorImpl>(impl);
  v_h.set_holder_constructed();
  impl->py_object = obj;
  return obj;
}

// Whether new_tensor_object applies to `tinfo`'s instances (one C++ base, holder stored inline).
inline bool simple_tensor_layout(const pybind11::detail::type_info* tinfo) {
  return pybind11::detail::all_type_info(tinfo->type).size() == 1 &&
         tinfo->holder_size_in_ptrs <= pybind11::detail::instance_simple_holder_in_ptrs();
}
}  // namespace engine::python

namespace pybind11::detail {

template <>
struct type_caster<engine::Tensor> {
  PYBIND11_TYPE_CASTER(engine::Tensor, const_name("Tensor"));

  bool load(handle src, bool convert) {
    if (src.is_none()) return false;
    // Every Tensor argument of every binding comes through here: read the holder directly.
    if (const auto* holder = engine::python::tensor_holder(src.ptr())) {
      if (!*holder) return false;
      value = engine::Tensor(*holder);
      return true;
    }
    make_caster<std::shared_ptr<engine::TensorImpl>> inner;
    if (!inner.load(src, convert)) return false;
    value = engine::Tensor(cast_op<std::shared_ptr<engine::TensorImpl>>(inner));
    return true;
  }

  static handle cast(const engine::Tensor& t, return_value_policy policy, handle parent) {
    if (!t.defined()) return none().release();
    // Every Tensor result goes out through here. A tensor that has its Python object already
    // returns it (one TensorImpl, one object); otherwise a new one is made.
    if (auto* obj = static_cast<PyObject*>(t.get()->py_object)) return handle(obj).inc_ref();
    // The registered type is looked up once, not on each call (pybind11's generic path hashes the
    // C++ type's name every time).
    static const type_info* tensor_type = nullptr;
    static bool simple = false;
    if (!tensor_type) {
      tensor_type = get_type_info(typeid(engine::TensorImpl));
      simple = tensor_type && engine::python::simple_tensor_layout(tensor_type);
    }
    if (!tensor_type) return make_caster<std::shared_ptr<engine::TensorImpl>>::cast(t.impl(), policy, parent);
    const std::shared_ptr<engine::TensorImpl>& holder = t.impl();
    if (simple) return engine::python::new_tensor_object(holder, tensor_type);
    handle h = type_caster_generic::cast(holder.get(), return_value_policy::take_ownership, parent, tensor_type,
                                         nullptr, nullptr, &holder);
    if (h) holder->py_object = h.ptr();
    return h;
  }
};

// Shapes and strides (engine::Dims) convert like std::vector: lists out, any sequence in.
template <typename T, size_t N>
struct type_caster<engine::SmallVector<T, N>> : list_caster<engine::SmallVector<T, N>, T> {};

}  // namespace pybind11::detail
