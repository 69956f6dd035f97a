// engine.float32 and friends: one Python object per dtype, printed as PyTorch prints its own.
#include <array>

#include "engine/core/error.h"
#include "engine/python/bindings.h"

namespace engine::python {

namespace {
struct PyDType {
  DType value;
};
// Borrowed from the module, which lives until the interpreter ends; never released here so no
// Python object is touched during static destruction.
std::array<PyObject*, kNumDTypes> g_dtype_objects{};
}  // namespace

py::object dtype_to_py(DType d) { return py::reinterpret_borrow<py::object>(g_dtype_objects[static_cast<int>(d)]); }

DType dtype_from_py(py::handle obj) {
  if (py::isinstance<PyDType>(obj)) return obj.cast<PyDType&>().value;
  // PyTorch also accepts the Python types themselves.
  if (obj.ptr() == reinterpret_cast<PyObject*>(&PyFloat_Type)) return DType::Float64;
  if (obj.ptr() == reinterpret_cast<PyObject*>(&PyLong_Type)) return DType::Int64;
  if (obj.ptr() == reinterpret_cast<PyObject*>(&PyBool_Type)) return DType::Bool;
  throw engine::TypeError(str_cat("dtype must be an engine dtype (e.g. engine.float32), not ",
                                  type_name(obj)));
}

void init_dtype(py::module_& m) {
  py::class_<PyDType>(m, "dtype")
      .def_property_readonly("is_floating_point", [](const PyDType& d) { return is_floating(d.value); })
      .def_property_readonly("is_signed", [](const PyDType& d) { return is_signed(d.value); })
      .def_property_readonly("is_complex", [](const PyDType& d) { return is_complex(d.value); })
      .def_property_readonly("itemsize", [](const PyDType& d) { return itemsize(d.value); })
      .def("__repr__", [](const PyDType& d) { return std::string("torch.") + dtype_name(d.value); })
      .def("__reduce__", [](const PyDType& d) { return std::string(dtype_name(d.value)); });
  for (DType d : kAllDTypes) {
    py::object o = py::cast(PyDType{d}, py::return_value_policy::move);
    m.attr(dtype_name(d)) = o;
    g_dtype_objects[static_cast<int>(d)] = o.ptr();
  }
  // The argument checks name the function and argument as PyTorch's do.
  auto dtype_arg = [](py::handle obj, const char* fname, const char* arg, int pos) {
    ENGINE_CHECK(py::isinstance<PyDType>(obj), engine::TypeError, fname, "(): argument '", arg, "' (position ", pos,
                 ") must be torch.dtype, not ", type_name(obj));
    return obj.cast<PyDType&>().value;
  };
  m.def("promote_types", [dtype_arg](py::handle type1, py::handle type2) {
    return dtype_to_py(promote_types(dtype_arg(type1, "promote_types", "type1", 1),
                                     dtype_arg(type2, "promote_types", "type2", 2)));
  }, py::arg("type1"), py::arg("type2"));
  m.def("can_cast", [dtype_arg](py::handle from, py::handle to) {
    return can_cast(dtype_arg(from, "can_cast", "from_", 1), dtype_arg(to, "can_cast", "to", 2));
  }, py::arg("from_"), py::arg("to"));
  m.def("get_default_dtype", [] { return dtype_to_py(default_dtype()); });
  m.def("set_default_dtype", [](py::handle d) { set_default_dtype(dtype_from_py(d)); });
}

}  // namespace engine::python
