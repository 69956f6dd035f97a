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
    // Every Tensor result goes out through here: the registered type is looked up once, not on
    // each call (pybind11's generic path hashes the C++ type's name every time).
    static const type_info* tensor_type = nullptr;
    if (!tensor_type) tensor_type = get_type_info(typeid(engine::TensorImpl));
    if (!tensor_type) return make_caster<std::shared_ptr<engine::TensorImpl>>::cast(t.impl(), policy, parent);
    const std::shared_ptr<engine::TensorImpl>& holder = t.impl();
    return type_caster_generic::cast(holder.get(), return_value_policy::take_ownership, parent, tensor_type, nullptr,
                                     nullptr, &holder);
  }
};

// Shapes and strides (engine::Dims) convert like std::vector: lists out, any sequence in.
template <typename T, size_t N>
struct type_caster<engine::SmallVector<T, N>> : list_caster<engine::SmallVector<T, N>, T> {};

}  // namespace pybind11::detail
