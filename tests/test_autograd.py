"""The backward engine: Tensor.backward, autograd.grad, grad modes, graph shapes, depth, threads
and the lifetime of nodes and saved tensors. Expected messages are PyTorch 2.13's."""

import gc
import re
import threading
import weakref

import engine as torch
import pytest
from engine.autograd import Function

SAVED_FREED = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through "
    "the graph a second time or if you need to access saved tensors after calling backward."
)
NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
    "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information."
)


def leaf(*values):
    return torch.tensor(list(values), requires_grad=True)


def exact(msg):
    return "^" + re.escape(msg) + "$"


class Double(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


class Square(Function):
    @staticmethod
    def forward(x):
        return x * x

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 2 * x * g


class TimesSelfAtOne(Function):
    """Identity on ones whose backward multiplies by a saved input (ones too)."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 1

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * x


# ---- Tensor.backward ----------------------------------------------------------------------------


def test_backward_of_a_scalar_fills_leaf_grads():
    x = leaf(1.0, 2.0, 3.0)
    (x * x).sum().backward()
    assert x.grad.tolist() == [2.0, 4.0, 6.0]
    assert x.grad.grad_fn is None and not x.grad.requires_grad


def test_backward_with_explicit_gradient():
    x = leaf(1.0, 2.0, 3.0)
    (x * 3).backward(torch.tensor([1.0, 10.0, 100.0]))
    assert x.grad.tolist() == [3.0, 30.0, 300.0]


def test_gradients_accumulate_across_backward_calls():
    x = leaf(1.0, 2.0)
    (x * 2).sum().backward()
    (x * 3).sum().backward()
    assert x.grad.tolist() == [5.0, 5.0]
    x.grad = None
    (x * 4).sum().backward()
    assert x.grad.tolist() == [4.0, 4.0]


def test_retain_graph_allows_a_second_backward():
    x = leaf(1.0, 2.0)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    assert x.grad.tolist() == [4.0, 8.0]


def test_second_backward_without_retain_graph_is_an_error():
    x = leaf(1.0, 2.0)
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError, match=exact(SAVED_FREED)):
        y.backward()


def test_non_scalar_backward_needs_a_gradient():
    x = leaf(1.0, 2.0)
    msg = "grad can be implicitly created only for scalar outputs"
    with pytest.raises(RuntimeError, match=exact(msg)):
        (x * 2).backward()


def test_backward_of_a_tensor_without_history_is_an_error():
    msg = "element 0 of tensors does not require grad and does not have a grad_fn"
    with pytest.raises(RuntimeError, match=exact(msg)):
        torch.tensor([1.0]).sum().backward()
    with torch.no_grad():
        y = leaf(1.0) * 2
    with pytest.raises(RuntimeError, match=exact(msg)):
        y.backward()


def test_gradient_of_wrong_shape_is_an_error():
    x = leaf(1.0, 2.0)
    with pytest.raises(RuntimeError, match="Mismatch in shape"):
        (x * 2).backward(torch.ones(3))


# ---- leaves, grad_fn, retain_grad ---------------------------------------------------------------


def test_requires_grad_and_is_leaf():
    a = torch.tensor([1.0, 2.0])
    assert not a.requires_grad and a.is_leaf and a.grad_fn is None
    assert a.requires_grad_() is a
    assert a.requires_grad and a.is_leaf
    b = a * 2
    assert b.requires_grad and not b.is_leaf
    a.requires_grad = False
    assert not (a * 2).requires_grad
    c = torch.ones(2, requires_grad=True)
    assert c.requires_grad and c.is_leaf
    assert c.detach().is_leaf and not c.detach().requires_grad


def test_requires_grad_on_integer_tensor_is_an_error():
    with pytest.raises(
        RuntimeError, match=exact("only Tensors of floating point dtype can require gradients")
    ):
        torch.tensor([1, 2]).requires_grad_()


def test_requires_grad_cannot_be_switched_off_on_a_non_leaf():
    b = leaf(1.0) * 2
    with pytest.raises(RuntimeError, match="you can only change requires_grad flags of leaf"):
        b.requires_grad = False


@pytest.mark.parametrize(
    ("make", "name"),
    [
        (lambda x: x * 2, "MulBackward0"),
        (lambda x: x + 1, "AddBackward0"),
        (lambda x: x.sum(), "SumBackward0"),
        (lambda x: x.exp(), "ExpBackward0"),
    ],
)
def test_builtin_grad_fn_names(make, name):
    assert make(leaf(1.0, 2.0)).grad_fn.name() == name


def test_retain_grad_keeps_a_non_leaf_gradient():
    x = leaf(1.0, 2.0)
    y = x * 3
    y.retain_grad()
    assert y.retains_grad
    (y * y).sum().backward()
    assert y.grad.tolist() == [6.0, 12.0]
    assert x.grad.tolist() == [18.0, 36.0]


def test_grad_of_a_non_leaf_warns_and_is_none():
    y = leaf(1.0) * 2
    y.backward()
    with pytest.warns(UserWarning, match=exact(NON_LEAF_GRAD_WARNING)):
        assert y.grad is None


def test_retain_grad_on_a_custom_function_output():
    x = leaf(1.0, 2.0)
    y = Double.apply(x)
    y.retain_grad()
    (y * y).sum().backward()
    assert y.grad.tolist() == [4.0, 8.0]
    assert x.grad.tolist() == [8.0, 16.0]


# ---- grad modes ---------------------------------------------------------------------------------


def test_no_grad_and_enable_grad_as_context_managers():
    x = leaf(1.0)
    with torch.no_grad():
        assert not torch.is_grad_enabled()
        assert not (x * 2).requires_grad
        with torch.enable_grad():
            assert torch.is_grad_enabled()
            assert (x * 2).requires_grad
        assert not torch.is_grad_enabled()
    assert torch.is_grad_enabled()


def test_grad_mode_is_restored_after_an_exception():
    with pytest.raises(ValueError), torch.no_grad():
        raise ValueError
    assert torch.is_grad_enabled()


def test_grad_modes_as_decorators():
    x = leaf(1.0)

    @torch.no_grad()
    def off():
        return torch.is_grad_enabled(), x * 2

    @torch.enable_grad()
    def on():
        return torch.is_grad_enabled()

    enabled, y = off()
    assert not enabled and not y.requires_grad
    with torch.no_grad():
        assert on()
    assert off.__name__ == "off"


def test_set_grad_enabled_as_call_context_manager_and_decorator():
    torch.set_grad_enabled(False)
    try:
        assert not torch.is_grad_enabled()
    finally:
        torch.set_grad_enabled(True)
    with torch.set_grad_enabled(False):
        assert not torch.is_grad_enabled()
    assert torch.is_grad_enabled()

    @torch.set_grad_enabled(False)
    def off():
        return torch.is_grad_enabled()

    assert torch.is_grad_enabled()
    assert off() is False
    assert torch.is_grad_enabled()


def test_grad_mode_is_thread_local():
    seen = []
    with torch.no_grad():
        t = threading.Thread(target=lambda: seen.append(torch.is_grad_enabled()))
        t.start()
        t.join()
        assert not torch.is_grad_enabled()
    assert seen == [True]


# ---- autograd.grad ------------------------------------------------------------------------------


def test_grad_returns_a_tuple_and_leaves_grad_alone():
    x = leaf(1.0, 2.0)
    (g,) = torch.autograd.grad((x * x).sum(), x)
    assert g.tolist() == [2.0, 4.0]
    assert x.grad is None


def test_grad_with_grad_outputs():
    x = leaf(1.0, 2.0)
    (g,) = torch.autograd.grad(x * 3, [x], grad_outputs=[torch.tensor([1.0, -1.0])])
    assert g.tolist() == [3.0, -3.0]
    msg = "grad can be implicitly created only for scalar outputs"
    with pytest.raises(RuntimeError, match=exact(msg)):
        torch.autograd.grad(x * 3, x)


def test_grad_of_an_unused_input():
    x, unused = leaf(1.0), leaf(2.0)
    y = (x * 2).sum()
    msg = (
        "One of the differentiated Tensors appears to not have been used in the graph. Set "
        "allow_unused=True if this is the desired behavior."
    )
    with pytest.raises(RuntimeError, match=exact(msg)):
        torch.autograd.grad(y, [x, unused], retain_graph=True)
    gx, gu = torch.autograd.grad(y, [x, unused], allow_unused=True)
    assert gx.tolist() == [2.0] and gu is None


def test_create_graph_gives_second_derivative_of_cube():
    x = leaf(1.0, 2.0, 3.0)
    (g,) = torch.autograd.grad((x**3).sum(), x, create_graph=True)
    assert g.tolist() == [3.0, 12.0, 27.0]
    assert g.requires_grad and g.grad_fn is not None
    (gg,) = torch.autograd.grad(g.sum(), x)
    assert gg.tolist() == [6.0, 12.0, 18.0]


def test_grad_runs_only_the_needed_part_of_the_graph():
    calls = []

    class Spy(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            calls.append("spy")
            return g

    a, b = leaf(1.0, 2.0), leaf(3.0, 4.0)
    y = (Spy.apply(a) * b).sum()
    (gb,) = torch.autograd.grad(y, b)
    assert gb.tolist() == [1.0, 2.0]
    assert calls == []
    assert a.grad is None and b.grad is None


def test_grad_of_an_intermediate_tensor():
    x = leaf(1.0, 2.0)
    h = x * 2
    y = (h * h).sum()
    (gh,) = torch.autograd.grad(y, h)
    assert gh.tolist() == [4.0, 8.0]
    assert x.grad is None


# ---- graph shapes -------------------------------------------------------------------------------


def test_diamond_sums_gradients_where_paths_meet():
    x = leaf(1.0, 2.0)
    h = x * 3
    y = (h * 2 + h * h).sum()  # dy/dh = 2 + 2h, dh/dx = 3
    y.backward()
    assert x.grad.tolist() == [3.0 * (2 + 6.0), 3.0 * (2 + 12.0)]


def test_diamond_through_custom_functions():
    x = leaf(1.0, 2.0)
    h = Double.apply(x)
    y = (Square.apply(h) + Double.apply(h)).sum()  # dy/dh = 2h + 2, dh/dx = 2
    y.backward()
    assert x.grad.tolist() == [2.0 * (4.0 + 2), 2.0 * (8.0 + 2)]


def test_same_leaf_used_many_times():
    x = leaf(2.0)
    y = x * x * x + x
    y.backward()
    assert x.grad.tolist() == [13.0]


DEPTH = 100_000


def test_deep_chain_of_builtin_ops_backward_and_drop():
    x = leaf(1.0)
    y = x
    for _ in range(DEPTH):
        y = y * x  # MulBackward0 saves both operands
    y.backward(retain_graph=True)
    assert x.grad.tolist() == [DEPTH + 1.0]  # d/dx x**(DEPTH + 1) at 1
    del y  # dropping the whole chain, saved tensors included, must not recurse either


def test_deep_chain_of_custom_functions_backward_and_drop():
    x = leaf(1.0)
    y = x
    for _ in range(DEPTH):
        y = TimesSelfAtOne.apply(y)
    y.backward(retain_graph=True)
    assert x.grad.tolist() == [1.0]
    del y


# ---- threads ------------------------------------------------------------------------------------


def test_two_threads_run_forward_and_backward_independently():
    errors, results = [], {}

    def work(k):
        try:
            for _ in range(200):
                x = torch.tensor([1.0, 2.0, 3.0]) * k
                x.requires_grad_()
                y = Square.apply(Double.apply(x)).sum()  # 4x^2 -> 8x
                y.backward()
                results.setdefault(k, set()).add(tuple(x.grad.tolist()))
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in (1.0, 2.0)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert results == {1.0: {(8.0, 16.0, 24.0)}, 2.0: {(16.0, 32.0, 48.0)}}


# ---- lifetime -----------------------------------------------------------------------------------


@pytest.fixture
def no_gc():
    gc.collect()
    gc.disable()
    yield
    gc.enable()


class Keeper(Function):
    """Saves an input, an output and an intermediate, and keeps a tensor as a ctx attribute."""

    @staticmethod
    def forward(ctx, x):
        mid = x + 1
        out = mid * 2
        ctx.save_for_backward(x, out, mid)
        ctx.attr = x * 3
        return out

    @staticmethod
    def backward(ctx, g):
        x, out, mid = ctx.saved_tensors
        return g * 2


# A Python tensor object lives only as long as Python references it (engine does not keep the
# wrapper of a tensor held only natively), so weakrefs here watch the objects Python can see: the
# output, the ctx, and tensors kept as ctx attributes.


def test_dropping_the_output_frees_node_and_ctx(no_gc):
    x = leaf(1.0, 2.0)
    y = Keeper.apply(x)
    refs = [weakref.ref(y), weakref.ref(y.grad_fn)]
    assert all(r() is not None for r in refs)
    assert y.grad_fn.attr.tolist() == [3.0, 6.0]  # a tensor attribute is kept natively
    del y
    assert [r() for r in refs] == [None] * len(refs)


def test_backward_frees_saved_tensors_and_dropping_frees_the_rest(no_gc):
    x = leaf(1.0, 2.0)
    y = Keeper.apply(x)
    s = y.sum()
    ctx_ref = weakref.ref(y.grad_fn)
    s.backward()
    assert x.grad.tolist() == [2.0, 2.0]
    with pytest.raises(RuntimeError, match=exact(SAVED_FREED)):
        y.grad_fn.saved_tensors  # noqa: B018
    assert y.grad_fn.attr.tolist() == [3.0, 6.0]  # ctx attributes live as long as the ctx
    del s, y
    assert ctx_ref() is None


def test_saved_output_forms_no_cycle(no_gc):
    class SaveOut(Function):
        @staticmethod
        def forward(x):
            return x.exp()

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(output)

        @staticmethod
        def backward(ctx, g):
            (y,) = ctx.saved_tensors
            return g * y

    y = SaveOut.apply(leaf(1.0))
    refs = [weakref.ref(y), weakref.ref(y.grad_fn)]
    del y
    assert [r() for r in refs] == [None, None]


def test_graph_is_freed_without_the_collector(no_gc):
    x = leaf(1.0)
    first = Double.apply(x)
    first_ref = weakref.ref(first.grad_fn)
    y = first
    del first
    for _ in range(1000):
        y = Square.apply(y)
    y.sum().backward()
    assert first_ref() is not None
    del y
    assert first_ref() is None


def test_backward_with_inputs_accumulates_only_into_them():
    a, b = leaf(1.0), leaf(2.0)
    Double.apply(a * b).sum().backward(inputs=[b])
    assert a.grad is None
    assert b.grad.tolist() == [2.0]
