"""complex64 / complex128: the dtype, creation, conversion, NumPy interop, printing, views,
arithmetic and reductions, checked against NumPy's complex128 (values) and against PyTorch
2.13's recorded gradients and reprs (tests/fixtures/complex.json, from record_complex.py)."""

import json
import os
import warnings

import engine as torch
import numpy as np
import pytest

with open(os.path.join(os.path.dirname(__file__), "fixtures", "complex.json")) as _f:
    FIXTURE = json.load(_f)


def inputs(requires=()):
    out = {"torch": torch}
    for name, (kind, data) in FIXTURE["inputs"].items():
        if kind == "complex":
            values = np.array([[complex(*c) for c in row] for row in data], dtype=np.complex64)
        else:
            values = np.array(data, dtype=np.float32)
        out[name] = torch.from_numpy(values).requires_grad_(name in requires)
    return out


def as_pairs(t):
    t = t.detach()
    if t.is_complex():
        t = torch.view_as_real(t)
    return t.double().flatten().tolist()


def test_dtypes_and_aliases():
    assert torch.cfloat is torch.complex64 and torch.cdouble is torch.complex128
    assert repr(torch.complex64) == "torch.complex64"
    assert torch.complex64.is_complex and not torch.complex64.is_floating_point
    assert not torch.float32.is_complex
    assert torch.complex64.itemsize == 8 and torch.complex128.itemsize == 16
    assert torch.complex64.is_signed


def test_complex32_is_refused_clearly():
    with pytest.raises(AttributeError, match="complex32 \\(ComplexHalf\\) is not supported"):
        getattr(torch, "complex32")  # noqa: B009
    assert not hasattr(torch, "chalf")


def test_promotion_lattice_matches_pytorch():
    c8, c16 = torch.complex64, torch.complex128
    assert torch.promote_types(torch.float32, c8) is c8
    assert torch.promote_types(torch.float64, c8) is c16
    assert torch.promote_types(torch.int64, c8) is c8
    assert torch.promote_types(c8, c16) is c16
    assert torch.promote_types(torch.bool, c16) is c16
    assert not torch.can_cast(c8, torch.float64) and torch.can_cast(torch.float64, c8)


def test_python_complex_numbers_are_wrapped_scalars():
    assert (torch.ones(2) * 1j).dtype is torch.complex64
    assert (torch.ones(2, dtype=torch.float64) * 1j).dtype is torch.complex128
    assert (torch.arange(3) * 1j).dtype is torch.complex64
    assert (torch.ones(2, dtype=torch.complex64) * 2.5).dtype is torch.complex64
    assert (
        torch.ones(2, dtype=torch.complex64) + torch.ones(2, dtype=torch.float64)
    ).dtype is torch.complex128
    assert (torch.tensor(1j) + torch.ones(2, dtype=torch.float64)).dtype is torch.complex128


def test_tensor_from_python_and_numpy():
    t = torch.tensor([1 + 2j, 3, -1j])
    assert t.dtype is torch.complex64 and t.tolist() == [1 + 2j, 3 + 0j, -1j]
    assert torch.tensor(1 + 2j).item() == 1 + 2j
    assert torch.tensor([1, 2], dtype=torch.complex128).tolist() == [1 + 0j, 2 + 0j]
    with pytest.raises(TypeError, match="must be real number, not complex"):
        torch.tensor([1j], dtype=torch.float32)
    a = np.array([1 + 2j, -3.5 + 0.25j], dtype=np.complex128)
    shared = torch.from_numpy(a)
    assert shared.dtype is torch.complex128
    a[0] = 7j
    assert shared[0].item() == 7j  # from_numpy shares memory
    back = torch.tensor([[1 + 1j, 2 - 2j]]).numpy()
    assert back.dtype == np.complex64 and back.tolist() == [[1 + 1j, 2 - 2j]]
    assert torch.tensor(a).dtype is torch.complex128


@pytest.mark.parametrize("dtype", [torch.complex64, torch.complex128])
def test_factories(dtype):
    assert torch.zeros(2, 3, dtype=dtype).tolist() == [[0j] * 3] * 2
    assert torch.ones(2, dtype=dtype).tolist() == [1 + 0j, 1 + 0j]
    assert torch.empty(4, dtype=dtype).dtype is dtype
    assert torch.full((2,), 3.0, dtype=dtype).tolist() == [3 + 0j, 3 + 0j]
    r = torch.randn(2000, dtype=dtype)
    assert r.dtype is dtype
    # PyTorch's rule: each half has variance 1/2, so E|z|^2 = 1.
    assert abs(r.abs().pow(2).mean().item() - 1.0) < 0.1
    u = torch.rand(1000, dtype=dtype)
    assert 0 <= u.real.min().item() and u.imag.max().item() < 1


