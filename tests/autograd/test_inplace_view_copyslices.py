"""An in-place op through a view: the base's new node is CopySlices, which runs the write's own
node inside itself (the write's node is not a separate node of the graph, and a second derivative
goes through the write's backward, e.g. ThresholdBackwardBackward0 for an in-place threshold)."""

import engine as torch
import engine.nn.functional as F
import pytest
from engine.autograd import gradcheck, gradgradcheck


def _names(fn):
    return [None if f is None else f.name() for f, _ in fn.next_functions]


WRITES = {
    "relu_": lambda v, o: v.relu_(),
    "F.relu": lambda v, o: F.relu(v, inplace=True),
    "F.threshold": lambda v, o: F.threshold(v, 0.1, 2.0, True),
    "sigmoid_": lambda v, o: v.sigmoid_(),
    "mul_": lambda v, o: v.mul_(o),
    "add_": lambda v, o: v.add_(o, alpha=2.0),
    "div_": lambda v, o: v.div_(o + 3.0),
    "mul_scalar": lambda v, o: v.mul_(2.5),
    "copy_": lambda v, o: v.copy_(o * 3.0),
}


def _through_view(write):
    def f(x, o):
        base = x * 1.0
        view = base.view(2, 3)[1]
        write(view, o)
        return (base * base).sum(0, keepdim=True) + base

    return f


@pytest.mark.parametrize("name", sorted(WRITES))
def test_gradients_through_a_written_view(name):
    x = torch.tensor([0.3, -0.7, 1.2, -0.4, 0.9, 0.25], dtype=torch.float64, requires_grad=True)
    o = torch.tensor([0.5, -1.5, 2.0], dtype=torch.float64, requires_grad=True)
    f = _through_view(WRITES[name])
    assert gradcheck(f, (x, o))
    assert gradgradcheck(f, (x, o))


@pytest.mark.parametrize("name", ["relu_", "F.relu", "F.threshold", "sigmoid_", "mul_", "add_"])
def test_the_write_runs_inside_copyslices(name):
    x = torch.randn(6, requires_grad=True)
    o = torch.randn(3, requires_grad=True)
    base = x * 2
    view = base.view(2, 3)[0]
    WRITES[name](view, o)
    node = base.grad_fn
    assert node.name() == "CopySlices"
    # Edge 0 is the base's old history; the rest are the write's other inputs.
    expected = ["MulBackward0"] + (["AccumulateGrad"] if name in ("mul_", "add_") else [])
    assert [n.split("::")[-1] for n in _names(node)] == expected
    assert view.grad_fn.name() == "AsStridedBackward0"


def test_copy_into_a_view_passes_the_gradient_to_the_source_node():
    x = torch.randn(4, requires_grad=True)
    base = x * 1
    base[:2].copy_(x[2:] * 3)
    assert _names(base.grad_fn) == ["MulBackward0", "MulBackward0"]


def test_second_derivative_runs_the_write_backward():
    inputs = torch.ones((1, 3, 4, 4), requires_grad=True)
    tmp1 = (inputs + 1).view_as(inputs)
    tmp2 = F.threshold(tmp1, 0.0, 0.0, True)
    out = torch.sigmoid(tmp2)
    (g,) = torch.autograd.grad(out, inputs, torch.ones(out.shape), create_graph=True)
    penalty = g.sum()
    penalty.backward()
    copy_slices = penalty.grad_fn.next_functions[0][0]
    assert copy_slices.name() == "CopySlices"
    assert copy_slices.next_functions[1][0].name() == "ThresholdBackwardBackward0"
    # sigmoid'(2) summed, and its derivative, as computed by hand.
    s = torch.sigmoid(torch.tensor(2.0))
    assert torch.allclose(g, (s * (1 - s)).expand(g.shape))
    assert torch.allclose(inputs.grad, (s * (1 - s) * (1 - 2 * s)).expand(g.shape))


def test_threshold_in_place_values_and_node():
    x = torch.tensor([-1.0, 0.5, float("nan"), 2.0]) * 1
    y = F.threshold(x, 0.5, -3.0, inplace=True)
    assert y is x
    assert torch.equal(x[[0, 1, 3]], torch.tensor([-3.0, -3.0, 2.0]))
    assert torch.isnan(x[2])
    a = torch.randn(5, requires_grad=True)
    b = F.threshold(a * 1, 0.0, 1.0, inplace=True)
    # PyTorch's node for the in-place form; it links to the producer, not to a clone.
    assert b.grad_fn.name() == "ThresholdBackward1"
    assert b.grad_fn.next_functions[0][0].name() == "MulBackward0"
    b.sum().backward()
    assert torch.equal(a.grad, (a.detach() > 0).to(a.dtype))


def test_released_write_cannot_run_twice():
    x = torch.randn(6, requires_grad=True)
    base = x * 2
    base.view(2, 3)[0].sigmoid_()
    base.sum().backward()
    with pytest.raises(RuntimeError, match="second time"):
        base.sum().backward()


@pytest.mark.parametrize("name", sorted(WRITES))
def test_gradients_of_a_written_tensor(name):
    x = torch.tensor([0.3, -0.7, 1.2], dtype=torch.float64, requires_grad=True)
    o = torch.tensor([0.5, -1.5, 2.0], dtype=torch.float64, requires_grad=True)

    def f(x, o):
        b = x * 1.5
        WRITES[name](b, o)
        return b * b

    assert gradcheck(f, (x, o))
    assert gradgradcheck(f, (x, o))
