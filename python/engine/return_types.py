"""Named results of ops returning several tensors (``values, indices = x.max(0)``).

Each type is made when first used (PEP 562), so that ``import engine`` does not pay for building
thirty named tuples."""

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


# name -> fields: the types this module provides.
_FIELDS = {
    "max": ("values", "indices"),
    "min": ("values", "indices"),
    "sort": ("values", "indices"),
    "topk": ("values", "indices"),
    "kthvalue": ("values", "indices"),
    "median": ("values", "indices"),
    "cummax": ("values", "indices"),
    "cummin": ("values", "indices"),
    "aminmax": ("min", "max"),
    "mode": ("values", "indices"),
    "nanmedian": ("values", "indices"),
    "histogram": ("hist", "bin_edges"),
    "histogramdd": ("hist", "bin_edges"),
    # engine.linalg and its torch.* names
    "linalg_inv_ex": ("inverse", "info"),
    "linalg_solve_ex": ("result", "info"),
    "linalg_cholesky_ex": ("L", "info"),
    "linalg_slogdet": ("sign", "logabsdet"),
    "slogdet": ("sign", "logabsdet"),
    "linalg_qr": ("Q", "R"),
    "qr": ("Q", "R"),
    "linalg_svd": ("U", "S", "Vh"),
    "svd": ("U", "S", "V"),
    "linalg_eigh": ("eigenvalues", "eigenvectors"),
    "linalg_lstsq": ("solution", "residuals", "rank", "singular_values"),
    "linalg_lu_factor": ("LU", "pivots"),
    "linalg_lu_factor_ex": ("LU", "pivots", "info"),
    "linalg_lu": ("P", "L", "U"),
    "lu_unpack": ("P", "L", "U"),
    "geqrf": ("a", "tau"),
    "triangular_solve": ("solution", "cloned_coefficient"),
    "frexp": ("mantissa", "exponent"),
}

__all__ = list(_FIELDS)


def __getattr__(name):
    if name not in _FIELDS:
        raise AttributeError(f"module 'engine.return_types' has no attribute '{name}'")
    # setdefault: two threads racing here still share one type (isinstance and pickling agree).
    return globals().setdefault(name, _make(name, _FIELDS[name]))


def __dir__():
    return sorted(set(globals()) | _FIELDS.keys())
