"""The graph as Python objects (torch.autograd.graph): node classes, calling a node, metadata,
next_functions, node hooks, gradient edges, multi-grad hooks, version bumps, Variable and its
execution engine's callbacks. Expected messages are PyTorch 2.13's."""

import engine as torch
import pytest
from engine.autograd import Function, Variable
from engine.autograd.function import InplaceFunction
from engine.autograd.graph import (
    GradientEdge,
    Node,
    get_gradient_edge,
    increment_version,
    register_multi_grad_hook,
)


def leaf(*values):
    return torch.tensor(list(values), requires_grad=True)


def test_each_builtin_node_has_its_own_class():
    a = leaf(1.0, 2.0)
    y = a * a
    z = y.exp()
    assert type(y.grad_fn).__name__ == "MulBackward0"
    assert type(z.grad_fn).__name__ == "ExpBackward0"
    assert type(y.grad_fn) is type((a * 3).grad_fn)
    assert type(y.grad_fn) is not type(z.grad_fn)
    assert isinstance(y.grad_fn, Node)
    assert repr(y.grad_fn).startswith("<MulBackward0 object at 0x")


def test_accumulate_grad_node_class_and_variable():
    a = leaf(1.0)
    node = (a * 2).grad_fn.next_functions[0][0]
    assert type(node).__name__ == "AccumulateGrad"
    assert node.variable is a
    assert repr(node).startswith("<AccumulateGrad object at")


def test_grad_fn_is_the_same_object_while_alive():
    a = leaf(1.0)
    y = a * 2
    assert y.grad_fn is y.grad_fn


def test_name_and_next_functions():
    a, b = leaf(1.0), leaf(2.0)
    y = a * b
    assert y.grad_fn.name() == "MulBackward0"
    (fa, ia), (fb, ib) = y.grad_fn.next_functions
    assert (ia, ib) == (0, 0)
    assert fa.variable is a and fb.variable is b
    c = torch.tensor([1.0])
    assert (a * c).grad_fn.next_functions[1] == (None, 0)


def test_calling_a_node_runs_its_backward():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 5.0], requires_grad=True)
    ga, gb = (a * b).grad_fn(torch.ones(2))
    assert ga.tolist() == [3.0, 5.0] and gb.tolist() == [1.0, 2.0]
    (g,) = [(a * 2).exp().grad_fn(torch.ones(2))]
    assert torch.allclose(g, (a * 2).exp())


def test_calling_a_node_after_backward_raises():
    a = leaf(1.0)
    y = a * a
    y.sum().backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.grad_fn(torch.ones(1))


def test_calling_a_node_with_wrong_count_raises_instead_of_crashing():
    a = leaf(1.0)
    with pytest.raises(TypeError, match="^expected 1 arguments, got 0 instead$"):
        (a * a).grad_fn()


def test_metadata_is_a_dict_kept_on_the_node():
    a = leaf(1.0)
    y = a * 2
    assert y.grad_fn.metadata == {}
    y.grad_fn.metadata["tag"] = 7
    assert y.grad_fn.metadata == {"tag": 7}
    assert (a * 3).grad_fn.metadata == {}


