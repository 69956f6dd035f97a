// The complex-number surface of the native module: view_as_real / view_as_complex, complex, polar,
// the halves behind Tensor.real / Tensor.imag, and reading complex elements back as Python complex numbers.
#include "engine/core/error.h"
#include "engine/kernels/complex_copy.h"
#include "engine/kernels/elementwise.h"
#include "engine/ops/complex.h"
#include "engine/ops/ops.h"
#include "engine/python/bindings.h"

namespace engine::python {

// Element `flat` (row-major) of complex `z`, as a Python complex.
py::object complex_element_to_py(const Tensor& z, int64_t flat) {
  const double re = kernels::read_double(kernels::complex_part(z, 0), flat);
  const double im = kernels::read_double(kernels::complex_part(z, 1), flat);
  return py::reinterpret_steal<py::object>(PyComplex_FromDoubles(re, im));
}

void init_complex(py::module_& m) {
  m.def("view_as_real", &ops::view_as_real, py::arg("input"));
  m.def("view_as_complex", &ops::view_as_complex, py::arg("input"));
  m.def("complex", &ops::complex, py::arg("real"), py::arg("imag"));
  m.def("polar", &ops::polar, py::arg("abs"), py::arg("angle"));
  m.def("_conj_physical", &ops::conj_physical, py::arg("input"));
  m.def("_complex_angle", &ops::complex_angle, py::arg("input"));
  // Tensor.real / Tensor.imag (the Python layer makes them properties).
  m.def("_real", &ops::real, py::arg("input"));
  m.def("_imag", &ops::imag, py::arg("input"));
}

}  // namespace engine::python
