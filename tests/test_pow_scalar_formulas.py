"""pow(Tensor, number) for the exponents PyTorch evaluates by formula (2, 3, -1, -2, -0.5): the
same bits as x * x, x * x * x, 1 / x, 1 / (x * x) and 1 / sqrt(x), not libm's pow, so results
(and losses printed from them) agree with PyTorch's to the last bit."""

import engine
import numpy as np
import pytest

RNG = np.random.default_rng(11)
X = RNG.standard_normal(4096).astype(np.float32)
POS = np.abs(X) + np.float32(1e-3)

FORMULAS = {
    2: lambda x: x * x,
    3: lambda x: x * x * x,
    -1: lambda x: np.ones_like(x) / x,
    -2: lambda x: np.ones_like(x) / (x * x),
    -0.5: lambda x: np.ones_like(x) / np.sqrt(x),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("exponent", sorted(FORMULAS))
def test_formula_bits(exponent, dtype):
    x = (POS if exponent == -0.5 else X).astype(dtype)
    got = (engine.from_numpy(x) ** exponent).numpy()
    np.testing.assert_array_equal(got, FORMULAS[exponent](x))


@pytest.mark.parametrize("exponent", sorted(FORMULAS))
def test_float16_rounds_once(exponent):
    x16 = (POS if exponent == -0.5 else X).astype(np.float16)
    got = (engine.from_numpy(x16) ** exponent).numpy()
    with np.errstate(over="ignore"):  # 1 / (x * x) beyond float16's range is inf in both
        expected = FORMULAS[exponent](x16.astype(np.float32)).astype(np.float16)
    np.testing.assert_array_equal(got, expected)


def test_layout_and_gradient_unchanged():
    x = engine.tensor([[1.0, 2.0], [3.0, -4.0]], requires_grad=True)
    y = x.t() ** 3
    assert y.stride() == (1, 2) and type(y.grad_fn).__name__ == "PowBackward0"
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), 3 * x.detach().numpy() ** 2)
    assert engine.autograd.gradcheck(
        lambda t: t**-2, engine.tensor([0.5, 1.5, -2.0], dtype=engine.float64, requires_grad=True)
    )


def test_live_against_torch():
    torch = pytest.importorskip("torch")
    for dt in ("float32", "float64", "float16", "bfloat16"):
        for e in FORMULAS:
            x = POS if e == -0.5 else X
            ours = (engine.from_numpy(x).to(getattr(engine, dt)) ** e).float().numpy()
            theirs = (torch.from_numpy(x).to(getattr(torch, dt)) ** e).float().numpy()
            if dt == "bfloat16" and e == -0.5:
                np.testing.assert_allclose(ours, theirs, rtol=2**-7)  # bf16 rsqrt: last bit
            else:
                np.testing.assert_array_equal(ours, theirs)