def test_randn_matches_pytorch_stream():
    torch.manual_seed(1)
    z = torch.randn(2, 2, dtype=torch.cfloat)
    torch.manual_seed(1)
    pairs = torch.randn(2, 2, 2) * (0.5**0.5)
    assert torch.allclose(torch.view_as_real(z), pairs)


def test_to_and_back():
    z = torch.tensor([1.5 - 2j, 0.25 + 1j])
    assert z.to(torch.complex128).tolist() == [1.5 - 2j, 0.25 + 1j]
    assert torch.tensor([1.0, 2.0]).to(torch.cfloat).tolist() == [1 + 0j, 2 + 0j]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        real = z.to(torch.float32)
    assert real.tolist() == [1.5, 0.25]
    assert any("discards the imaginary part" in str(w.message) for w in caught)


def test_real_imag_are_views():
    z = torch.tensor([1 + 2j, 3 - 4j])
    assert z.real.tolist() == [1.0, 3.0] and z.imag.tolist() == [2.0, -4.0]
    z.real.mul_(10)
    assert z.tolist() == [10 + 2j, 30 - 4j]
    z.imag = torch.tensor([0.5, 0.25])
    assert z.tolist() == [10 + 0.5j, 30 + 0.25j]
    x = torch.ones(2)
    assert x.real is x
    with pytest.raises(
        RuntimeError, match="imag is not implemented for tensors with non-complex dtypes."
    ):
        _ = x.imag


def test_view_as_real_and_complex_share_memory():
    z = torch.tensor([[1 + 2j, 3 - 1j], [0.5j, -2 + 0j]])
    r = torch.view_as_real(z)
    assert r.shape == (2, 2, 2) and r.dtype is torch.float32
    r[0, 0, 1] = 9
    assert z[0, 0].item() == 1 + 9j
    c = torch.view_as_complex(r)
    assert c.dtype is torch.complex64 and c.tolist() == z.tolist()
    assert torch.view_as_real(z[:, 1]).tolist() == [[3.0, -1.0], [-2.0, 0.0]]


@pytest.mark.parametrize(
    "make, message",
    [
        (
            lambda: torch.ones(3, 2, dtype=torch.int32),
            "only supported for float and double tensors",
        ),
        (lambda: torch.ones(3, 3), "Tensor must have a last dimension of size 2"),
        (lambda: torch.ones(2, 3).t(), "Tensor must have a last dimension with stride 1"),
        (
            lambda: torch.ones(3, 3)[:, :2],
            "Tensor must have a stride divisible by 2 for all but last dimension",
        ),
        (lambda: torch.ones(5)[1:3], "Tensor must have a storage_offset divisible by 2"),
        (lambda: torch.tensor(1.0), "Input tensor must have one or more dimensions"),
    ],
)
def test_view_as_complex_layout_errors(make, message):
    with pytest.raises(RuntimeError, match=message):
        torch.view_as_complex(make())


def test_view_as_real_needs_complex():
    with pytest.raises(RuntimeError, match="view_as_real is only supported for complex tensors"):
        torch.view_as_real(torch.ones(2))


def test_complex_and_polar():
    w = torch.complex(torch.tensor([1.0, -2.0]), torch.tensor([0.5, 3.0]))
    assert w.tolist() == [1 + 0.5j, -2 + 3j]
    with pytest.raises(
        RuntimeError, match="Expected object of scalar type Float but got scalar type Double"
    ):
        torch.complex(torch.ones(2), torch.ones(2, dtype=torch.float64))
    with pytest.raises(
        RuntimeError, match="Expected both inputs to be Half, Float or Double tensors"
    ):
        torch.complex(torch.ones(2, dtype=torch.int32), torch.ones(2, dtype=torch.int32))
    p = torch.polar(torch.tensor([2.0]), torch.tensor([0.5]))
    np.testing.assert_allclose(p.numpy(), 2 * np.exp(0.5j), rtol=1e-6)


def test_conj_family():
    z = torch.tensor([1 + 2j, -3j])
    assert z.conj().tolist() == [1 - 2j, 3j]
    assert z.conj().resolve_conj().tolist() == [1 - 2j, 3j]
    assert torch.conj_physical(z).tolist() == [1 - 2j, 3j]
    m = torch.tensor([[1 + 1j, 2j], [3 + 0j, 4 - 1j]])
    assert m.mH.tolist() == [[1 - 1j, 3 + 0j], [-2j, 4 + 1j]]
    x = torch.ones(2)
    assert x.conj() is x


