"""vmap of the operations engine computes in Python from values (through NumPy): sorting,
selection, order statistics, quantiles, scatter reductions, masks. Each is checked against a
per-sample loop for several dims, in_dims and options; batched by rule means one call for the
whole batch (no per-sample fallback warning); data-dependent output shapes raise PyTorch's
messages."""

from __future__ import annotations

import engine
import numpy as np
import pytest
from engine.func import vmap

RNG = np.random.default_rng(3)


def _x(*shape):
    return engine.tensor(RNG.standard_normal(shape))


def _loop(fn, inputs, in_dims):
    size = next(t.shape[d] for t, d in zip(inputs, in_dims) if d is not None)
    return [
        fn(*[t if d is None else t.select(d, b) for t, d in zip(inputs, in_dims)])
        for b in range(size)
    ]


def _check(result, per_sample):
    if isinstance(result, tuple):
        for i, r in enumerate(result):
            _check(r, [p[i] for p in per_sample])
        return
    expected = engine.stack(per_sample)
    assert result.dtype == expected.dtype
    assert tuple(result.shape) == tuple(expected.shape)
    np.testing.assert_allclose(result.numpy(), expected.numpy(), rtol=1e-12, equal_nan=True)


CASES = {
    "sort": lambda t: engine.sort(t),
    "sort_dim0_desc": lambda t: engine.sort(t, 0, descending=True),
    "sort_method_kw": lambda t: t.sort(dim=-2),
    "argsort": lambda t: engine.argsort(t, dim=1, descending=True),
    "msort": lambda t: engine.msort(t),
    "topk": lambda t: engine.topk(t, 2),
    "topk_smallest_dim0": lambda t: engine.topk(t, 2, dim=0, largest=False),
    "kthvalue": lambda t: engine.kthvalue(t, 2, 0, keepdim=True),
    "median_all": lambda t: engine.median(t),
    "median_dim": lambda t: engine.median(t, -1),
    "nanmedian_all": lambda t: engine.nanmedian(t),
    "nanmedian_dim": lambda t: engine.nanmedian(t, 0, True),
    "mode": lambda t: engine.mode(t.round(), 1),
    "cummax": lambda t: engine.cummax(t, 1),
    "logcumsumexp": lambda t: engine.logcumsumexp(t, -1),
    "cummin": lambda t: engine.cummin(t, dim=0),
    "quantile_all": lambda t: engine.quantile(t, 0.3),
    "quantile_all_keepdim": lambda t: engine.quantile(t, 0.3, keepdim=True),
    "quantile_dim": lambda t: engine.quantile(t, 0.7, dim=1, interpolation="lower"),
    "quantile_vector_q": lambda t: engine.quantile(t, engine.tensor([0.2, 0.9], dtype=t.dtype), 0),
    "quantile_vector_q_all_keepdim": lambda t: engine.quantile(
        t, engine.tensor([0.2, 0.9], dtype=t.dtype), keepdim=True
    ),
    "nanquantile": lambda t: engine.nanquantile(t, 0.5, dim=-1, keepdim=True),
    "masked_select_shared_mask": lambda t: engine.masked_select(
        t, engine.arange(t.shape[-1]) % 3 != 1
    ),
    "boolean_index_shared_mask": lambda t: t[:, engine.arange(t.shape[1]) % 2 == 0],
    "isin": lambda t: engine.isin(t.round(), engine.tensor([0.0, 1.0], dtype=t.dtype)),
    "searchsorted": lambda t: engine.searchsorted(engine.tensor([-1.0, 0.0, 1.0]).to(t.dtype), t),
    "bucketize": lambda t: engine.bucketize(t, engine.tensor([-1.0, 0.0, 1.0]).to(t.dtype)),
    "matrix_exp": lambda t: engine.linalg.matrix_exp(t[:, :3] * 0.3),
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("in_dim", [0, 2])
def test_values_op_matches_loop_in_one_call(name, in_dim, capsys):
    x = _x(3, 4, 5) if in_dim == 0 else _x(3, 4, 6)
    if name == "matrix_exp":
        x = _x(5, 3, 3) if in_dim == 0 else _x(3, 3, 5)
    fn = CASES[name]
    _check(vmap(fn, in_dims=in_dim)(x), _loop(fn, [x], [in_dim]))
    assert "performance drop" not in capsys.readouterr().err


def test_nested_vmap_sort_and_quantile():
    x = _x(2, 3, 5)
    out = vmap(vmap(lambda t: engine.sort(t, descending=True).values))(x)
    np.testing.assert_allclose(out.numpy(), -np.sort(-x.numpy(), -1))
    q = vmap(vmap(lambda t: engine.quantile(t, 0.25)), in_dims=1)(x)
    np.testing.assert_allclose(q.numpy(), np.quantile(x.numpy(), 0.25, axis=-1).T)


def test_nan_and_ties_follow_the_per_sample_op():
    x = engine.tensor([[1.0, float("nan"), 0.5], [2.0, 2.0, -1.0]])
    for fn in (engine.sort, lambda t: engine.median(t, 0), lambda t: engine.nanmedian(t)):
        _check(vmap(fn)(x), _loop(fn, [x], [0]))


def test_scatter_reduce_with_batched_index_and_src():
    x, src = _x(3, 4, 2), _x(3, 3, 2)
    idx = engine.tensor(RNG.integers(0, 4, (3, 3, 2)))
    for reduce in ("prod", "amax", "amin", "mean", "sum"):
        for include_self in (True, False):

            def fn(a, i, s, r=reduce, inc=include_self):
                return engine.scatter_reduce(a, 0, i, s, r, include_self=inc)

            for dims in ((0, 0, 0), (0, None, 0), (None, 0, None)):
                inputs = [x, idx, src]
                inputs = [t if d is not None else t[0] for t, d in zip(inputs, dims)]
                _check(vmap(fn, in_dims=dims)(*inputs), _loop(fn, inputs, dims))


def test_index_reduce_shared_and_batched_index():
    x, src = _x(3, 4, 2), _x(3, 3, 2)
    idx = engine.tensor([0, 2, 0])

    def fn(a, s, i=idx):
        return a.index_reduce(0, i, s, "prod")

    _check(vmap(fn)(x, src), _loop(fn, [x, src], [0, 0]))
    batched_idx = engine.tensor([[0, 2, 0], [1, 1, 3], [3, 2, 1]])
    g = vmap(lambda a, s, i: a.index_reduce(0, i, s, "amax", include_self=False))
    _check(
        g(x, src, batched_idx),
        _loop(
            lambda a, s, i: a.index_reduce(0, i, s, "amax", include_self=False),
            [x, src, batched_idx],
            [0, 0, 0],
        ),
    )


def test_batched_integer_index_goes_one_sample_at_a_time():
    x = _x(3, 5)
    idx = engine.tensor([[0, 4], [1, 1], [3, 2]])
    _check(vmap(lambda t, i: t[i])(x, idx), _loop(lambda t, i: t[i], [x, idx], [0, 0]))


def test_gradient_through_vmapped_sort():
    x = _x(3, 4).requires_grad_()
    w = engine.arange(4.0, dtype=engine.float64)
    (vmap(lambda t: engine.sort(t).values)(x) * w).sum().backward()
    expected = np.zeros((3, 4))
    order = np.argsort(x.detach().numpy(), -1)
    for b in range(3):
        expected[b, order[b]] = np.arange(4.0)
    np.testing.assert_allclose(x.grad.numpy(), expected)


DYNAMIC = (
    "vmap: We do not support batching operators that can output dynamic shape. Attempted to vmap "
    "over aten::{}. Please file an issue at https://github.com/pytorch/pytorch/issues if you need "
    "this feature."
)


@pytest.mark.parametrize(
    "fn,message",
    [
        (lambda t: engine.unique(t), DYNAMIC.format("_unique2")),
        (lambda t: engine.unique(t, dim=0), DYNAMIC.format("unique_dim")),
        (lambda t: engine.unique_consecutive(t), DYNAMIC.format("unique_consecutive")),
        (lambda t: engine.nonzero(t), DYNAMIC.format("nonzero")),
        (
            lambda t: t[t > 0],
            "vmap: We do not support batching operators that can support dynamic shape. "
            "Attempting to batch over indexing with a boolean mask.",
        ),
        (
            lambda t: engine.masked_select(t, t > 0),
            "vmap: Attempted to vmap over `mask` in torch.masked_select(self, mask) We cannot "
            "support this because for each batch this would return a differently shaped Tensor. "
            "Please file an issue at https://github.com/pytorch/pytorch/issues if you need this "
            "feature.",
        ),
    ],
)
def test_data_dependent_shapes_raise_pytorch_messages(fn, message):
    with pytest.raises(RuntimeError) as info:
        vmap(fn)(_x(3, 4))
    assert str(info.value) == message


def test_values_ops_outside_vmap_are_the_plain_functions():
    x = _x(4)
    assert engine.sort.__name__ == "sort" and "Sorts" in engine.sort.__doc__
    np.testing.assert_allclose(engine.sort(x).values.numpy(), np.sort(x.numpy()))
    np.testing.assert_allclose(x[x > 0].numpy(), x.numpy()[x.numpy() > 0])


@pytest.mark.filterwarnings("ignore:There is a performance drop")
def test_same_results_and_messages_as_pytorch():
    torch = pytest.importorskip("torch")
    x = RNG.standard_normal((3, 4, 5))
    fns = [
        lambda lib, t: lib.sort(t, 1, descending=True).values,
        lambda lib, t: lib.topk(t, 2).indices,
        lambda lib, t: lib.median(t, -1).values,
        lambda lib, t: lib.quantile(t, 0.3),
        lambda lib, t: lib.kthvalue(t, 2, 0).values,
    ]
    for fn in fns:
        ours = vmap(lambda t, f=fn: f(engine, t))(engine.tensor(x))
        theirs = torch.func.vmap(lambda t, f=fn: f(torch, t))(torch.tensor(x))
        np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-12)
    for fn in (lambda t: t[t > 0], lambda t: t.unique(), lambda t: t.nonzero()):
        with pytest.raises(RuntimeError) as theirs:
            torch.func.vmap(fn)(torch.tensor(x))
        with pytest.raises(RuntimeError) as ours:
            vmap(fn)(engine.tensor(x))
        assert str(ours.value) == str(theirs.value)