def test_custom_function_node_metadata_and_name():
    class Double(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    y = Double.apply(leaf(1.0))
    assert type(y.grad_fn).__name__ == "DoubleBackward"
    y.grad_fn.metadata["k"] = 1
    assert y.grad_fn.metadata == {"k": 1}


def test_node_hook_and_prehook_on_builtin_nodes():
    a = leaf(1.0, 2.0)
    y = a * 3
    seen = []
    y.grad_fn.register_prehook(lambda go: seen.append(("pre", go[0].tolist())))
    y.grad_fn.register_hook(lambda gi, go: seen.append(("post", gi[0].tolist())))
    y.sum().backward()
    assert seen == [("pre", [1.0, 1.0]), ("post", [3.0, 3.0])]


def test_get_gradient_edge_of_leaf_and_non_leaf():
    a = leaf(1.0)
    y = a * 2
    e = get_gradient_edge(y)
    assert isinstance(e, GradientEdge)
    assert e.node is y.grad_fn and e.output_nr == 0 and e.ownership_token is None
    assert type(get_gradient_edge(a).node).__name__ == "AccumulateGrad"
    assert repr(e).startswith("GradientEdge(node=<MulBackward0 object at")
    with pytest.raises(
        RuntimeError, match="It is not possible to get the gradient edge for a Tensor"
    ):
        get_gradient_edge(torch.ones(1))


def test_gradient_edge_as_grad_inputs():
    a = leaf(1.0, 2.0)
    y = a * a
    z = (y * 3).sum()
    edge = get_gradient_edge(y)
    (gy,) = torch.autograd.grad(z, edge, retain_graph=True)
    assert gy.tolist() == [3.0, 3.0]
    ga, gy2 = torch.autograd.grad(z, (a, edge))
    assert ga.tolist() == [6.0, 12.0] and gy2.tolist() == [3.0, 3.0]


def test_gradient_edge_keeps_working_after_the_tensor_is_gone():
    a = leaf(2.0)
    y = a * a
    edge = get_gradient_edge(y)
    out = (y * 5).sum()
    del y
    (g,) = torch.autograd.grad(out, edge)
    assert g.tolist() == [5.0]


def test_multi_grad_hook_all_fires_once_with_every_grad():
    a, b, c = leaf(1.0), leaf(2.0), leaf(3.0)
    calls = []
    register_multi_grad_hook((a, b, c), lambda grads: calls.append(grads))
    (a * 2 + b * 3).sum().backward()
    assert len(calls) == 1
    ga, gb, gc = calls[0]
    assert ga.tolist() == [2.0] and gb.tolist() == [3.0] and gc is None
    (a * 4).sum().backward()
    assert len(calls) == 2 and calls[1][0].tolist() == [4.0] and calls[1][1] is None


def test_multi_grad_hook_any_fires_once():
    a, b = leaf(1.0), leaf(2.0)
    calls = []
    handle = register_multi_grad_hook((a, b), lambda g: calls.append(g), mode="any")
    (a * 2 + b * 3).sum().backward()
    assert len(calls) == 1
    handle.remove()
    (a * 2 + b * 3).sum().backward()
    assert len(calls) == 1


def test_multi_grad_hook_rejects_unknown_mode():
    with pytest.raises(ValueError, match="Expects mode to be one of"):
        register_multi_grad_hook((leaf(1.0),), print, mode="some")


def test_increment_version():
    a = leaf(1.0)
    b = torch.ones(1)
    y = a * b
    v = b._version
    increment_version(b)
    assert b._version == v + 1
    with pytest.raises(RuntimeError, match="is at version"):
        y.sum().backward()


def test_variable_is_the_tensor_type_and_queue_callback():
    a = leaf(1.0)
    assert isinstance(a, Variable)
    assert not isinstance(1.0, Variable)
    v = Variable(torch.ones(2), requires_grad=True)
    assert v.requires_grad and v.is_leaf
    with pytest.raises(
        RuntimeError, match="Final callbacks can only be installed during backward pass."
    ):
        Variable._execution_engine.queue_callback(lambda: None)
    order = []

    def hook(g):
        order.append("hook")
        Variable._execution_engine.queue_callback(lambda: order.append("callback"))

    y = a * 2
    y.register_hook(hook)
    (y * 3).sum().backward()
    order.append("after")
    assert order == ["hook", "callback", "after"]


def test_queue_callback_sees_the_finished_gradients():
    a = leaf(1.0)
    seen = []

    def hook(g):
        Variable._execution_engine.queue_callback(lambda: seen.append(a.grad.tolist()))

    a.register_hook(hook)
    (a * 5).sum().backward()
    assert seen == [[5.0]]


def test_inplace_function_keeps_the_flag():
    class AddOne(InplaceFunction):
        @staticmethod
        def forward(ctx, x):
            return x + 1

        @staticmethod
        def backward(ctx, g):
            return g

    assert issubclass(AddOne, Function)
    y = AddOne.apply(leaf(1.0))
    assert y.tolist() == [2.0]


def test_print_of_a_tensor_with_history():
    a = leaf(1.0)
    assert repr(a * 2).endswith("grad_fn=<MulBackward0>)")


def test_every_node_is_a_graph_node():
    class Double(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    a = leaf(1.0)
    assert isinstance((a * 2).grad_fn, Node)
    assert isinstance(Double.apply(a).grad_fn, Node)
    assert isinstance(get_gradient_edge(a).node, Node)
    assert not isinstance(a, Node)


def test_saved_tensors_of_reductions():
    a = leaf(1.0, 3.0, 2.0)
    y = a.amax()
    assert y.grad_fn._saved_self is a
    assert torch.equal(y.grad_fn._saved_result, y)


@pytest.mark.parametrize("bad", [3, [3], "ab", [torch.ones(1), None]])
def test_increment_version_rejects_non_tensors_with_pytorchs_message(bad):
    with pytest.raises(
        RuntimeError, match=r"increment_version expect a Iterable\[Tensor\] as input"
    ):
        increment_version(bad)


def test_private_increment_version_refuses_non_tensors_with_pytorchs_messages():
    with pytest.raises(
        RuntimeError, match=r"^increment_version expect a Iterable\[Tensor\] as input$"
    ):
        torch._C._increment_version(1.5)
    with pytest.raises(
        RuntimeError,
        match="^increment_version expects each element of the iterable to be a tensor$",
    ):
        torch._C._increment_version([torch.zeros(1), object()])
