"""`t.sum()` and `t.backward()` without arguments enter natively, past pybind11's dispatcher:
they give what the keyword forms give, raise the same errors, and every other call (arguments,
keywords, subclasses, unbound calls, transforms) still reaches the binding."""

from __future__ import annotations

import engine
import pytest


def test_sum_without_arguments_matches_the_keyword_form():
    x = engine.tensor([[1.0, 2.0], [3.0, 4.5]], requires_grad=True)
    a = x.sum()
    b = x.sum(dim=None, keepdim=False, dtype=None)
    assert a.item() == b.item() == 10.5
    assert a.dtype == b.dtype and a.shape == b.shape == ()
    assert type(a.grad_fn).__name__ == type(b.grad_fn).__name__
    assert engine.tensor([1, 2, 3]).sum().dtype == engine.int64
    assert engine.tensor([True, True]).sum().item() == 2
    assert engine.Tensor.sum(x).item() == 10.5


def test_sum_with_arguments_and_wrong_calls_reach_the_binding():
    x = engine.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert x.sum(0).tolist() == [4.0, 6.0]
    assert x.sum(1, True).tolist() == [[3.0], [7.0]]
    assert x.sum(dtype=engine.float64).dtype == engine.float64
    with pytest.raises(TypeError):
        engine.Tensor.sum()
    with pytest.raises(TypeError):
        engine.Tensor.sum("not a tensor")


def test_backward_without_arguments_fills_the_leaves():
    x = engine.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x * x).sum()
    assert y.backward() is None
    assert x.grad.tolist() == [2.0, 4.0, 6.0]
    (x * 2).sum().backward()
    assert x.grad.tolist() == [4.0, 6.0, 8.0]


def test_backward_without_arguments_keeps_the_errors():
    x = engine.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(
        RuntimeError, match="grad can be implicitly created only for scalar outputs"
    ):
        (x * 2).backward()
    with pytest.raises(RuntimeError, match="element 0 of tensors does not require grad"):
        engine.tensor([1.0]).sum().backward()
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.backward()


def test_backward_with_arguments_reaches_the_binding():
    x = engine.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward(engine.tensor(2.0))
    assert x.grad.tolist() == [6.0, 12.0]
    z = (x * 3).sum()
    z.backward(inputs=[x])
    assert x.grad.tolist() == [9.0, 15.0]


def test_errors_raised_inside_the_pass_come_through():
    class Fails(engine.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            raise ValueError("from backward")

    x = engine.tensor([1.0], requires_grad=True)
    with pytest.raises(ValueError, match="from backward"):
        Fails.apply(x).sum().backward()


def test_subclasses_take_the_binding_and_behave_alike():
    p = engine.nn.Parameter(engine.tensor([1.0, 2.0]))
    s = p.sum()
    assert s.item() == 3.0
    (p * p).sum().backward()
    assert p.grad.tolist() == [2.0, 4.0]


def test_hooks_run_through_the_direct_entry():
    x = engine.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    x.register_hook(lambda g: seen.append(g.tolist()))
    (x * 5).sum().backward()
    assert seen == [[5.0, 5.0]]


def test_function_transforms_still_see_the_calls():
    def f(x):
        return (x * x).sum()

    assert engine.func.grad(f)(engine.tensor([1.0, 3.0])).tolist() == [2.0, 6.0]
    out = engine.func.vmap(lambda r: r.sum())(engine.tensor([[1.0, 2.0], [3.0, 4.0]]))
    assert out.tolist() == [3.0, 7.0]


def test_docstrings_stay_those_of_the_bindings():
    assert engine.Tensor.sum.__doc__.startswith("sum(")
    assert "gradient" in engine.Tensor.backward.__doc__
