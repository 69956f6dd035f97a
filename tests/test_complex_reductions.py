"""Complex fills, reductions, scans, norms, products and indexing: values against NumPy's
complex128, gradients through gradcheck (PyTorch's conjugate convention), and the ops that
cannot order complex numbers refusing them with PyTorch's errors."""

import engine as torch
import numpy as np
import pytest

VALUES = np.array([[0.7 + 0.4j, -1.3 + 0.2j, 0.3 - 0.9j], [-0.5 - 0.6j, 0j, 1.1 + 0.3j]])


def z128(requires_grad=False):
    return torch.tensor(VALUES, dtype=torch.complex128, requires_grad=requires_grad)


# ---- fills ----


def test_full_infers_the_default_complex_dtype():
    assert torch.full((2,), 1 + 2j).tolist() == [1 + 2j, 1 + 2j]
    assert torch.full((2,), 1 + 2j).dtype == torch.complex64
    previous = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        assert torch.full((1,), 1j).dtype == torch.complex128
    finally:
        torch.set_default_dtype(previous)
    assert torch.full_like(z128(), 2 - 1j).tolist() == [[2 - 1j] * 3] * 2
    assert torch.full_like(torch.zeros(2), 1j, dtype=torch.complex128).dtype == torch.complex128


@pytest.mark.parametrize(
    "dtype, name",
    [
        (torch.float32, "float"),
        (torch.float64, "double"),
        (torch.int64, "int64_t"),
        (torch.int32, "int"),
        (torch.uint8, "uint8_t"),
        (torch.float16, "c10::Half"),
    ],
)
def test_complex_value_into_a_real_tensor(dtype, name):
    with pytest.raises(RuntimeError, match=f"value cannot be converted to type {name} without"):
        torch.full((2,), 1 + 2j, dtype=dtype)
    assert torch.full((2,), 3 + 0j, dtype=dtype).tolist() == [3, 3]
    assert torch.full((2,), 1 + 2j, dtype=torch.bool).tolist() == [True, True]


def test_fill_and_masked_fill_with_complex_values():
    z = torch.zeros(2, dtype=torch.complex64)
    assert z.fill_(1 + 2j).tolist() == [1 + 2j, 1 + 2j]
    assert z.fill_(torch.tensor(2 + 1j)).tolist() == [2 + 1j, 2 + 1j]
    assert z.fill_(3).tolist() == [3, 3]
    x = torch.zeros(2)
    with pytest.raises(RuntimeError, match="value cannot be converted to type float"):
        x.fill_(1 + 2j)
    assert x.fill_(3 + 0j).tolist() == [3.0, 3.0]
    with pytest.raises(TypeError, match="must be float, not str"):
        x.fill_("a")
    mask = torch.tensor([True, False])
    assert z.masked_fill(mask, 1j).tolist() == [1j, 3]
    assert z.masked_fill(mask, torch.tensor(2j)).tolist() == [2j, 3]
    with pytest.raises(RuntimeError, match="value cannot be converted to type float"):
        torch.zeros(2).masked_fill(mask, 1j)


# ---- reductions and scans ----

