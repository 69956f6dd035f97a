"""trace, repeat and dist as one native node each (TraceBackward0, RepeatBackward0,
DistBackward0), and the saved attributes PyTorch's nodes show for gather, the special binary ops
(fmax/fmin, hypot, xlogy, logaddexp, copysign), erfinv, square (PowBackward0), the 2-D pools and
the strided view of a base written in place. Values against NumPy in float64, gradients and second
derivatives by finite differences, forward mode and vmap (which differentiate the composed form)."""

import engine
import engine.nn.functional as F
import numpy as np
import pytest
from engine.autograd import gradcheck, gradgradcheck

_A = np.array([[-1.3, -0.42, 0.17, 0.9], [0.35, 1.7, -0.8, 0.05], [2.2, -2.1, 0.61, -0.26]])
_B = np.array([[0.3, -0.6, 1.1, 0.25], [-0.9, 0.4, 0.75, -1.2], [0.15, 0.5, -0.35, 1.4]])


def _t(a, grad=True):
    return engine.tensor(a, dtype=engine.float64, requires_grad=grad)


def _next(t):
    return [type(n).__name__ if n is not None else None for n, _ in t.grad_fn.next_functions]


def test_trace():
    x = _t(_A[:, :3])
    y = x.trace()
    assert type(y.grad_fn).__name__ == "TraceBackward0" and _next(y) == ["AccumulateGrad"]
    assert y.grad_fn._saved_self_sym_sizes == (3, 3)
    assert y.item() == pytest.approx(np.trace(_A[:, :3]), rel=1e-15)
    assert gradcheck(engine.trace, (_t(_A),))
    assert gradgradcheck(lambda a: a.trace() ** 2, (_t(_A),))
    _, tangent = engine.func.jvp(engine.trace, (engine.tensor(_A),), (engine.tensor(_B),))
    assert tangent.item() == pytest.approx(np.trace(_B), rel=1e-15)


@pytest.mark.parametrize("reps", [(2, 1), (1, 3), (2, 1, 2)])
def test_repeat(reps):
    x = _t(_A)
    y = x.repeat(*reps)
    assert type(y.grad_fn).__name__ == "RepeatBackward0" and _next(y) == ["AccumulateGrad"]
    assert y.grad_fn._saved_repeats == reps and y.grad_fn._saved_self_sym_sizes == (3, 4)
    np.testing.assert_array_equal(y.detach().numpy(), np.tile(_A, reps))
    assert gradcheck(lambda a: a.repeat(*reps), (_t(_A),))
    assert gradgradcheck(lambda a: a.repeat(*reps) ** 2, (_t(_A),))
    got = engine.func.vmap(lambda a: a.repeat(*reps))(engine.tensor(np.stack([_A, _B])))
    np.testing.assert_array_equal(got[1].numpy(), np.tile(_B, reps))


@pytest.mark.parametrize("p", [2, 1, 3.5, 0.5])
def test_dist(p):
    x, y = _t(_A), _t(_B[0])
    d = engine.dist(x, y, p)
    assert type(d.grad_fn).__name__ == "DistBackward0"
    assert _next(d) == ["AccumulateGrad", "AccumulateGrad"]
    fn = d.grad_fn
    assert fn._saved_p == p and fn._saved_self is x and fn._saved_other is y
    assert fn._saved_result.item() == d.item()
    ref = (np.abs(_A - _B[0]) ** p).sum() ** (1 / p)
    assert d.item() == pytest.approx(ref, rel=1e-13)
    assert gradcheck(lambda a, b: engine.dist(a, b, p), (_t(_A), _t(_B[0])))
    assert gradgradcheck(lambda a, b: engine.dist(a, b, p), (_t(_A), _t(_B[0])))
    _, tangent = engine.func.jvp(
        lambda a: engine.dist(a, engine.tensor(_B), p), (engine.tensor(_A),), (engine.tensor(_B),)
    )
    xr = _t(_A)
    (g,) = engine.autograd.grad(engine.dist(xr, engine.tensor(_B), p), [xr])
    assert tangent.item() == pytest.approx((g * engine.tensor(_B)).sum().item(), rel=1e-10)


def test_dist_of_equal_inputs_has_a_zero_gradient():
    x, y = _t(_A), _t(_A)
    engine.dist(x, y).backward()
    assert x.grad.abs().sum().item() == 0.0 and y.grad.abs().sum().item() == 0.0


def test_binary_special_ops_show_their_operands():
    x, y = _t(np.abs(_A)), _t(np.abs(_B))
    for fn, names in (
        (engine.fmax, {"_saved_self", "_saved_other"}),
        (engine.fmin, {"_saved_self", "_saved_other"}),
        (engine.logaddexp, {"_saved_self", "_saved_other"}),
        (engine.xlogy, {"_saved_self", "_saved_other"}),
        (engine.hypot, {"_saved_self", "_saved_other", "_saved_result"}),
        (engine.copysign, {"_saved_self", "_saved_result"}),
    ):
        out = fn(x, y)
        assert {a for a in dir(out.grad_fn) if a.startswith("_saved")} == names, fn
        assert out.grad_fn._saved_self is x
    assert engine.erfinv(_t(_A * 0.3)).grad_fn._saved_self is not None
    assert gradgradcheck(engine.erfinv, (_t(_A * 0.3),))


def test_gather_shows_its_input():
    x = _t(_A)
    y = x.gather(1, engine.tensor([[0], [1], [2]]))
    assert y.grad_fn._saved_self is x


def test_square_is_pow_two():
    x = _t(_A)
    y = x.square()
    assert type(y.grad_fn).__name__ == "PowBackward0" and y.grad_fn._saved_exponent == 2
    np.testing.assert_array_equal(y.detach().numpy(), _A * _A)
    assert engine.tensor([2, 3]).square().tolist() == [4, 9]


def test_pools_show_their_arguments():
    x = _t(np.arange(16.0).reshape(1, 1, 4, 4))
    fn = F.max_pool2d(x, 2).grad_fn
    assert (fn._saved_kernel_size, fn._saved_stride, fn._saved_padding) == ((2, 2), (), (0, 0))
    assert (fn._saved_dilation, fn._saved_ceil_mode, fn._saved_self is x) == ((1, 1), False, True)
    fn = F.avg_pool2d(x, (2, 2), 1, 1, True, False, 3).grad_fn
    assert (fn._saved_stride, fn._saved_padding, fn._saved_divisor_override) == ((1, 1), (1, 1), 3)
    assert (fn._saved_ceil_mode, fn._saved_count_include_pad) == (True, False)


def test_view_of_a_written_base_shows_its_geometry():
    y = _t(_A) * 2
    v = y[:, 1]
    v.mul_(2)
    fn = v.grad_fn
    assert type(fn).__name__ == "AsStridedBackward0"
    assert (fn._saved_size, fn._saved_stride, fn._saved_storage_offset) == ((3,), (4,), 1)


def test_outer_and_normalize_graphs():
    y = engine.outer(_t(_A[0]), _t(_B[0]))
    assert _next(y) == ["ViewBackward0", "AccumulateGrad"]
    np.testing.assert_array_equal(y.detach().numpy(), np.outer(_A[0], _B[0]))
    z = F.normalize(_t(_A))
    assert _next(z) == ["AccumulateGrad", "ExpandBackward0"]
    np.testing.assert_allclose(
        z.detach().numpy(), _A / np.linalg.norm(_A, axis=1, keepdims=True), rtol=1e-14
    )
