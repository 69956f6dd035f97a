"""Every op of tests/op_table.py under ``engine.func.vmap`` against a Python loop over the batch.

Each case stacks three samples of the op's inputs along dimension 0 or 1 (``in_dims``) and
compares ``vmap(op)`` with the op applied to each sample and stacked: values, dtype and shape.
Ops whose batching goes through the per-sample fallback must still agree, and so must those
engine computes in Python through NumPy (sorting, selection, quantiles: batched by rule); ops
whose output shape depends on each sample's values raise PyTorch's vmap error.
"""

from __future__ import annotations

import sys
from pathlib import Path

import engine
import numpy as np
import pytest
from engine.func import vmap

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from op_table import OPS, cases  # noqa: E402

BATCH = 3

# Ops whose result's shape depends on each sample's values (a mask batched along with the
# input): PyTorch's vmap refuses them with a RuntimeError, and so does engine's.
DATA_DEPENDENT_SHAPE = {"getitem_mask", "masked_select"}


def _params():
    for op in OPS:
        for k, (ident, values, _layout) in enumerate(
            cases(op, np.random.default_rng(11), ("contiguous",))
        ):
            if k >= 2:
                break
            for in_dim in (0, 1):
                yield pytest.param(op, values, in_dim, id=f"{op.name}-{ident}-in{in_dim}")


def _samples(op, values):
    rng = np.random.default_rng(5)
    # Three samples: the case's values and two perturbations within the same domain family.
    samples = [values]
    for _ in range(BATCH - 1):
        samples.append([v if v.dtype == bool else _perturb(v, rng) for v in values])
    return samples


def _perturb(v, rng):
    permuted = v.reshape(-1)[rng.permutation(v.size)].reshape(v.shape) if v.size else v
    return permuted.copy()


@pytest.mark.filterwarnings("ignore:There is a performance drop")
@pytest.mark.parametrize("op,values,in_dim", list(_params()))
def test_vmap_matches_loop(op, values, in_dim):
    samples = _samples(op, values)
    dims = tuple(in_dim if v.ndim >= 1 else 0 for v in values)
    inputs = []
    for i in range(len(values)):
        stacked = np.stack([s[i] for s in samples], axis=dims[i])
        inputs.append(engine.tensor(stacked))
    # The loop sees each sample as the view vmap's function sees (same strides).
    batched = vmap(lambda *a: op.fn(engine, *a), in_dims=dims)
    if op.name in DATA_DEPENDENT_SHAPE:
        with pytest.raises(RuntimeError, match="vmap: "):
            batched(*inputs)
        return
    try:
        per_sample = [
            op.fn(engine, *[t.select(d, b) for t, d in zip(inputs, dims)]) for b in range(BATCH)
        ]
    except RuntimeError as error:  # e.g. view() of a sample whose strides forbid it
        with pytest.raises(type(error)):
            batched(*inputs)
        return
    result = batched(*inputs)
    _compare(result, per_sample)


def _compare(result, per_sample):
    if isinstance(result, (tuple, list)):
        for i, r in enumerate(result):
            _compare(r, [p[i] for p in per_sample])
        return
    expected = engine.stack(per_sample)
    assert result.dtype == expected.dtype
    assert tuple(result.shape) == tuple(expected.shape)
    np.testing.assert_allclose(
        result.numpy().astype(np.float64),
        expected.numpy().astype(np.float64),
        rtol=1e-6,
        atol=1e-9,
        equal_nan=True,
    )
