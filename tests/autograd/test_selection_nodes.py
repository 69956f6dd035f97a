"""kthvalue, median (of all elements and along a dim), masked_select and roll as one native node
each (KthvalueBackward0, MedianBackward0/1, MaskedSelectBackward0, RollBackward0) with PyTorch's
saved attributes. Values against NumPy in float64, gradients and second derivatives by finite
differences, forward mode and vmap (which differentiate the composed form)."""

import engine
import numpy as np
import pytest
from engine.autograd import gradcheck, gradgradcheck

_A = np.array([[-1.3, -0.42, 0.17, 0.9], [0.35, 1.7, -0.8, 0.05], [2.2, -2.1, 0.61, -0.26]])
_B = np.array([[0.3, -0.6, 1.1, 0.25], [-0.9, 0.4, 0.75, -1.2], [0.15, 0.5, -0.35, 1.4]])
_MASK = _A > 0


def _t(a, grad=True):
    return engine.tensor(a, dtype=engine.float64, requires_grad=grad)


def _next(t):
    return [type(n).__name__ if n is not None else None for n, _ in t.grad_fn.next_functions]


CASES = {
    "kthvalue": (lambda a: a.kthvalue(2, 1).values, lambda a: np.sort(a, 1)[:, 1]),
    "kthvalue_keepdim": (
        lambda a: a.kthvalue(3, 0, keepdim=True).values,
        lambda a: np.sort(a, 0)[2:3],
    ),
    "median_dim": (lambda a: a.median(-1).values, lambda a: np.sort(a, 1)[:, 1]),
    "median": (lambda a: a.median(), lambda a: np.sort(a.ravel())[5]),
    "masked_select": (lambda a: a.masked_select(engine.tensor(_MASK)), lambda a: a[_MASK]),
    "masked_select_broadcast": (
        lambda a: a.masked_select(engine.tensor(_MASK[0])),
        lambda a: a[np.broadcast_to(_MASK[0], a.shape)],
    ),
    "roll": (lambda a: a.roll((1, -3), (0, 1)), lambda a: np.roll(a, (1, -3), (0, 1))),
}
_NAMES = {
    "kthvalue": "KthvalueBackward0",
    "kthvalue_keepdim": "KthvalueBackward0",
    "median_dim": "MedianBackward1",
    "median": "MedianBackward0",
    "masked_select": "MaskedSelectBackward0",
    "masked_select_broadcast": "MaskedSelectBackward0",
    "roll": "RollBackward0",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_gradients_and_second_derivatives(name):
    fn, ref = CASES[name]
    got = fn(_t(_A))
    assert type(got.grad_fn).__name__ == _NAMES[name] and _next(got) == ["AccumulateGrad"]
    np.testing.assert_array_equal(got.detach().numpy(), ref(_A))
    assert gradcheck(fn, (_t(_A),))
    assert gradgradcheck(lambda a: fn(a) ** 2, (_t(_A),))
    _, tangent = engine.func.jvp(fn, (engine.tensor(_A),), (engine.tensor(_B),))
    jac = engine.autograd.functional.jacobian(fn, engine.tensor(_A)).numpy().reshape(-1, 12)
    np.testing.assert_allclose(tangent.numpy().ravel(), jac @ _B.ravel(), rtol=1e-14)


def test_saved_attributes():
    x = _t(_A)
    out = x.kthvalue(2, -1)
    fn = out.values.grad_fn
    assert fn._saved_dim == 2**64 - 1 and fn._saved_keepdim is False
    assert fn._saved_indices.equal(out.indices) and fn._saved_self_sym_sizes == (3, 4)
    fn = x.median().grad_fn
    assert fn._saved_self is x and fn._saved_result.item() == np.sort(_A.ravel())[5]
    mask = engine.tensor(_MASK)
    fn = x.masked_select(mask).grad_fn
    assert fn._saved_self is x and fn._saved_mask is mask
    fn = x.roll(2, -1).grad_fn
    assert (fn._saved_shifts, fn._saved_dims) == ((2,), (2**64 - 1,))


def test_median_of_ties_shares_the_gradient():
    x = _t([1.0, 2.0, 2.0, 3.0, 2.0])
    x.median().backward()
    np.testing.assert_allclose(x.grad.numpy(), [0, 1 / 3, 1 / 3, 0, 1 / 3])


def test_vmap_matches_a_loop():
    batch = engine.tensor(np.stack([_A, _B]))
    got = engine.func.vmap(lambda a: a.kthvalue(2, 1).values)(batch)
    np.testing.assert_array_equal(got[1].numpy(), np.sort(_B, 1)[:, 1])
    got = engine.func.vmap(lambda a: a.roll(1, 1))(batch)
    np.testing.assert_array_equal(got[1].numpy(), np.roll(_B, 1, 1))
