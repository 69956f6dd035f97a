// The LAPACK primitives behind engine.linalg, as engine._C._lapack_<name>: tensors in, tensors
// out, no history. python/engine/linalg.py checks arguments with PyTorch's messages and adds the
// gradients; the long work runs without the interpreter lock.
#include <pybind11/stl.h>

#include "engine/kernels/lapack.h"
#include "engine/ops/linalg_decompositions.h"
#include "engine/python/bindings.h"

namespace engine::python {

void init_linalg(py::module_& m) {
  // Module-level names (not a submodule) keep the stub generator's single-file output.
  auto& l = m;
  l.def("_lapack_available", &kernels::lapack::available, "Whether this build links a LAPACK.");
  l.def("_lapack_lu_factor", &ops::lapack_lu_factor, py::arg("A"), "(LU, pivots, info) of getrf.");
  l.def("_lapack_inv", &ops::lapack_inv, py::arg("A"), "(inverse, info) of getrf and getrs on the identity.");
  l.def("_lapack_det", &ops::lapack_det, py::arg("A"), "Determinants from getrf's factors.");
  l.def("_lapack_lu_solve", &ops::lapack_lu_solve, py::arg("LU"), py::arg("pivots"), py::arg("B"), py::arg("transpose"),
        "X with op(A) X = B from getrf's factors (getrs).");
  l.def("_lapack_cholesky", &ops::lapack_cholesky, py::arg("A"), py::arg("upper"), "(factor, info) of potrf.");
  l.def("_lapack_geqrf", &ops::lapack_geqrf, py::arg("A"), "(a, tau) of geqrf.");
  l.def("_lapack_qr", &ops::lapack_qr, py::arg("A"), py::arg("mode"),
        "(Q, R) of geqrf and orgqr; mode 'r' (Q empty), 's' (reduced) or 'c' (complete).");
  l.def("_lapack_orgqr", &ops::lapack_orgqr, py::arg("A"), py::arg("tau"), "Q's first columns (orgqr).");
  l.def("_lapack_ormqr", &ops::lapack_ormqr, py::arg("A"), py::arg("tau"), py::arg("C"), py::arg("left"),
        py::arg("transpose"), "op(Q) C or C op(Q) (ormqr).");
  l.def("_lapack_svd", &ops::lapack_svd, py::arg("A"), py::arg("full_matrices"), py::arg("compute_uv"),
        "(U, S, Vh, info) of gesdd.");
  l.def("_lapack_eigh", &ops::lapack_eigh, py::arg("A"), py::arg("upper"), py::arg("vectors"),
        "(eigenvalues, eigenvectors, info) of syevd.");
  l.def("_lapack_triangular_solve", &ops::lapack_triangular_solve, py::arg("A"), py::arg("B"), py::arg("upper"),
        py::arg("left"), py::arg("transpose"), py::arg("unitriangular"), "op(A)^-1 B or B op(A)^-1 (trsm).");
  l.def("_lapack_lstsq", &ops::lapack_lstsq, py::arg("A"), py::arg("B"), py::arg("rcond"), py::arg("driver"),
        "(solution, rank, singular_values, info) of gelsy / gelsd / gelss / gels.");
  // out= of the Python-level linalg functions, with the checks and resizing of the native ops'.
  l.def("_linalg_write_out", [](py::handle out, const Tensor& result, const std::vector<Tensor>& inputs,
                                const std::string& fname) {
    check_out_args(out, {}, fname.c_str());
    for (const Tensor& t : inputs) check_out_args(out, {&t}, fname.c_str());
    return write_out(out, result);
  }, py::arg("out"), py::arg("result"), py::arg("inputs"), py::arg("fname"),
        "Writes result into out (resized if needed) after PyTorch's out= checks; returns out.");
}

}  // namespace engine::python
