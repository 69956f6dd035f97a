"""Named results of ops returning several tensors (``values, indices = x.max(0)``)."""

from collections import namedtuple


def _make(name, fields):
    base = namedtuple(name, fields)

    def __repr__(self):
        body = ",\n".join(f"{f}={getattr(self, f)!r}" for f in fields)
        return f"torch.return_types.{name}(\n{body})"

    op = name.replace("linalg_", "linalg.", 1)
    doc = (
        f"The named tuple ``({', '.join(fields)})`` that ``engine.{op}`` returns: its fields read"
        " by name or by position, and it unpacks like a tuple."
    )
    cls = type(name, (base,), {"__slots__": (), "__repr__": __repr__, "__doc__": doc})
    cls.__module__ = "engine.return_types"
    return cls


max = _make("max", ("values", "indices"))
min = _make("min", ("values", "indices"))
sort = _make("sort", ("values", "indices"))
topk = _make("topk", ("values", "indices"))
kthvalue = _make("kthvalue", ("values", "indices"))
median = _make("median", ("values", "indices"))
cummax = _make("cummax", ("values", "indices"))
cummin = _make("cummin", ("values", "indices"))
aminmax = _make("aminmax", ("min", "max"))
mode = _make("mode", ("values", "indices"))
nanmedian = _make("nanmedian", ("values", "indices"))
histogram = _make("histogram", ("hist", "bin_edges"))
histogramdd = _make("histogramdd", ("hist", "bin_edges"))

# engine.linalg and its torch.* names
linalg_inv_ex = _make("linalg_inv_ex", ("inverse", "info"))
linalg_solve_ex = _make("linalg_solve_ex", ("result", "info"))
linalg_cholesky_ex = _make("linalg_cholesky_ex", ("L", "info"))
linalg_slogdet = _make("linalg_slogdet", ("sign", "logabsdet"))
slogdet = _make("slogdet", ("sign", "logabsdet"))
linalg_qr = _make("linalg_qr", ("Q", "R"))
qr = _make("qr", ("Q", "R"))
linalg_svd = _make("linalg_svd", ("U", "S", "Vh"))
svd = _make("svd", ("U", "S", "V"))
linalg_eigh = _make("linalg_eigh", ("eigenvalues", "eigenvectors"))
linalg_lstsq = _make("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))
linalg_lu_factor = _make("linalg_lu_factor", ("LU", "pivots"))
linalg_lu_factor_ex = _make("linalg_lu_factor_ex", ("LU", "pivots", "info"))
linalg_lu = _make("linalg_lu", ("P", "L", "U"))
lu_unpack = _make("lu_unpack", ("P", "L", "U"))
geqrf = _make("geqrf", ("a", "tau"))
triangular_solve = _make("triangular_solve", ("solution", "cloned_coefficient"))
frexp = _make("frexp", ("mantissa", "exponent"))
