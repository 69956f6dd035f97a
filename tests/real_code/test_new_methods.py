"""``Tensor.new_zeros`` and its kin as custom Functions' backwards use them: the ``size=``
keyword, PyTorch's TypeError for other keywords, and under ``vmap`` a batched result (one
fresh tensor per sample), so a backward that fills ``grad.new_zeros(shape)`` per sample works
under ``vmap(grad(...))``.

Golden values recorded from PyTorch 2.13; with torch installed the same checks run on it too.
"""

from __future__ import annotations

import pytest


def test_size_keyword(lib):
    x = lib.ones(2, dtype=lib.float64)
    assert tuple(x.new_zeros(size=(2, 3)).shape) == (2, 3)
    assert tuple(x.new_ones(size=[1]).shape) == (1,)
    assert tuple(x.new_empty(size=(2,)).shape) == (2,)
    full = x.new_full(size=(2,), fill_value=5.0)
    assert full.tolist() == [5.0, 5.0] and full.dtype == lib.float64
    assert tuple(x.new_zeros((2,), layout=lib.strided, pin_memory=False).shape) == (2,)


@pytest.mark.parametrize("name", ["new_zeros", "new_ones", "new_empty"])
def test_unknown_keyword_is_a_type_error(lib, name):
    x = lib.ones(2)
    with pytest.raises(TypeError, match=f"{name}\\(\\) got an unexpected keyword argument 'foo'"):
        getattr(x, name)((2,), foo=1)


def test_size_twice_is_a_type_error(lib):
    with pytest.raises(TypeError, match="new_zeros\\(\\) got multiple values for argument 'size'"):
        lib.ones(2).new_zeros(2, size=(2,))


def test_new_zeros_under_vmap_is_batched(lib):
    out = lib.func.vmap(lambda t: t.new_zeros(3))(lib.ones(2, 4))
    assert out.tolist() == [[0.0] * 3] * 2
    out = lib.func.vmap(lambda t: t.new_full((2,), 5.0))(lib.ones(3, 4))
    assert out.tolist() == [[5.0, 5.0]] * 3


def test_backward_filling_new_zeros_under_vmap_of_grad(lib):
    class Select(lib.autograd.Function):
        generate_vmap_rule = True

        @staticmethod
        def forward(x, idx):
            return x[idx]

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.x_shape, ctx.idx = inputs[0].shape, inputs[1]

        @staticmethod
        def backward(ctx, grad_output):
            result = grad_output.new_zeros(ctx.x_shape)
            result[ctx.idx] = grad_output
            return result, None

    x = lib.arange(12.0).reshape(4, 3)
    grads = lib.func.vmap(lib.func.grad(lambda t: Select.apply(t, 0) * 2))(x)
    assert grads.tolist() == [[2.0, 0.0, 0.0]] * 4
