"""The custom Function contract: styles, ctx, saved tensors, outputs, and backward's checks.

Expected behaviour and messages are PyTorch 2.13's (see the project's reference notes on
``torch.autograd.Function``), except where the tutorial's style is accepted on purpose.
"""

import gc
import re
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


def leaf(*values, dtype=None):
    return torch.tensor(list(values), dtype=dtype, requires_grad=True)


def exact(msg):
    return "^" + re.escape(msg) + "$"


def inplace_message(producer):
    return (
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [torch.FloatTensor [3]], which is output 0 of {producer}, is at version 1; "
        "expected version 0 instead. Hint: enable anomaly detection to find the operation that "
        "failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, "
        "check_nan=False)."
    )


# ---- the three styles ---------------------------------------------------------------------------


class NewStyle(Function):
    calls = []

    @staticmethod
    def forward(x):
        NewStyle.calls.append("forward")
        return x * 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        NewStyle.calls.append("setup_context")
        ctx.save_for_backward(*inputs)

    @staticmethod
    def backward(ctx, g):
        return g * 2


class OldStyle(Function):
    calls = []

    @staticmethod
    def forward(ctx, x):
        OldStyle.calls.append("forward")
        assert isinstance(ctx, OldStyle._backward_cls)
        ctx.save_for_backward(x)
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


class TutorialStyle(Function):
    calls = []

    @staticmethod
    def forward(ctx, x):
        TutorialStyle.calls.append(("forward", type(ctx).__name__))
        return x * 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        TutorialStyle.calls.append(("setup_context", type(ctx).__name__))
        ctx.save_for_backward(*inputs)

    @staticmethod
    def backward(ctx, g):
        return g * 2


def test_new_style_forward_gets_no_ctx_then_setup_context_runs():
    NewStyle.calls.clear()
    x = leaf(1.0, 2.0, 3.0)
    y = NewStyle.apply(x)
    assert NewStyle.calls == ["forward", "setup_context"]
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]


def test_old_style_forward_gets_the_ctx_and_no_setup_context():
    OldStyle.calls.clear()
    x = leaf(1.0, 2.0, 3.0)
    y = OldStyle.apply(x)
    assert OldStyle.calls == ["forward"]
    assert y.grad_fn.saved_tensors[0] is x
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]


def test_tutorial_style_calls_forward_with_ctx_then_setup_context_with_the_same_ctx():
    TutorialStyle.calls.clear()
    x = leaf(1.0, 2.0, 3.0)
    y = TutorialStyle.apply(x)
    assert TutorialStyle.calls == [
        ("forward", "TutorialStyleBackward"),
        ("setup_context", "TutorialStyleBackward"),
    ]
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]


def test_style_is_decided_by_the_first_parameter_being_named_ctx():
    class FirstParamNamedSelf(Function):
        @staticmethod
        def forward(self_, x):  # not named ctx: new style, so both are user arguments
            return self_ + x

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.n_inputs = len(inputs)

        @staticmethod
        def backward(ctx, g):
            return g, g

    a, b = leaf(1.0), leaf(2.0)
    y = FirstParamNamedSelf.apply(a, b)
    assert y.grad_fn.n_inputs == 2
    y.backward()
    assert a.grad.tolist() == [1.0] and b.grad.tolist() == [1.0]


