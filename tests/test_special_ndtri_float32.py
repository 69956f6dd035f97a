"""special.ndtri in float32: no NaN where 2p - 1 rounds to -1 (p = 1e-8 gave NaN), within one ulp
of the float64 result across the whole range, and PyTorch's node names."""

import engine
import numpy as np


def test_float32_tail_has_no_nan():
    p = engine.tensor([1e-8, 1.1e-8, 2e-8, 5e-8, 1e-30])
    got = engine.special.ndtri(p)
    assert not got.isnan().any()
    expected = engine.special.ndtri(p.double()).float()
    np.testing.assert_array_equal(got.numpy(), expected.numpy())


def test_float32_within_one_ulp_everywhere():
    p = np.concatenate([np.logspace(-38, -0.302, 4000), 1 - np.logspace(-7, -0.302, 500)]).astype(
        np.float32
    )
    got = engine.special.ndtri(engine.from_numpy(p)).numpy().astype(np.float64)
    ref = engine.special.ndtri(engine.from_numpy(p.astype(np.float64))).numpy()
    ulps = np.abs(got - ref) / np.spacing(np.abs(ref).astype(np.float32))
    assert ulps.max() <= 1.0
    edges = engine.special.ndtri(engine.tensor([0.0, 1.0, 0.5, -0.5, 1.5]))
    assert edges.tolist()[:3] == [-float("inf"), float("inf"), 0.0] and edges[3:].isnan().all()


def test_node_names_and_gradient():
    x = engine.tensor([0.1, 0.7], requires_grad=True)
    y = engine.special.ndtri(x)
    assert type(y.grad_fn).__name__ == "SpecialNdtriBackward0" and y.dtype == engine.float32
    assert type(engine.special.log_ndtr(x).grad_fn).__name__ == "SpecialLogNdtrBackward0"
    y.sum().backward()
    # d/dp ndtri(p) = 1 / phi(ndtri(p)) = sqrt(2 pi) exp(x^2 / 2)
    xs = y.detach().double().numpy()
    np.testing.assert_allclose(x.grad.numpy(), np.sqrt(2 * np.pi) * np.exp(xs**2 / 2), rtol=1e-5)
    d = engine.tensor([0.1, 0.3, 0.9], dtype=engine.float64, requires_grad=True)
    assert engine.autograd.gradcheck(engine.special.ndtri, d)