REDUCTIONS = {
    "prod": (lambda z: z.prod(), lambda a: a.prod()),
    "prod dim": (lambda z: z.prod(1), lambda a: a.prod(1)),
    "prod keepdim": (lambda z: z.prod(0, keepdim=True), lambda a: a.prod(0, keepdims=True)),
    "cumsum": (lambda z: z.cumsum(1), lambda a: a.cumsum(1)),
    "cumsum dim 0": (lambda z: torch.cumsum(z, 0), lambda a: a.cumsum(0)),
    "cumprod": (lambda z: z.cumprod(1), lambda a: a.cumprod(1)),
    "cumprod dim -2": (lambda z: z.cumprod(-2), lambda a: a.cumprod(0)),
    "sum dim": (lambda z: z.sum(1), lambda a: a.sum(1)),
    "mean keepdim": (lambda z: z.mean(1, keepdim=True), lambda a: a.mean(1, keepdims=True)),
    "var": (lambda z: z.var(), lambda a: a.var(ddof=1)),
    "std dim": (lambda z: z.std(1), lambda a: a.std(1, ddof=1)),
    "linalg.norm": (lambda z: torch.linalg.norm(z), lambda a: np.linalg.norm(a)),
    "vector_norm 1": (
        lambda z: torch.linalg.vector_norm(z, 1, dim=1),
        lambda a: np.abs(a).sum(1),
    ),
    "vector_norm inf": (
        lambda z: torch.linalg.vector_norm(z, float("inf")),
        lambda a: np.abs(a).max(),
    ),
    "vector_norm 3": (
        lambda z: torch.linalg.vector_norm(z, 3),
        lambda a: (np.abs(a) ** 3).sum() ** (1 / 3),
    ),
    "Tensor.norm": (lambda z: z.norm(), lambda a: np.linalg.norm(a)),
    "matrix_norm": (lambda z: torch.linalg.matrix_norm(z), lambda a: np.linalg.norm(a, "fro")),
    "matrix_norm 1": (lambda z: torch.linalg.matrix_norm(z, 1), lambda a: np.linalg.norm(a, 1)),
    "dist": (lambda z: torch.dist(z[0], z[1]), lambda a: np.linalg.norm(a[0] - a[1])),
    "dot": (lambda z: torch.dot(z[0], z[1]), lambda a: np.dot(a[0], a[1])),
    "vdot": (lambda z: torch.vdot(z[0], z[1]), lambda a: np.vdot(a[0], a[1])),
    "matmul": (lambda z: z @ z.mT, lambda a: a @ a.T),
    "mv": (lambda z: z @ z[0], lambda a: a @ a[0]),
    "einsum": (lambda z: torch.einsum("ij,kj->ik", z, z), lambda a: np.einsum("ij,kj->ik", a, a)),
    "matrix_exp": (
        lambda z: torch.linalg.matrix_exp(z[:, :2]),
        lambda a: _expm(a[:, :2]),
    ),
    "gather": (
        lambda z: torch.gather(z, 1, torch.tensor([[2, 0], [1, 1]])),
        lambda a: np.take_along_axis(a, np.array([[2, 0], [1, 1]]), 1),
    ),
}


def _expm(a):
    w, v = np.linalg.eig(a)
    return v @ np.diag(np.exp(w)) @ np.linalg.inv(v)


@pytest.mark.parametrize("case", sorted(REDUCTIONS))
@pytest.mark.parametrize("dtype", [torch.complex64, torch.complex128])
def test_values_match_numpy(case, dtype):
    fn, ref = REDUCTIONS[case]
    got = fn(torch.tensor(VALUES, dtype=dtype))
    want = ref(VALUES)
    assert tuple(got.shape) == np.shape(want)
    real = torch.float32 if dtype == torch.complex64 else torch.float64
    assert got.dtype == (real if np.isrealobj(want) else dtype)
    tol = 2e-5 if dtype == torch.complex64 else 1e-12
    np.testing.assert_allclose(got.numpy(), want, rtol=tol, atol=tol)


@pytest.mark.parametrize("case", sorted(REDUCTIONS))
def test_gradients(case):
    fn = REDUCTIONS[case][0]
    assert torch.autograd.gradcheck(fn, (z128(True),))


def test_prod_gradient_at_a_zero_element():
    # the element at [1, 1] is 0: a rule dividing the result by the input would give NaN there
    z = z128(True)
    z.prod().real.backward()
    assert np.isfinite(z.grad.numpy()).all()
    others = np.prod(np.delete(VALUES.reshape(-1), 4))
    np.testing.assert_allclose(z.grad.numpy()[1, 1], np.conj(others), rtol=1e-12)


def test_real_input_reduced_in_a_complex_dtype():
    x = torch.tensor([1.0, 2.0, -0.5])
    assert torch.sum(x, dtype=torch.complex64).item() == 2.5 + 0j
    assert x.prod(dtype=torch.complex128).dtype == torch.complex128
    assert x.cumsum(0, dtype=torch.complex64).tolist() == [1, 3, 2.5]


