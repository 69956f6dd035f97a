"""The graph nn.Linear, F.linear, mm and addmm record, as PyTorch 2.13 records it (next_functions,
saved attributes; recorded from PyTorch), and its gradients."""

import engine
import engine.nn.functional as F
import numpy as np
from engine.autograd import gradcheck, gradgradcheck


def names(fn):
    return [None if f is None else type(f).__name__ for f, _ in fn.next_functions]


def test_linear_with_bias_is_addmm_of_bias_input_and_transposed_weight():
    lin = engine.nn.Linear(3, 2)
    x = engine.randn(4, 3, requires_grad=True)
    y = lin(x)
    assert type(y.grad_fn).__name__ == "AddmmBackward0"
    assert names(y.grad_fn) == ["AccumulateGrad", "AccumulateGrad", "TBackward0"]
    f = y.grad_fn
    assert (f._saved_alpha, f._saved_beta) == (1, 1)
    assert f._saved_mat1_sym_sizes == (4, 3) and f._saved_mat1_sym_strides == (3, 1)
    assert f._saved_mat2_sym_sizes == (3, 2) and f._saved_mat2_sym_strides == (1, 3)
    assert f._saved_mat1 is x and tuple(f._saved_mat2.shape) == (3, 2)
    y.sum().backward()
    assert lin.weight.grad.is_contiguous() and lin.weight.grad.stride() == (3, 1)
    np.testing.assert_allclose(
        lin.weight.grad.numpy(), np.ones((2, 4)) @ x.detach().numpy(), rtol=1e-6
    )
    np.testing.assert_allclose(lin.bias.grad.numpy(), [4.0, 4.0])
    # A 3-D input folds into rows: a view of the addmm.
    assert names(lin(engine.randn(5, 4, 3)).grad_fn) == ["AddmmBackward0"]
    # Without bias: mm of the input and the transposed weight.
    assert names(F.linear(x, lin.weight).grad_fn) == ["AccumulateGrad", "TBackward0"]


def test_mm_saved_sizes_and_strides():
    x = engine.randn(4, 3, requires_grad=True)
    w = engine.randn(2, 3, requires_grad=True)
    f = engine.mm(x, w.t()).grad_fn
    assert f._saved_mat2_sym_sizes == (3, 2) and f._saved_mat2_sym_strides == (1, 3)
    assert f._saved_self_sym_sizes == (4, 3) and f._saved_self_sym_strides == (3, 1)


def test_addmm_is_one_node_with_pytorchs_inputs_and_gradients():
    x = engine.randn(4, 3, requires_grad=True)
    w = engine.randn(2, 3, requires_grad=True)
    y = engine.addmm(engine.zeros(2), x, w.t())
    assert names(y.grad_fn) == [None, "AccumulateGrad", "TBackward0"]
    y = engine.addmm(engine.zeros(2), x, w.t(), beta=0.5, alpha=2)
    assert (y.grad_fn._saved_alpha, y.grad_fn._saved_beta) == (2, 0.5)
    i = engine.randn(1, 3, dtype=engine.float64, requires_grad=True)
    a = engine.randn(2, 4, dtype=engine.float64, requires_grad=True)
    b = engine.randn(4, 3, dtype=engine.float64, requires_grad=True)
    for beta, alpha in [(1, 1), (0.5, 2), (0, 1), (2, 0)]:

        def f(i, a, b, beta=beta, alpha=alpha):
            return engine.addmm(i, a, b, beta=beta, alpha=alpha)

        assert gradcheck(f, (i, a, b)) and gradgradcheck(f, (i, a, b))
    with engine.no_grad():
        assert not engine.addmm(i, a, b).requires_grad
