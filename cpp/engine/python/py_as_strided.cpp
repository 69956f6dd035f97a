// engine.as_strided / Tensor.as_strided: argument conversion for ops/as_strided.h.
#include "engine/ops/as_strided.h"
#include "engine/python/bindings.h"

namespace engine::python {

namespace {

Tensor as_strided(const Tensor& self, py::handle size, py::handle stride, py::handle storage_offset) {
  std::optional<int64_t> offset;
  if (!storage_offset.is_none()) offset = int_arg(storage_offset, "as_strided", "storage_offset");
  return ops::as_strided(self, dims_from_sequence(size, "as_strided", "size"),
                         dims_from_sequence(stride, "as_strided", "stride"), offset);
}

}  // namespace

void init_as_strided(py::module_& m) {
  m.def("as_strided", &as_strided, py::arg("input"), py::arg("size"), py::arg("stride"),
        py::arg("storage_offset") = py::none());
  py::object tensor = m.attr("Tensor");
  tensor.attr("as_strided") =
      py::cpp_function(&as_strided, py::name("as_strided"), py::is_method(tensor), py::arg("size"), py::arg("stride"),
                       py::arg("storage_offset") = py::none());
}

}  // namespace engine::python
