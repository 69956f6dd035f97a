#pragma once
// Lets bindings take and return engine::Tensor directly. The Python object is the TensorImpl held
// by a shared_ptr, so one TensorImpl always maps to one Python object (identity is preserved).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "engine/core/tensor.h"

namespace pybind11::detail {

template <>
struct type_caster<engine::Tensor> {
  PYBIND11_TYPE_CASTER(engine::Tensor, const_name("Tensor"));

  bool load(handle src, bool convert) {
    if (src.is_none()) return false;
    make_caster<std::shared_ptr<engine::TensorImpl>> inner;
    if (!inner.load(src, convert)) return false;
    value = engine::Tensor(cast_op<std::shared_ptr<engine::TensorImpl>>(inner));
    return true;
  }

  static handle cast(const engine::Tensor& t, return_value_policy policy, handle parent) {
    if (!t.defined()) return none().release();
    return make_caster<std::shared_ptr<engine::TensorImpl>>::cast(t.impl(), policy, parent);
  }
};

// Shapes and strides (engine::Dims) convert like std::vector: lists out, any sequence in.
template <typename T, size_t N>
struct type_caster<engine::SmallVector<T, N>> : list_caster<engine::SmallVector<T, N>, T> {};

}  // namespace pybind11::detail