def test_scatter_and_scatter_add():
    z = torch.tensor(VALUES, dtype=torch.complex128, requires_grad=True)
    index = torch.tensor([[3, 0, 1], [2, 1, 0]])
    got = torch.zeros(2, 4, dtype=torch.complex128).scatter(1, index, z)
    want = np.zeros((2, 4), complex)
    np.put_along_axis(want, index.numpy(), VALUES, 1)
    np.testing.assert_array_equal(got.detach().numpy(), want)
    added = torch.ones(2, 4, dtype=torch.complex128).scatter_add(
        1, torch.tensor([[3, 3, 1], [2, 1, 2]]), z
    )
    np.testing.assert_allclose(
        added.detach().numpy()[0], [1, 1.3 - 0.9j, 1, 1 + (0.7 + 0.4j) + (-1.3 + 0.2j)]
    )
    assert (
        got.grad_fn.name() == "ScatterBackward0" and added.grad_fn.name() == "ScatterAddBackward0"
    )
    ones = torch.ones(2, 4, dtype=torch.complex128)
    assert torch.autograd.gradcheck(
        lambda s, v: s.scatter_add(1, index, v), (ones.requires_grad_(), z)
    )


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda z: z.sort(), RuntimeError, "Sort does not support complex dtypes on CPU"),
        (lambda z: torch.argsort(z), RuntimeError, "Sort does not support complex dtypes"),
        (lambda z: torch.msort(z), RuntimeError, "Sort does not support complex dtypes"),
        (
            lambda z: z.median(),
            NotImplementedError,
            "\"median_cpu\" not implemented for 'ComplexDouble'",
        ),
        (
            lambda z: torch.unique(z),
            NotImplementedError,
            "\"unique\" not implemented for 'ComplexDouble'",
        ),
        (lambda z: z.unique_consecutive(), NotImplementedError, '"unique" not implemented'),
        (lambda z: torch.searchsorted(z, z), NotImplementedError, "searchsorted_out_cpu"),
        (lambda z: torch.linalg.svdvals(z), NotImplementedError, "ComplexDouble"),
        (lambda z: torch.linalg.matrix_norm(z, 2), NotImplementedError, "ComplexDouble"),
    ],
)
def test_ordering_and_lapack_ops_refuse_complex(call, error, message):
    with pytest.raises(error, match=message):
        call(z128())


@pytest.mark.parametrize("n", [4096, 5000, 1 << 16, 70001])
def test_large_sums_and_means(n):
    rng = np.random.default_rng(n)
    a = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    z = torch.tensor(a, requires_grad=True)
    np.testing.assert_allclose(z.sum().item(), a.sum(), rtol=1e-12)
    np.testing.assert_allclose(z.mean().item(), a.mean(), rtol=1e-12)
    np.testing.assert_allclose(z[::3].sum().item(), a[::3].sum(), rtol=1e-12)
    assert z.reshape(-1, 1).sum((0, 1), keepdim=True).shape == (1, 1)
    assert z.sum().grad_fn.name() == "SumBackward0" and z.mean().grad_fn.name() == "MeanBackward0"
    (z.sum() * (1 - 2j) + z.mean()).real.backward()
    np.testing.assert_allclose(z.grad.numpy(), np.full(n, 1 + 2j + 1 / n))
    single = torch.tensor(a.astype(np.complex64))
    np.testing.assert_allclose(single.sum().item(), a.sum(), rtol=1e-5)


def test_empty_product_and_vdot_node():
    z = torch.zeros(2, 0, dtype=torch.complex64, requires_grad=True)
    p = z.prod(1)
    assert p.tolist() == [1, 1] and p.grad_fn.name() == "ProdBackward1"
    p.sum().real.backward()
    assert tuple(z.grad.shape) == (2, 0)
    w = z128(True)[0]
    v = torch.vdot(w, w * 2)
    assert v.grad_fn.name() == "VdotBackward0"
    v.real.backward()
