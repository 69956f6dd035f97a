"""Tensor.set_ points a tensor at another tensor's memory (or at fresh empty memory) in place, with
PyTorch 2.13's overloads, checks and autograd rules: the version moves on once, a leaf gets a new
gradient accumulator, and a set_ involving tensors that require grad records a node without a
derivative."""

import re

import engine as torch
import pytest


def exact(message):
    return "^" + re.escape(message) + "$"


def test_set_to_another_tensor_shares_its_memory_and_geometry():
    src = torch.arange(6.0).view(2, 3).t()
    t = torch.zeros(4)
    assert t.set_(src) is t
    assert t.shape == (3, 2) and t.stride() == (1, 3)
    src[0, 1] = 10.0  # a write through the source is seen through t
    assert t[0, 1].item() == 10.0


def test_set_with_offset_size_and_stride():
    src = torch.arange(6.0)
    t = torch.empty(0)
    t.set_(src, 1, (2, 2))
    assert t.tolist() == [[1.0, 2.0], [3.0, 4.0]] and t.stride() == (2, 1)
    t.set_(src, 1, (2, 2), (1, 2))
    assert t.tolist() == [[1.0, 3.0], [2.0, 4.0]]
    t.set_(source=src, storage_offset=2, size=[3])
    assert t.tolist() == [2.0, 3.0, 4.0]


def test_set_without_arguments_empties_the_tensor():
    t = torch.ones(3)
    t.set_()
    assert t.shape == (0,) and t.stride() == (1,) and t.dtype == torch.float32


def test_set_bumps_the_version_once_and_keeps_the_counter_its_own():
    src = torch.ones(2)
    t = torch.zeros(2)
    before, src_before = t._version, src._version
    t.set_(src)
    assert t._version == before + 1 and src._version == src_before
    src.add_(1.0)  # the source's writes do not move t's counter
    assert t._version == before + 1


def test_bad_geometry_is_refused_with_pytorch_messages():
    src = torch.arange(6.0)
    t = torch.empty(0)
    with pytest.raises(RuntimeError, match=exact("unequal size length (2) and stride length (1)")):
        t.set_(src, 1, (2, 2), (1,))
    with pytest.raises(RuntimeError, match=exact("Tensor: invalid storage offset -1")):
        t.set_(src, -1, (2, 2))
    with pytest.raises(
        RuntimeError, match=exact("Could not set tensor of type double to a tensor of type float")
    ):
        torch.zeros(2).set_(torch.zeros(2, dtype=torch.float64))


def test_geometry_past_the_end_of_the_memory_is_refused():
    # PyTorch grows the source's memory here (moving it for every tensor that uses it); engine's
    # memory never grows, so it refuses, with the message PyTorch gives for memory that cannot grow.
    with pytest.raises(
        RuntimeError,
        match=exact(
            "setStorage: sizes [2, 2], strides [], storage offset 10, and itemsize 4 requiring a storage size "
            "of 56 are out of bounds for storage of size 24"
        ),
    ):
        torch.empty(0).set_(torch.arange(6.0), 10, (2, 2))


def test_argument_combinations_that_match_no_overload_raise_type_error():
    with pytest.raises(
        TypeError, match=r"^set_\(\) received an invalid combination of arguments - got \(int\)"
    ):
        torch.zeros(2).set_(3)
    with pytest.raises(TypeError, match=r"got \(Tensor, int\)"):
        torch.zeros(2).set_(torch.zeros(2), 1)
    with pytest.raises(TypeError, match=r"got \(Tensor, foo=int\)"):
        torch.zeros(2).set_(torch.zeros(2), foo=3)


def test_leaf_that_requires_grad_is_refused_under_grad_mode():
    x = torch.rand(2, requires_grad=True)
    with pytest.raises(
        RuntimeError,
        match=exact("a leaf Variable that requires grad is being used in an in-place operation."),
    ):
        x.set_(torch.rand(2))


def test_leaf_set_under_no_grad_gets_a_new_gradient_edge():
    x = torch.rand(2, requires_grad=True)
    old_edge = torch.autograd.graph.get_gradient_edge(x)
    out = x.clone()
    with torch.no_grad():
        x.set_(torch.rand(3))
    assert x.is_leaf and x.requires_grad and x.shape == (3,)
    assert torch.autograd.graph.get_gradient_edge(x).node is not old_edge.node
    with pytest.raises(RuntimeError, match="to not have been used in the graph"):
        torch.autograd.grad(out.sum(), x)
    # The graph recorded before still reaches the old accumulator.
    (g,) = torch.autograd.grad(out.sum(), old_edge)
    assert g.tolist() == [1.0, 1.0]


def test_set_from_a_tensor_that_requires_grad_records_a_node_without_derivative():
    y = torch.rand(2, requires_grad=True)
    z = torch.rand(2).set_(y)
    assert z.requires_grad and z.grad_fn.name() == "torch::autograd::NotImplemented"
    assert z.grad_fn.next_functions[0] == (None, 0)
    with pytest.raises(RuntimeError, match=exact("derivative for set_ is not implemented")):
        z.sum().backward()
    assert not torch.zeros(2).set_(torch.zeros(2)).requires_grad


def test_geometry_whose_extent_overflows_is_refused():
    src = torch.arange(6.0)
    with pytest.raises(
        RuntimeError,
        match=exact(
            "Storage size calculation overflowed with sizes=[2] and strides=[4611686018427387904]"
        ),
    ):
        torch.empty(0).set_(src, 2**62, (2,), (2**62,))
    with pytest.raises(RuntimeError, match="overflow"):
        torch.empty(0).set_(src, 2**63 - 1, (1,))
    with pytest.raises(
        RuntimeError,
        match=exact("Storage size calculation overflowed with sizes=[2] and strides=[-1]"),
    ):
        torch.empty(0).set_(src, 0, (2,), (-1,))
