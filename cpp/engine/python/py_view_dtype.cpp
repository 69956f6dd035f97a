// Tensor.view: the shape form (view(2, 6), view((2, 6))) and the dtype form (view(torch.int32),
// view(dtype=torch.int32)) in one method, as PyTorch's overloads. The dtype form is recognised by
// the argument's type, so a shape call pays one pointer comparison. Also Tensor.storage_offset(),
// the element offset such views start at.
#include "engine/ops/ops.h"
#include "engine/ops/view_dtype.h"
#include "engine/python/bindings.h"

namespace engine::python {

void init_view_dtype(py::module_& m) {
  py::object tensor = m.attr("Tensor");
  py::handle dtype_type = reinterpret_cast<PyObject*>(Py_TYPE(dtype_to_py(DType::Float32).ptr()));
  py::cpp_function by_shape(
      [dtype_type](const Tensor& t, const py::args& args) {
        if (args.size() == 1 && Py_TYPE(args[0].ptr()) == reinterpret_cast<PyTypeObject*>(dtype_type.ptr())) {
          return ops::view_dtype(t, dtype_from_py(args[0]));
        }
        return ops::view(t, shape_from_args(args, "view"));
      },
      py::name("view"), py::is_method(tensor));
  tensor.attr("view") = by_shape;
  tensor.attr("view") = py::cpp_function(
      [](const Tensor& t, py::handle dtype) { return ops::view_dtype(t, dtype_from_py(dtype)); }, py::name("view"),
      py::is_method(tensor), py::sibling(by_shape), py::kw_only(), py::arg("dtype"));
  tensor.attr("storage_offset") = py::cpp_function([](const Tensor& t) { return t.offset(); },
                                                   py::name("storage_offset"), py::is_method(tensor));
}

}  // namespace engine::python