def test_old_style_with_ctx_less_forward_fails_like_python_call():
    class D(Function):
        @staticmethod
        def forward(x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    msg = r"forward\(\) takes 1 positional argument but 2 were given"
    with pytest.raises(TypeError, match=msg):
        D.apply(leaf(1.0))


def test_setup_context_sees_bound_inputs_and_the_raw_output():
    seen = {}

    class S(Function):
        @staticmethod
        def forward(x, k, name="s", extra=None):
            return x * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            seen["inputs"] = inputs
            seen["output_requires_grad"] = output.requires_grad
            seen["output_grad_fn"] = output.grad_fn
            seen["grad_enabled"] = torch.is_grad_enabled()

        @staticmethod
        def backward(ctx, g):
            return g * 3, None, None, None

    x = leaf(1.0, 2.0)
    S.apply(x, 3, extra=None)
    assert isinstance(seen["inputs"], tuple)
    assert seen["inputs"][0] is x
    assert seen["inputs"][1:] == (3, "s", None)
    assert seen["output_requires_grad"] is False
    assert seen["output_grad_fn"] is None
    assert seen["grad_enabled"] is False


# ---- save_for_backward / saved_tensors ----------------------------------------------------------


def test_saved_input_unpacks_as_the_same_object():
    class Sq(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (s,) = ctx.saved_tensors
            assert s is x
            return 2 * s * g

    x = leaf(1.0, 2.0, 3.0)
    y = Sq.apply(x)
    assert y.grad_fn.saved_tensors[0] is x
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 4.0, 6.0]


def test_saved_output_unpacks_with_the_node_as_grad_fn():
    class Exp(Function):
        @staticmethod
        def forward(x):
            return x.exp()

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(output)

        @staticmethod
        def backward(ctx, g):
            (out,) = ctx.saved_tensors
            assert out.grad_fn is ctx
            assert out.requires_grad
            return g * out

    x = leaf(0.0, 1.0)
    y = Exp.apply(x)
    (s,) = y.grad_fn.saved_tensors
    assert s is not y
    assert s.grad_fn is y.grad_fn
    assert s.tolist() == y.tolist()
    y.sum().backward()
    assert x.grad.tolist() == pytest.approx(y.tolist())


def test_saved_intermediate_and_none_are_kept():
    class Mid(Function):
        @staticmethod
        def forward(ctx, x):
            t = x + 1
            ctx.save_for_backward(None, t)
            return t * 2

        @staticmethod
        def backward(ctx, g):
            none, t = ctx.saved_tensors
            assert none is None
            return g * 2 + t * 0

    x = leaf(1.0, 2.0)
    Mid.apply(x).sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_saved_tensors_inside_forward_is_empty():
    seen = []

    class F(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            seen.append(ctx.saved_tensors)
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return g

    F.apply(leaf(1.0))
    assert seen == [()]


def test_second_save_for_backward_replaces_the_first():
    class F(Function):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x)
            ctx.save_for_backward(y)
            return x * y

        @staticmethod
        def backward(ctx, g):
            return g, g

    x, y = leaf(1.0), leaf(2.0)
    saved = F.apply(x, y).grad_fn.saved_tensors
    assert len(saved) == 1 and saved[0] is y


def test_save_for_backward_rejects_non_tensors():
    class F(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, 3)
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return g

    msg = "save_for_backward can only save variables, but argument 1 is of type int"
    with pytest.raises(TypeError, match=exact(msg)):
        F.apply(leaf(1.0))


def test_version_check_on_unpack_of_a_saved_intermediate():
    class F(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 1

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * x

    a = leaf(1.0, 2.0, 3.0)
    b = a * 2
    y = F.apply(b)
    with torch.no_grad():
        b.mul_(3)
    msg = inplace_message("Mul")
    with pytest.raises(RuntimeError, match=exact(msg)):
        y.sum().backward()


def test_version_check_on_unpack_of_a_saved_output_names_the_forward_class():
    class S5(Function):
        @staticmethod
        def forward(ctx, x):
            y = x * 2
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, g):
            (y,) = ctx.saved_tensors
            return g * y

    y = S5.apply(leaf(1.0, 2.0, 3.0))
    with torch.no_grad():
        y.add_(1)
    msg = inplace_message("S5")
    with pytest.raises(RuntimeError, match=exact(msg)):
        y.sum().backward()


def test_saved_tensors_freed_after_backward():
    class Sq(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

    x = leaf(1.0, 2.0)
    y = Sq.apply(x).sum()
    y.backward()
    with pytest.raises(RuntimeError, match=exact(SAVED_FREED)):
        y.backward()
    with pytest.raises(RuntimeError, match=exact(SAVED_FREED)):
        y.grad_fn.next_functions[0][0].saved_tensors  # noqa: B018


def test_retain_graph_keeps_saved_tensors_and_accumulates():
    class Sq(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

    x = leaf(1.0, 2.0)
    y = Sq.apply(x)
    y.sum().backward(retain_graph=True)
    assert y.grad_fn.saved_tensors[0] is x
    y.sum().backward()
    assert x.grad.tolist() == [4.0, 8.0]


def test_function_without_saved_tensors_can_run_backward_twice():
    x = leaf(1.0, 2.0)

    class Double(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    y = Double.apply(x)
    g = torch.ones(2)
    y.backward(g)
    y.backward(g)
    assert x.grad.tolist() == [4.0, 4.0]


# ---- ctx attributes and needs_input_grad --------------------------------------------------------


def test_arbitrary_ctx_attributes_reach_backward():
    class Scale(Function):
        @staticmethod
        def forward(x, k, tag):
            return x * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            _, ctx.k, ctx.tag = inputs
            ctx.stuff = {"list": [1, 2]}

        @staticmethod
        def backward(ctx, g):
            assert ctx.tag == "t" and ctx.stuff == {"list": [1, 2]}
            return g * ctx.k, None, None

    x = leaf(1.0, 2.0)
    y = Scale.apply(x, 5.0, "t")
    assert y.grad_fn.k == 5.0
    y.sum().backward()
    assert x.grad.tolist() == [5.0, 5.0]


def test_needs_input_grad_in_forward_setup_context_and_backward():
    seen = []

    class F(Function):
        @staticmethod
        def forward(ctx, a, b, k, c):
            seen.append(ctx.needs_input_grad)
            return a * b * c * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            seen.append(ctx.needs_input_grad)

        @staticmethod
        def backward(ctx, g):
            seen.append(ctx.needs_input_grad)
            return g, g, None, None

    a, b, c = leaf(1.0), torch.tensor([2.0]), leaf(3.0)
    F.apply(a, b, 2, c).backward()
    assert seen == [(True, False, False, True)] * 3


def test_needs_input_grad_reads_the_inputs_under_no_grad():
    # PyTorch 2.13 reports (True,) here: needs_input_grad ignores grad mode, only the node
    # (and so the outputs' grad_fn) depends on it.
    seen = []

    class F(Function):
        @staticmethod
        def forward(ctx, a):
            seen.append(ctx.needs_input_grad)
            return a * 1

        @staticmethod
        def backward(ctx, g):
            return g

    with torch.no_grad():
        out = F.apply(leaf(1.0))
    assert seen == [(True,)]
    assert out.grad_fn is None and not out.requires_grad


# ---- non-tensor arguments ----------------------------------------------------------------------


class Pow(Function):
    @staticmethod
    def forward(ctx, x, n):
        ctx.save_for_backward(x)
        ctx.n = n
        return x**n

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * ctx.n * x ** (ctx.n - 1), None


def test_non_tensor_argument_gets_none_gradient():
    x = leaf(2.0, 3.0)
    y = Pow.apply(x, 3)
    assert len(y.grad_fn.next_functions) == 1
    y.sum().backward()
    assert x.grad.tolist() == [12.0, 27.0]


def test_gradient_for_a_non_tensor_input_is_an_error():
    class Fn(Function):
        @staticmethod
        def forward(ctx, x, n):
            return x * n

        @staticmethod
        def backward(ctx, g):
            return g, g

    msg = (
        "function FnBackward returned a gradient different than None at position 2, but the "
        "corresponding forward input was not a Variable"
    )
    with pytest.raises(RuntimeError, match=exact(msg)):
        Fn.apply(leaf(1.0), 2).sum().backward()


# ---- outputs ------------------------------------------------------------------------------------


def test_single_output_grad_fn_name_ctx_identity_and_repr():
    class MulByTwo(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.me = ctx
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = leaf(1.0, 2.0, 3.0)
    y = MulByTwo.apply(x)
    fn = y.grad_fn
    assert fn is fn.me
    assert type(fn).__name__ == "MulByTwoBackward"
    assert fn.name() == "MulByTwoBackward"
    assert fn._forward_cls is MulByTwo
    assert repr(fn).startswith("<engine.autograd.function.MulByTwoBackward object at 0x")
    assert repr(y) == "tensor([2., 4., 6.], grad_fn=<MulByTwoBackward>)"
    assert y.requires_grad and not y.is_leaf


def test_next_functions_one_entry_per_tensor_input():
    class F(Function):
        @staticmethod
        def forward(ctx, a, k, b, c):
            return a + b + c

        @staticmethod
        def backward(ctx, g):
            return g, None, g, g

    a = leaf(1.0)
    b = leaf(2.0) * 3
    c = torch.tensor([1.0])
    y = F.apply(a, 5, b, c)
    nf = y.grad_fn.next_functions
    assert len(nf) == 3
    assert nf[0][0].name() == "torch::autograd::AccumulateGrad" and nf[0][1] == 0
    assert nf[0][0].variable is a
    assert nf[1][0] is b.grad_fn and nf[1][1] == 0
    assert nf[2] == (None, 0)


def test_tuple_outputs_share_one_node_and_mix_non_tensors():
    class Split(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, 5, "s", x * 3

        @staticmethod
        def backward(ctx, g1, g_int, g_str, g2):
            assert g_int is None and g_str is None
            return g1 * 2 + g2 * 3

    x = leaf(1.0, 2.0)
    a, five, s, b = Split.apply(x)
    assert five == 5 and s == "s"
    assert a.grad_fn is b.grad_fn
    assert (a.output_nr, b.output_nr) == (0, 3)
    (a.sum() + b.sum()).backward()
    assert x.grad.tolist() == [5.0, 5.0]


def test_unused_output_gets_zeros_in_backward():
    seen = []

    class Two(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            seen.append(g2.tolist())
            return g1 * 2 + g2 * 3

    x = leaf(1.0, 2.0)
    a, _ = Two.apply(x)
    a.sum().backward()
    assert seen == [[0.0, 0.0]]
    assert x.grad.tolist() == [2.0, 2.0]


def test_non_tuple_non_tensor_outputs_are_returned_unchanged():
    class L(Function):
        @staticmethod
        def forward(ctx, x):
            return [x * 2]

        @staticmethod
        def backward(ctx, g):
            return g

    class N(Function):
        @staticmethod
        def forward(ctx, x):
            return 7

        @staticmethod
        def backward(ctx, g):
            return g

    out = L.apply(leaf(1.0))
    assert isinstance(out, list) and out[0].grad_fn is None
    assert N.apply(leaf(1.0)) == 7


def test_input_returned_as_is_is_a_new_alias_with_the_custom_backward():
    class Id(Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 10

    x = leaf(1.0, 2.0)
    y = Id.apply(x)
    assert y is not x
    assert x.is_leaf and x.grad_fn is None
    assert type(y.grad_fn).__name__ == "IdBackward"
    y.sum().backward()
    assert x.grad.tolist() == [10.0, 10.0]


def test_forward_runs_with_grad_mode_off():
    seen = []

    class F(Function):
        @staticmethod
        def forward(ctx, x):
            inner = x * 2
            seen.append((torch.is_grad_enabled(), inner.grad_fn, inner.requires_grad))
            return inner

        @staticmethod
        def backward(ctx, g):
            seen.append(torch.is_grad_enabled())
            return g * 2

    F.apply(leaf(1.0)).backward()
    assert seen == [(False, None, False), False]


def test_no_node_under_no_grad_but_forward_and_setup_context_still_run():
    calls = []

    class F(Function):
        @staticmethod
        def forward(x):
            calls.append("forward")
            return x * 2

        @staticmethod
        def setup_context(ctx, inputs, output):
            calls.append(type(ctx).__name__)

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = leaf(1.0)
    with torch.no_grad():
        y = F.apply(x)
    assert calls == ["forward", "FBackward"]
    assert y.grad_fn is None and not y.requires_grad
    with torch.no_grad(), torch.enable_grad():
        z = F.apply(x)
    assert type(z.grad_fn).__name__ == "FBackward"


def test_no_node_when_no_input_requires_grad_even_for_a_leaf_made_in_forward():
    made = []

    class F(Function):
        @staticmethod
        def forward(ctx, x):
            made.append(torch.ones(2, requires_grad=True))
            return made[-1]

        @staticmethod
        def backward(ctx, g):
            return g

    y = F.apply(torch.tensor([1.0, 2.0]))
    assert y is made[0]
    assert y.grad_fn is None and not y.requires_grad
    with torch.no_grad():
        z = F.apply(leaf(1.0, 2.0))
    assert z is made[1] and not z.requires_grad


def test_input_returned_as_is_under_no_grad_is_a_new_alias_without_grad():
    class Id(Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    x = leaf(1.0, 2.0)
    with torch.no_grad():
        y = Id.apply(x)
    assert y is not x
    assert not y.requires_grad and x.requires_grad
    assert y.tolist() == [1.0, 2.0]


# ---- what backward returns ----------------------------------------------------------------------


def make_fn(name, grads):
    """An old-style Function `name`: returns its first input; backward gives grads(g)."""

    def forward(ctx, *xs):
        return xs[0] * 1

    def backward(ctx, g):
        return grads(g)

    return type(
        name, (Function,), {"forward": staticmethod(forward), "backward": staticmethod(backward)}
    )


def test_wrong_number_of_gradients():
    Fn = make_fn("Fn", lambda g: (g, g))
    msg = "function FnBackward returned an incorrect number of gradients (expected 1, got 2)"
    with pytest.raises(RuntimeError, match=exact(msg)):
        Fn.apply(leaf(1.0)).backward()
    Fn2 = make_fn("Fn", lambda g: (g,))
    msg = "function FnBackward returned an incorrect number of gradients (expected 2, got 1)"
    with pytest.raises(RuntimeError, match=exact(msg)):
        Fn2.apply(leaf(1.0), leaf(2.0)).backward()


def test_extra_trailing_nones_are_accepted():
    Fn = make_fn("Fn", lambda g: (g * 3, None, None))
    x = leaf(1.0)
    Fn.apply(x).backward()
    assert x.grad.tolist() == [3.0]


def test_single_tensor_may_be_returned_instead_of_a_tuple_and_none_leaves_grad_unset():
    x = leaf(1.0)
    make_fn("Fn", lambda g: g * 4).apply(x).backward()
    assert x.grad.tolist() == [4.0]
    y = leaf(1.0)
    make_fn("Fn", lambda g: None).apply(y).backward()
    assert y.grad is None


@pytest.mark.parametrize("shape", [(1, 3), (2, 3)])
def test_broadcast_gradient_is_summed_back_to_the_input_shape(shape):
    Fn = make_fn("Fn", lambda g: torch.ones(*shape))
    x = leaf(1.0, 2.0, 3.0)
    Fn.apply(x).sum().backward()
    assert x.grad.shape == (3,)
    assert x.grad.tolist() == [float(shape[0])] * 3


def test_incompatible_gradient_shape_is_an_error():
    Fn = make_fn("Fn", lambda g: torch.ones(4))
    msg = (
        "Function FnBackward returned an invalid gradient at index 0 - got [4] but expected shape "
        "compatible with [3]"
    )
    with pytest.raises(RuntimeError, match=exact(msg)):
        Fn.apply(leaf(1.0, 2.0, 3.0)).sum().backward()


@pytest.mark.parametrize("shape", [(1,), ()])
def test_smaller_gradient_is_an_error(shape):
    Fn = make_fn("Fn", lambda g: torch.ones(*shape))
    with pytest.raises(RuntimeError, match="returned an invalid gradient at index 0"):
        Fn.apply(leaf(1.0, 2.0, 3.0)).sum().backward()


@pytest.mark.parametrize(
    ("input_dtype", "grad_dtype"),
    [("float32", "float64"), ("float32", "int64"), ("float64", "float32")],
)
def test_gradient_dtype_is_cast_to_the_input_dtype(input_dtype, grad_dtype):
    Fn = make_fn("Fn", lambda g: torch.ones(2, dtype=getattr(torch, grad_dtype)))
    x = leaf(1.0, 2.0, dtype=getattr(torch, input_dtype))
    Fn.apply(x).sum().backward()
    assert x.grad.dtype == getattr(torch, input_dtype)
    assert x.grad.tolist() == [1.0, 1.0]


@pytest.mark.parametrize(("value", "type_name"), [(3, "int"), ([1.0], "list"), ("g", "str")])
def test_non_tensor_gradient_is_an_error(value, type_name):
    Fn = make_fn("Fn", lambda g: value)
    with pytest.raises(RuntimeError, match=exact(f"expected Variable or None (got {type_name})")):
        Fn.apply(leaf(1.0)).backward()


def test_gradient_for_an_input_not_requiring_grad_is_dropped():
    Fn = make_fn("Fn", lambda g: (g, g * 7))
    x, c = leaf(1.0), torch.tensor([5.0])
    Fn.apply(x, c).backward()
    assert x.grad.tolist() == [1.0]
    assert c.grad is None


def test_exception_from_backward_propagates_unchanged():
    class Boom(ValueError):
        pass

    def explode(g):
        raise Boom("boom in backward")

    Fn = make_fn("Fn", explode)
    with pytest.raises(Boom, match=exact("boom in backward")):
        Fn.apply(leaf(1.0)).backward()


def test_missing_backward_raises_at_backward_time():
    class NoBackward(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

    y = NoBackward.apply(leaf(1.0))
    msg = (
        "You must implement either the backward or vjp method for your custom autograd.Function to "
        "use it with backward mode AD."
    )
    with pytest.raises(NotImplementedError, match=exact(msg)):
        y.backward()


# ---- binding of arguments -----------------------------------------------------------------------


def test_new_style_defaults_count_as_inputs():
    class New(Function):
        @staticmethod
        def forward(x, k=2):
            return x * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.k = inputs[1]
            ctx.n = len(inputs)

        @staticmethod
        def backward(ctx, g):
            return (g * ctx.k,)

    x = leaf(1.0)
    y = New.apply(x)
    assert y.grad_fn.n == 2
    msg = "function NewBackward returned an incorrect number of gradients (expected 2, got 1)"
    with pytest.raises(RuntimeError, match=exact(msg)):
        y.backward()


def test_old_style_counts_only_the_arguments_passed():
    seen = []

    class Old(Function):
        @staticmethod
        def forward(ctx, x, k=2):
            seen.append(ctx.needs_input_grad)
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = leaf(1.0)
    Old.apply(x).backward()
    assert seen == [(True,)]
    assert x.grad.tolist() == [2.0]


def test_kwargs_new_style_are_bound_to_positions():
    class KW(Function):
        @staticmethod
        def forward(x, y, scale=1.0):
            return x * y * scale

        @staticmethod
        def setup_context(ctx, inputs, output):
            x, y, ctx.scale = inputs
            ctx.save_for_backward(x, y)

        @staticmethod
        def backward(ctx, g):
            x, y = ctx.saved_tensors
            return g * y * ctx.scale, g * x * ctx.scale, None

    x, y = leaf(2.0), leaf(3.0)
    out = KW.apply(x, scale=10.0, y=y)
    assert len(out.grad_fn.next_functions) == 2
    out.backward()
    assert x.grad.tolist() == [30.0] and y.grad.tolist() == [20.0]
    with pytest.raises(TypeError, match="unexpected keyword argument 'j'"):
        KW.apply(x, y, j=1)


def test_kwargs_old_style_are_passed_and_tracked():
    seen = []

    class KW(Function):
        @staticmethod
        def forward(ctx, x, y=None):
            seen.append(ctx.needs_input_grad)
            return x * y

        @staticmethod
        def backward(ctx, g):
            return g * 2, g * 3

    x, y = leaf(2.0), leaf(3.0)
    out = KW.apply(x, y=y)
    assert seen == [(True, True)]
    assert len(out.grad_fn.next_functions) == 2
    out.backward()
    assert x.grad.tolist() == [2.0] and y.grad.tolist() == [3.0]


def test_tensor_passed_twice_gets_both_gradients_summed():
    class Two(Function):
        @staticmethod
        def forward(ctx, a, b):
            return a * b

        @staticmethod
        def backward(ctx, g):
            return g, g * 10

    x = leaf(1.0, 2.0)
    Two.apply(x, x).sum().backward()
    assert x.grad.tolist() == [11.0, 11.0]


def test_chained_custom_functions_and_builtin_ops_compose():
    x = leaf(1.0, 2.0, 3.0)
    y = Pow.apply(NewStyle.apply(x) + 1, 2)  # (2x + 1)^2 -> 4 (2x + 1)
    y.sum().backward()
    assert x.grad.tolist() == [12.0, 20.0, 28.0]


def test_create_graph_through_a_custom_function_gives_second_derivative():
    class Cube(Function):
        @staticmethod
        def forward(x):
            return x**3

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * 3 * x**2

    x = leaf(1.0, 2.0, 3.0)
    (g,) = torch.autograd.grad(Cube.apply(x).sum(), x, create_graph=True)
    assert g.tolist() == [3.0, 12.0, 27.0]
    assert g.requires_grad
    (gg,) = torch.autograd.grad(g.sum(), x)
    assert gg.tolist() == [6.0, 12.0, 18.0]


def test_grad_fn_held_after_the_output_is_dropped_keeps_its_node():
    class Keep(Function):
        @staticmethod
        def forward(x):
            return x.exp()

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0], output)

        @staticmethod
        def backward(ctx, g):
            x, y = ctx.saved_tensors
            return g * y

    gc.collect()
    gc.disable()
    try:
        x = leaf(0.0, 1.0)
        fn = Keep.apply(x).grad_fn
        ((acc, nr),) = fn.next_functions
        assert acc.variable is x and nr == 0
        saved_x, saved_y = fn.saved_tensors
        assert saved_x is x and saved_y.grad_fn is fn
        saved_y.sum().backward()
        assert x.grad.tolist() == pytest.approx([1.0, 2.718281828])
        ref = weakref.ref(fn)
        del fn, saved_y, acc
        assert ref() is None
    finally:
        gc.enable()


def test_saved_output_supports_double_backward():
    class Exp(Function):
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

    x = leaf(0.0, 1.0)
    (g,) = torch.autograd.grad(Exp.apply(x).sum(), x, create_graph=True)
    assert g.grad_fn is not None
    (gg,) = torch.autograd.grad(g.sum(), x)
    assert gg.tolist() == pytest.approx([1.0, 2.718281828])


def test_needs_input_grad_is_not_narrowed_by_grad_inputs():
    seen = []

    class Two(Function):
        @staticmethod
        def forward(ctx, a, b):
            return a * b

        @staticmethod
        def backward(ctx, g):
            seen.append(ctx.needs_input_grad)
            return g, g

    a, b = leaf(1.0), leaf(2.0)
    torch.autograd.grad(Two.apply(a, b).sum(), a)
    assert seen == [(True, True)]


def test_node_apply_runs_backward_and_node_is_not_callable():
    y = Pow.apply(leaf(2.0), 2)
    (g, none) = y.grad_fn.apply(torch.ones(1))
    assert g.tolist() == [4.0] and none is None
    with pytest.raises(TypeError, match=exact("'PowBackward' object is not callable")):
        y.grad_fn(torch.ones(1))
