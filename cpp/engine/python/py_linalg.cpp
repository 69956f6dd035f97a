// The LAPACK primitives behind engine.linalg, as engine._C._lapack: tensors in, tensors out, no
// history. python/engine/linalg.py checks arguments with PyTorch's messages and adds the
// gradients; the long work runs without the interpreter lock.
#include "engine/kernels/lapack.h"
#include "engine/ops/linalg_decompositions.h"
#include "engine/python/bindings.h"

namespace engine::python {

void init_linalg(py::module_& m) {
  auto l = m.def_submodule("_lapack", "LAPACK-backed factorisations for engine.linalg (no autograd).");
  l.def("available", &kernels::lapack::available, "Whether this build links a LAPACK.");
  l.def("lu_factor", &ops::lapack_lu_factor, py::arg("A"), "(LU, pivots, info) of getrf.");
  l.def("lu_solve", &ops::lapack_lu_solve, py::arg("LU"), py::arg("pivots"), py::arg("B"), py::arg("transpose"),
        "X with op(A) X = B from getrf's factors (getrs).");
  l.def("cholesky", &ops::lapack_cholesky, py::arg("A"), py::arg("upper"), "(factor, info) of potrf.");
  l.def("geqrf", &ops::lapack_geqrf, py::arg("A"), "(a, tau) of geqrf.");
  l.def("orgqr", &ops::lapack_orgqr, py::arg("A"), py::arg("tau"), "Q's first columns (orgqr).");
  l.def("ormqr", &ops::lapack_ormqr, py::arg("A"), py::arg("tau"), py::arg("C"), py::arg("left"),
        py::arg("transpose"), "op(Q) C or C op(Q) (ormqr).");
  l.def("svd", &ops::lapack_svd, py::arg("A"), py::arg("full_matrices"), py::arg("compute_uv"),
        "(U, S, Vh, info) of gesdd.");
  l.def("eigh", &ops::lapack_eigh, py::arg("A"), py::arg("upper"), py::arg("vectors"),
        "(eigenvalues, eigenvectors, info) of syevd.");
  l.def("triangular_solve", &ops::lapack_triangular_solve, py::arg("A"), py::arg("B"), py::arg("upper"),
        py::arg("left"), py::arg("transpose"), py::arg("unitriangular"), "op(A)^-1 B or B op(A)^-1 (trsm).");
  l.def("lstsq", &ops::lapack_lstsq, py::arg("A"), py::arg("B"), py::arg("rcond"), py::arg("driver"),
        "(solution, rank, singular_values, info) of gelsy / gelsd / gelss / gels.");
}

}  // namespace engine::python
