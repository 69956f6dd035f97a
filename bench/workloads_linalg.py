"""The linear-algebra workloads (LAPACK through engine.linalg, torch.linalg and numpy.linalg),
registered into workloads.BENCHMARKS; float64, as linear algebra is usually run."""

from workloads import bench


def _operands(T, *shapes, spd=False):
    """Random float64 operands with one seed; spd makes the first symmetric positive-definite."""
    import numpy as np

    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal(s) for s in shapes]
    if spd:
        a = arrays[0]
        arrays[0] = a @ np.swapaxes(a, -1, -2) + a.shape[-1] * np.eye(a.shape[-1])
    if T.__name__ == "numpy":
        return arrays
    return [T.tensor(a, dtype=T.float64) for a in arrays]


def _register(name, shapes, call, spd=False):
    register = bench(name)

    def make(T):
        args = _operands(T, *shapes, spd=spd)
        return lambda: call(T.linalg, *args)

    for fw in ("engine", "torch", "numpy"):
        register(fw)(make)


_register("linalg.inv 4x4 (small call)", [(4, 4)], lambda L, a: L.inv(a))
_register("linalg.inv batch 1000x4x4", [(1000, 4, 4)], lambda L, a: L.inv(a))
_register("linalg.solve 256x256, 256 rhs", [(256, 256), (256, 256)], lambda L, a, b: L.solve(a, b))
_register("linalg.det batch 1000x4x4", [(1000, 4, 4)], lambda L, a: L.det(a))
_register("linalg.cholesky 256x256", [(256, 256)], lambda L, a: L.cholesky(a), spd=True)
_register("linalg.qr 256x256", [(256, 256)], lambda L, a: L.qr(a))
_register("linalg.svd 200x200", [(200, 200)], lambda L, a: L.svd(a))
_register("linalg.eigh 200x200", [(200, 200)], lambda L, a: L.eigh(a), spd=True)