BINARY = {
    "add": (lambda a, b: a + b, np.add),
    "sub": (lambda a, b: a - b, np.subtract),
    "mul": (lambda a, b: a * b, np.multiply),
    "div": (lambda a, b: a / b, np.divide),
}


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_against_numpy(name):
    fn, ref = BINARY[name]
    rng = np.random.default_rng(0)
    a = rng.standard_normal((3, 4)) + 1j * rng.standard_normal((3, 4))
    b = rng.standard_normal((4,)) + 1j * rng.standard_normal((4,))
    r = rng.standard_normal((3, 1))
    ta, tb, tr = torch.tensor(a), torch.tensor(b), torch.tensor(r)
    assert ta.dtype is torch.complex128
    np.testing.assert_allclose(fn(ta, tb).numpy(), ref(a, b), rtol=1e-12)
    np.testing.assert_allclose(fn(ta, tr).numpy(), ref(a, r), rtol=1e-12)
    np.testing.assert_allclose(fn(tr, tb).numpy(), ref(r, b), rtol=1e-12)
    np.testing.assert_allclose(fn(ta, 2 - 1j).numpy(), ref(a, 2 - 1j), rtol=1e-12)
    np.testing.assert_allclose(fn(ta[:, ::2], 1.5).numpy(), ref(a[:, ::2], 1.5), rtol=1e-12)


def test_unary_and_reductions_against_numpy():
    rng = np.random.default_rng(1)
    a = rng.standard_normal((3, 5)) + 1j * rng.standard_normal((3, 5))
    t = torch.tensor(a)
    np.testing.assert_allclose((-t).numpy(), -a)
    np.testing.assert_allclose(t.abs().numpy(), np.abs(a), rtol=1e-12)
    np.testing.assert_allclose(t.angle().numpy(), np.angle(a), rtol=1e-12)
    np.testing.assert_allclose(t.exp().numpy(), np.exp(a), rtol=1e-12)
    np.testing.assert_allclose(t.sum().numpy(), a.sum(), rtol=1e-12)
    np.testing.assert_allclose(t.sum(-1).numpy(), a.sum(-1), rtol=1e-12)
    np.testing.assert_allclose(
        t.mean(0, keepdim=True).numpy(), a.mean(0, keepdims=True), rtol=1e-12
    )
    np.testing.assert_allclose((t @ t.mT).numpy(), a @ a.T, rtol=1e-12)
    np.testing.assert_allclose(torch.matmul(t[0], t[1]).numpy(), a[0] @ a[1], rtol=1e-12)
    assert t.abs().dtype is torch.float64 and t.angle().dtype is torch.float64


def test_copies_views_and_joins():
    z = torch.tensor([[1 + 1j, 2 - 1j, 3j], [4 + 0j, -5j, 6 + 6j]])
    assert z.clone().tolist() == z.tolist()
    assert z.t().contiguous().tolist() == [[1 + 1j, 4 + 0j], [2 - 1j, -5j], [3j, 6 + 6j]]
    assert z[1, ::2].tolist() == [4 + 0j, 6 + 6j]
    assert z[:, [2, 0]].tolist() == [[3j, 1 + 1j], [6 + 6j, 4 + 0j]]
    assert torch.cat([z, z], 0).shape == (4, 3)
    assert torch.stack([z[0], z[1]]).tolist() == z.tolist()
    out = torch.zeros(2, 4, dtype=torch.cfloat)
    out[:, 1:] = z
    assert out[:, 0].tolist() == [0j, 0j] and out[:, 1:].tolist() == z.tolist()
    assert z.reshape(3, 2).tolist()[0] == [1 + 1j, 2 - 1j]


def test_is_complex():
    assert torch.ones(2, dtype=torch.cfloat).is_complex()
    assert torch.is_complex(torch.ones(2, dtype=torch.cdouble))
    assert not torch.ones(2).is_complex()


@pytest.mark.parametrize("expr", sorted(FIXTURE["reprs"]))
def test_repr_matches_pytorch(expr):
    assert repr(eval(expr, {"torch": torch})) == FIXTURE["reprs"][expr]


def test_printoptions_apply_to_both_parts():
    with torch._tensor_str.printoptions(precision=2):
        assert repr(torch.tensor([1.23456 + 2.5j])) == "tensor([1.23+2.50j])"


