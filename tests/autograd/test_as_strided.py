"""``as_strided`` / ``Tensor.as_strided`` as in PyTorch: a view of the input's memory with any
layout inside it, PyTorch's errors for bad layouts, and autograd through ``AsStridedBackward0``
(gradients summed where the view repeats an element, reaching only the input's own elements,
differentiable again), on plain tensors and on views."""

import engine as torch
import pytest


def test_a_view_of_the_memory():
    x = torch.arange(6.0)
    v = torch.as_strided(x, (3, 2), (1, 1), 1)
    assert v.tolist() == [[1.0, 2.0], [2.0, 3.0], [3.0, 4.0]]
    assert v._is_view() and v._base is x and v.stride() == (1, 1)
    x.add_(10)
    assert v[0].tolist() == [11.0, 12.0]
    assert x.as_strided([2], [3]).tolist() == [10.0, 13.0]


def test_offset_defaults_to_the_input_own():
    x = torch.arange(6.0)
    y = x[2:]
    assert y.as_strided((2,), (2,)).tolist() == [2.0, 4.0]
    assert y.as_strided((2,), (2,), 0).tolist() == [0.0, 2.0]  # counted from the memory's start


@pytest.mark.parametrize(
    "args,message",
    [
        (((2, 2), (1,)), r"^mismatch in length of strides and shape$"),
        (
            ((2,), (-1,)),
            r"^as_strided: Negative strides are not supported at the moment, got strides: \[-1\]$",
        ),
        (((2,), (1,), -1), r"^Tensor: invalid storage offset -1$"),
        (
            ((2,), (1,), 5),
            r"^setStorage: sizes \[2\], strides \[1\], storage offset 5, and itemsize 4 requiring a storage "
            r"size of 28 are out of bounds for storage of size 24$",
        ),
    ],
)
def test_bad_layouts(args, message):
    with pytest.raises(RuntimeError, match=message):
        torch.arange(6.0).as_strided(*args)


def test_offset_must_be_an_int():
    with pytest.raises(
        TypeError, match=r"as_strided\(\): argument 'storage_offset' must be int, not float"
    ):
        torch.arange(6.0).as_strided([2], [1], storage_offset=1.5)


def test_gradient_sums_repeated_elements():
    x = torch.arange(6.0, requires_grad=True)
    v = x.as_strided((3, 2), (1, 1), 1)
    assert type(v.grad_fn).__name__ == "AsStridedBackward0"
    v.sum().backward()
    assert x.grad.tolist() == [0.0, 1.0, 2.0, 2.0, 1.0, 0.0]


def test_gradient_through_a_view():
    x = torch.arange(6.0, requires_grad=True)
    w = x[2:].as_strided((2,), (2,))
    w.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 1.0, 0.0, 1.0, 0.0]


def test_gradient_reaches_only_the_input_elements():
    a = torch.arange(6.0, requires_grad=True)
    x = a[1:3]
    y = x.as_strided((4,), (1,), 0)  # reaches memory x does not show
    assert y.tolist() == [0.0, 1.0, 2.0, 3.0]
    (gx,) = torch.autograd.grad(
        (y * torch.tensor([2.0, 3.0, 5.0, 7.0])).sum(), x, retain_graph=True
    )
    assert gx.tolist() == [3.0, 5.0]
    y.sum().backward()
    assert a.grad.tolist() == [0.0, 1.0, 1.0, 0.0, 0.0, 0.0]
    e = torch.ones(1, requires_grad=True)
    big = e.expand(3)  # the input repeats its one element: the gradient is shared among them
    (g,) = torch.autograd.grad(big.as_strided((3,), (0,)).sum(), big)
    assert g.tolist() == [1.0, 1.0, 1.0]


def test_gradcheck_and_gradgradcheck():
    gen = torch.Generator().manual_seed(0)  # the global stream is left to other tests
    x = torch.randn(6, dtype=torch.float64, generator=gen, requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: t.as_strided((3, 2), (1, 2), 1), (x,))
    assert torch.autograd.gradgradcheck(lambda t: t.as_strided((3, 2), (1, 0), 1) ** 2, (x,))
    m = torch.randn(3, 4, dtype=torch.float64, generator=gen, requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: t.t().as_strided((2, 2), (4, 1), 1), (m,))


def test_empty_view():
    x = torch.ones(3, requires_grad=True)
    v = x.as_strided((0, 2), (1, 1))
    assert v.shape == (0, 2)
    (g,) = torch.autograd.grad(v.sum(), x)
    assert g.tolist() == [0.0, 0.0, 0.0]


def test_matches_torch():
    real = pytest.importorskip("torch")

    def story(lib):
        m = lib.arange(12.0).reshape(3, 4).requires_grad_()
        t = m.t()
        v = t.as_strided((2, 3), (1, 4), 1)
        (v * lib.arange(6.0).reshape(2, 3)).sum().backward()
        w = m[1:].as_strided((2, 2), (0, 1))
        (g,) = lib.autograd.grad(w.pow(2).sum(), m)
        return [v.tolist(), m.grad.tolist(), w.tolist(), g.tolist(), type(v.grad_fn).__name__]

    assert story(torch) == story(real)