def check_gradients(expr, loss_tol, rtol, atol):
    """The recorded real loss `expr` of complex inputs and each input's gradient (dtype and values)."""
    case = FIXTURE["grads"][expr]
    env = inputs(set(case["grads"]))
    loss = eval(expr, env)
    loss.backward()
    assert loss.item() == pytest.approx(case["loss"], rel=loss_tol, abs=loss_tol)
    for name, want in case["grads"].items():
        grad = env[name].grad
        assert str(grad.dtype) == want["dtype"]
        np.testing.assert_allclose(as_pairs(grad), want["values"], rtol=rtol, atol=atol)


@pytest.mark.parametrize("expr", [e for e in FIXTURE["grads"] if "fft" not in e])
def test_gradients_match_pytorch(expr):
    check_gradients(expr, 1e-5, 1e-4, 1e-5)


@pytest.mark.parametrize("expr", [e for e in FIXTURE["values"] if "fft" not in e])
def test_values_match_pytorch(expr):
    want = FIXTURE["values"][expr]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # istft's short-signal warning, as PyTorch gives it
        out = eval(expr, inputs())
    assert str(out.dtype) == want["dtype"] and list(out.shape) == want["shape"]
    np.testing.assert_allclose(as_pairs(out), want["values"], rtol=1e-5, atol=1e-6)


def test_custom_function_with_complex_output_is_differentiable():
    class Scale(torch.autograd.Function):
        @staticmethod
        def forward(ctx, z):
            return z * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    z = torch.tensor([1 + 1j, 2 - 1j], requires_grad=True)
    out = Scale.apply(z)
    assert out.requires_grad and out.dtype is torch.complex64
    out.abs().sum().backward()
    np.testing.assert_allclose(
        z.grad.numpy(), 2 * np.array([1 + 1j, 2 - 1j]) / np.abs([1 + 1j, 2 - 1j]), rtol=1e-6
    )


def test_requires_grad_accepts_complex():
    z = torch.zeros(2, dtype=torch.cfloat, requires_grad=True)
    assert z.requires_grad
    w = torch.ones(2, dtype=torch.cdouble).requires_grad_()
    (w * w).real.sum().backward()
    assert w.grad.tolist() == [2 + 0j, 2 + 0j]


def test_in_place_arithmetic_and_its_gradient():
    z = torch.tensor([1 + 2j, 3 - 1j])
    assert z.clone().mul_(2j).tolist() == [-4 + 2j, 2 + 6j]
    a = z.clone()
    a += 1j
    assert a.tolist() == [1 + 3j, 3 + 0j]
    assert z.clone().div_(z).tolist() == [1 + 0j, 1 + 0j]
    w = torch.tensor([1 + 1j, 2j], requires_grad=True)
    v = w * 1  # a fresh result, not a view: written in place like any other
    v.mul_(2j)
    v.abs().sum().backward()
    np.testing.assert_allclose(
        w.grad.numpy(), 2 * np.array([1 + 1j, 2j]) / np.abs([1 + 1j, 2j]), rtol=1e-6
    )


def test_where_and_reductions_in_another_dtype():
    z = torch.tensor([1 + 2j, 3 - 1j])
    assert torch.where(torch.tensor([True, False]), z, z * 2).tolist() == [1 + 2j, 6 - 2j]
    assert torch.where(torch.tensor([False, True]), z, 0.5).tolist() == [0.5 + 0j, 3 - 1j]
    assert z.sum(dtype=torch.complex128).dtype is torch.complex128
    assert z.mean(dtype=torch.complex128).item() == 2 + 0.5j


def test_zero_dim_reductions_keep_both_parts():
    z = torch.tensor(1 + 2j)
    for r in (z.sum(), z.mean(), z.sum(0), z.sum(-1, keepdim=True), z.mean(0)):
        assert r.shape == () and r.item() == 1 + 2j


def test_grad_fn_names_are_pytorchs():
    z = torch.tensor([1 + 2j, 3j], requires_grad=True)
    names = {
        "MulBackward0": z * 2,
        "DivBackward0": z / z,
        "NegBackward0": -z,
        "SubBackward0": z - 1,
        "AddBackward0": z + 1j,
        "SumBackward0": z.sum(),
        "MeanBackward1": z.mean(0),
        "ExpBackward0": z.exp(),
        "AbsBackward0": z.abs(),
        "AngleBackward0": z.angle(),
    }
    for name, out in names.items():
        assert type(out.grad_fn).__name__ == name
