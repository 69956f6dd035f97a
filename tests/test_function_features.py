"""The rest of the custom-Function contract and the autograd features around it: mark_dirty,
mark_non_differentiable, set_materialize_grads, once_differentiable, multiple outputs, views,
hooks, saved_tensors_hooks, anomaly mode, gradcheck, inference_mode, and where engine does better
than PyTorch (tensors kept as ctx attributes, double backward through forward-computed values).

Expected values and messages are PyTorch 2.13's unless a test says otherwise.
"""

import gc
import re
import threading
import warnings
import weakref

import engine as torch
import pytest
from engine.autograd import Function
from engine.autograd.function import once_differentiable


def leaf(*values, dtype=None):
    return torch.tensor(list(values), dtype=dtype, requires_grad=True)


def exact(msg):
    return "^" + re.escape(msg) + "$"


@pytest.fixture
def no_gc():
    gc.collect()
    gc.disable()
    yield
    gc.enable()


# ---- mark_dirty ---------------------------------------------------------------------------------


class AddOneInPlace(Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, g):
        return g * 3  # a recognisable factor: the custom backward is used


class AddOneInPlaceNew(Function):
    @staticmethod
    def forward(x):
        x.add_(1)
        return x

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.mark_dirty(inputs[0])

    @staticmethod
    def backward(ctx, g):
        return g * 3


@pytest.mark.parametrize("fn", [AddOneInPlace, AddOneInPlaceNew])
def test_mark_dirty_returns_the_input_with_its_history_rebased(fn):
    x = leaf(1.0, 2.0)
    a = x * 1
    version = a._version
    b = fn.apply(a)
    assert b is a
    assert type(a.grad_fn).__name__ == fn.__name__ + "Backward"
    assert a.tolist() == [2.0, 3.0]
    assert a._version == version + 2  # the add_, then mark_dirty
    b.sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]


@pytest.mark.parametrize("fn", [AddOneInPlace, AddOneInPlaceNew])
def test_mark_dirty_on_a_leaf_that_requires_grad_is_an_error(fn):
    x = leaf(1.0)
    with pytest.raises(
        RuntimeError,
        match=exact("a leaf Variable that requires grad has been used in an in-place operation."),
    ):
        fn.apply(x)


def test_mark_dirty_of_a_tensor_not_returned_is_an_error():
    class NotReturned(Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x.clone()

        @staticmethod
        def backward(ctx, g):
            return g

    with pytest.raises(
        RuntimeError,
        match=exact(
            "Some elements marked as dirty during the forward method were not returned as output. "
            "The inputs "
            "that are modified inplace must all be outputs of the Function."
        ),
    ):
        NotReturned.apply(leaf(1.0) * 1)


# ---- mark_non_differentiable and set_materialize_grads ------------------------------------------


def make_sort_like(materialize):
    seen = []

    class ValuesAndMask(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(materialize)
            mask = x > 1
            ctx.mark_non_differentiable(mask)
            return x * 2, mask

        @staticmethod
        def backward(ctx, g, g_mask):
            seen.append((g, g_mask))
            return g * 2

    return ValuesAndMask, seen


def test_non_differentiable_output_does_not_require_grad_and_gets_zeros():
    fn, seen = make_sort_like(True)
    x = leaf(1.0, 2.0)
    y, mask = fn.apply(x)
    assert y.requires_grad and not mask.requires_grad and mask.grad_fn is None
    y.sum().backward()
    g, g_mask = seen[0]
    assert g.tolist() == [1.0, 1.0]
    assert g_mask.tolist() == [0.0, 0.0]
    assert x.grad.tolist() == [2.0, 2.0]


def test_non_differentiable_output_gets_none_without_materialization():
    fn, seen = make_sort_like(False)
    x = leaf(1.0, 2.0)
    y, _ = fn.apply(x)
    y.sum().backward()
    assert seen[0][1] is None
    assert x.grad.tolist() == [2.0, 2.0]


def test_set_materialize_grads_false_passes_none_for_unused_outputs():
    seen = []

    class Two(Function):
        @staticmethod
        def forward(x):
            return x * 2, x * 3

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.set_materialize_grads(False)

        @staticmethod
        def backward(ctx, ga, gb):
            seen.append((ga, gb))
            return ga * 2 if gb is None else ga * 2 + gb * 3

    x = leaf(1.0)
    a, b = Two.apply(x)
    assert (a.output_nr, b.output_nr) == (0, 1)
    assert a.grad_fn is b.grad_fn
    a.sum().backward()
    assert seen[0][0].tolist() == [1.0] and seen[0][1] is None
    assert x.grad.tolist() == [2.0]
    (a + b).sum().backward()
    assert x.grad.tolist() == [7.0]


# ---- saved tensors through grad_fn, once_differentiable -----------------------------------------


class Cube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 3 * x**2


class CubeNew(Function):
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


@pytest.mark.parametrize("fn", [Cube, CubeNew])
def test_saved_tensors_readable_through_grad_fn(fn):
    x = leaf(1.0, 2.0)
    y = fn.apply(x)
    (s,) = y.grad_fn.saved_tensors
    assert s is x


@pytest.mark.parametrize("fn", [Cube, CubeNew])
def test_double_backward_through_a_custom_function(fn):
    x = leaf(1.0, 2.0, 3.0)
    (g,) = torch.autograd.grad(fn.apply(x).sum(), x, create_graph=True)
    assert g.tolist() == [3.0, 12.0, 27.0]
    assert g.grad_fn is not None
    (gg,) = torch.autograd.grad(g.sum(), x)
    assert gg.tolist() == [6.0, 12.0, 18.0]


def test_double_backward_through_builtin_ops():
    x = leaf(1.0, 2.0)
    (g,) = torch.autograd.grad((x * x * x).sum(), x, create_graph=True)
    (gg,) = torch.autograd.grad(g.sum(), x)
    assert gg.tolist() == [6.0, 12.0]


class CubeOnce(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    @once_differentiable
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        assert not torch.is_grad_enabled()
        return g * 3 * x**2


def test_once_differentiable_first_derivative_is_correct():
    x = leaf(1.0, 2.0)
    CubeOnce.apply(x).sum().backward()
    assert x.grad.tolist() == [3.0, 12.0]


def test_once_differentiable_result_raises_when_differentiated():
    x = leaf(1.0, 2.0)
    v = torch.ones(2, requires_grad=True)
    (g,) = torch.autograd.grad(CubeOnce.apply(x), x, v, create_graph=True)
    assert g.tolist() == [3.0, 12.0]
    assert "grad_fn=<Error>" in repr(g)
    with pytest.raises(
        RuntimeError,
        match=exact(
            "trying to differentiate twice a function that was marked with @once_differentiable"
        ),
    ):
        g.sum().backward()


def test_once_differentiable_without_grad_requiring_incoming_gives_no_graph():
    x = leaf(1.0)
    (g,) = torch.autograd.grad(CubeOnce.apply(x).sum(), x, create_graph=True)
    assert g.grad_fn is None
    with pytest.raises(
        RuntimeError,
        match=exact("element 0 of tensors does not require grad and does not have a grad_fn"),
    ):
        g.sum().backward()


# ---- outputs and inputs -------------------------------------------------------------------------


def test_view_of_an_input_returned_uses_the_custom_backward():
    class Head(Function):
        @staticmethod
        def forward(ctx, x):
            return x.view(3)

        @staticmethod
        def backward(ctx, g):
            return g * 5

    x = leaf(1.0, 2.0, 3.0)
    y = Head.apply(x)
    assert y._is_view() and y.grad_fn.name() == "HeadBackward"
    assert x.is_leaf and x.grad_fn is None
    y.sum().backward()
    assert x.grad.tolist() == [5.0, 5.0, 5.0]


def test_outputs_mixed_with_non_tensors_and_kwargs_and_defaults():
    class Scale(Function):
        @staticmethod
        def forward(x, k=2.0, *, unused=None):
            return x * k, "label", 7

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.k = inputs[1]

        @staticmethod
        def backward(ctx, g, g_label, g_int):
            assert g_label is None and g_int is None
            return g * ctx.k, None

    x = leaf(1.0)
    y, label, n = Scale.apply(x)
    assert (label, n) == ("label", 7)
    y.sum().backward()
    assert x.grad.tolist() == [2.0]
    y, _, _ = Scale.apply(x, k=4.0)
    y.sum().backward()
    assert x.grad.tolist() == [6.0]


# ---- hooks --------------------------------------------------------------------------------------


def test_tensor_hook_on_a_leaf_replaces_the_gradient_and_is_removable():
    x = leaf(1.0, 2.0)
    h = x.register_hook(lambda g: g * 100)
    (x * 2).sum().backward()
    assert x.grad.tolist() == [200.0, 200.0]
    h.remove()
    h.remove()  # a second remove does nothing
    x.grad = None
    (x * 2).sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]


@pytest.mark.parametrize(
    "make", [lambda x: x * 2, lambda x: Cube.apply(x)], ids=["builtin", "custom"]
)
def test_tensor_hook_on_a_non_leaf_sees_and_replaces_its_gradient(make):
    x = leaf(1.0)
    y = make(x)
    seen = []
    y.register_hook(lambda g: seen.append(g.tolist()))
    y.register_hook(lambda g: g * 10)
    (y * 3).sum().backward()
    assert seen == [[3.0]]
    assert x.grad.tolist() == [60.0 if y.grad_fn.name() == "MulBackward0" else 90.0]


def test_tensor_hook_on_one_output_of_a_multi_output_function():
    class Two(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, ga, gb):
            return ga * 2 + gb * 3

    x = leaf(1.0)
    a, b = Two.apply(x)
    b.register_hook(lambda g: g * 0)
    (a + b).sum().backward()
    assert x.grad.tolist() == [2.0]


def test_register_hook_without_requires_grad_is_an_error():
    with pytest.raises(
        RuntimeError,
        match=exact("cannot register a hook on a tensor that doesn't require gradient"),
    ):
        torch.ones(2).register_hook(lambda g: g)


def test_post_accumulate_grad_hook_runs_after_accumulation():
    x = leaf(1.0)
    seen = []
    h = x.register_post_accumulate_grad_hook(lambda t: seen.append((t is x, t.grad.tolist())))
    (x * 2).sum().backward()
    (x * 2).sum().backward()
    assert seen == [(True, [2.0]), (True, [4.0])]
    h.remove()
    (x * 2).sum().backward()
    assert len(seen) == 2


def test_post_accumulate_grad_hook_on_a_non_leaf_is_an_error():
    with pytest.raises(
        RuntimeError,
        match=exact("post accumulate grad hooks cannot be registered on non-leaf tensors"),
    ):
        (leaf(1.0) * 2).register_post_accumulate_grad_hook(lambda t: None)


@pytest.mark.parametrize(
    "make", [lambda x: x * 2, lambda x: Cube.apply(x)], ids=["builtin", "custom"]
)
def test_node_prehook_and_hook_fire_in_order_and_can_replace(make):
    x = leaf(1.0)
    y = make(x)
    order = []

    def pre(grad_outputs):
        order.append(("pre", grad_outputs[0].tolist()))
        return (grad_outputs[0] * 2,)

    def post(grad_inputs, grad_outputs):
        order.append(("post", grad_outputs[0].tolist()))
        return tuple(None if g is None else g * 0 + 1 for g in grad_inputs)

    h1 = y.grad_fn.register_prehook(pre)
    h2 = y.grad_fn.register_hook(post)
    y.sum().backward(retain_graph=True)
    assert order == [("pre", [1.0]), ("post", [2.0])]
    assert x.grad.tolist() == [1.0]
    h1.remove()
    h2.remove()
    x.grad = None
    y.sum().backward()
    assert x.grad.tolist() == [2.0 if y.grad_fn.name() == "MulBackward0" else 3.0]


def test_node_hooks_hold_no_python_reference_after_the_graph_is_dropped(no_gc):
    class Marker:
        def __call__(self, grad_outputs):
            return None

    marker = Marker()
    ref = weakref.ref(marker)
    y = Cube.apply(leaf(1.0))
    y.grad_fn.register_prehook(marker)
    del marker
    assert ref() is not None
    del y
    assert ref() is None


def test_grad_fn_introspection_on_custom_and_builtin_nodes():
    x = leaf(1.0)
    y = Cube.apply(x * 2)
    assert y.grad_fn.name() == "CubeBackward"
    ((mul, nr),) = y.grad_fn.next_functions
    assert mul.name() == "MulBackward0" and nr == 0
    assert mul.next_functions[0][0].name() == "torch::autograd::AccumulateGrad"
    assert mul.next_functions[0][0].variable is x


# ---- retain_graph
# ---------------------------------------------------------------------------------


def test_retain_graph_allows_a_second_backward_through_a_custom_function():
    x = leaf(2.0)
    y = Cube.apply(x)
    y.backward(retain_graph=True)
    y.backward()
    assert x.grad.tolist() == [24.0]


# ---- saved_tensors_hooks ------------------------------------------------------------------------


def test_saved_tensors_hooks_pack_and_unpack():
    events = []

    def pack(t):
        events.append("pack")
        return t.clone()

    def unpack(p):
        events.append("unpack")
        return p

    x = leaf(1.0, 2.0)
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = Cube.apply(x)
    assert events == ["pack"]
    with torch.no_grad():
        x.mul_(10)  # the packed copy is unaffected: no version error
    y.sum().backward()
    assert events == ["pack", "unpack"]
    assert x.grad.tolist() == [3.0, 12.0]


def test_saved_tensors_hooks_are_scoped():
    x = leaf(1.0)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: 1 / 0, lambda p: p):
        pass
    Cube.apply(x).sum().backward()
    assert x.grad.tolist() == [3.0]


# ---- anomaly mode -------------------------------------------------------------------------------


class NaNGrad(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * float("nan")


def test_detect_anomaly_warns_on_entry_and_reports_nan_with_the_forward_traceback():
    x = leaf(1.0)
    with pytest.warns(UserWarning, match="Anomaly Detection has been enabled"):
        mode = torch.autograd.detect_anomaly()
    with mode:
        assert torch.is_anomaly_enabled()
        y = NaNGrad.apply(x)  # the forward call recorded in the warning
        assert "traceback_" in y.grad_fn.metadata
        with pytest.warns(
            UserWarning, match="Error detected in NaNGradBackward. Traceback of forward call"
        ):
            with pytest.raises(
                RuntimeError,
                match=exact("Function 'NaNGradBackward' returned nan values in its 0th output."),
            ):
                y.backward()
    assert not torch.is_anomaly_enabled()


def test_anomaly_mode_attaches_the_traceback_to_errors_raised_in_backward():
    class Boom(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            raise ValueError("boom in backward")

    with torch.autograd.set_detect_anomaly(True):
        y = Boom.apply(leaf(1.0))
        with pytest.warns(UserWarning, match="test_function_features.py") as record:
            with pytest.raises(ValueError, match=exact("boom in backward")):
                y.backward()
    assert "Error detected in BoomBackward" in str(record[0].message)


def test_set_detect_anomaly_check_nan_false_lets_nan_through():
    with torch.autograd.set_detect_anomaly(True, check_nan=False):
        x = leaf(1.0)
        NaNGrad.apply(x).backward()
    (g,) = x.grad.tolist()
    assert g != g  # NaN
    assert not torch.is_anomaly_enabled()


# ---- gradcheck ----------------------------------------------------------------------------------


def test_gradcheck_and_gradgradcheck_pass_for_a_correct_function():
    x = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(Cube.apply, (x,))
    assert torch.autograd.gradgradcheck(Cube.apply, (x,))


def test_gradcheck_reports_output_input_and_worst_element():
    class Wrong(Function):
        @staticmethod
        def forward(ctx, x, w):
            return x * w

        @staticmethod
        def backward(ctx, g):
            return g, g * 0

    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    w = torch.tensor([3.0, 3.0], dtype=torch.float64, requires_grad=True)
    with pytest.raises(
        torch.autograd.GradcheckError,
        match="Jacobian mismatch for output 0 with respect to input 0",
    ) as e:
        torch.autograd.gradcheck(Wrong.apply, (x, w))
    assert "largest difference is at input element" in str(e.value)
    assert torch.autograd.gradcheck(Wrong.apply, (x, w), raise_exception=False) is False


# ---- inference_mode -----------------------------------------------------------------------------


def test_inference_mode_records_nothing():
    x = leaf(1.0)
    with torch.inference_mode():
        assert torch.is_inference_mode_enabled() and not torch.is_grad_enabled()
        y = Cube.apply(x)
    assert y.grad_fn is None and not y.requires_grad
    assert not torch.is_inference_mode_enabled() and torch.is_grad_enabled()
    with torch.inference_mode(False):
        assert torch.is_grad_enabled() and not torch.is_inference_mode_enabled()


# ---- better than PyTorch: tensors kept as ctx attributes ----------------------------------------


class KeepsOutput(Function):
    @staticmethod
    def forward(ctx, x):
        out = x * 2
        ctx.out = out  # PyTorch: a reference cycle output -> grad_fn -> ctx -> output
        ctx.x = x
        ctx.scale = 2.0
        return out

    @staticmethod
    def backward(ctx, g):
        assert ctx.out.tolist() == (ctx.x * 2).tolist()
        return g * ctx.scale


class KeepsOutputNew(Function):
    @staticmethod
    def forward(x):
        return x * 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.out = output
        ctx.x = inputs[0]
        ctx.scale = 2.0

    @staticmethod
    def backward(ctx, g):
        assert ctx.out.tolist() == (ctx.x * 2).tolist()
        return g * ctx.scale


@pytest.mark.parametrize("fn", [KeepsOutput, KeepsOutputNew])
def test_output_kept_as_ctx_attribute_is_freed_by_refcount(fn, no_gc):
    x = leaf(1.0, 2.0)
    y = fn.apply(x)
    refs = [weakref.ref(y), weakref.ref(y.grad_fn)]
    assert y.grad_fn.out.grad_fn is y.grad_fn  # the stored output still leads to its node
    assert y.grad_fn.x is x
    del y
    assert [r() for r in refs] == [None, None]


@pytest.mark.parametrize("fn", [KeepsOutput, KeepsOutputNew])
def test_ctx_attributes_readable_in_and_after_backward(fn, no_gc):
    x = leaf(1.0, 2.0)
    y = fn.apply(x)
    ctx_ref = weakref.ref(y.grad_fn)
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]
    assert y.grad_fn.out.tolist() == [2.0, 4.0]  # attributes outlive backward, as in PyTorch
    del y
    assert ctx_ref() is None


def test_ctx_attributes_can_be_replaced_and_deleted():
    y = KeepsOutput.apply(leaf(1.0))
    ctx = y.grad_fn
    ctx.out = "replaced"
    assert ctx.out == "replaced"
    del ctx.out
    with pytest.raises(AttributeError):
        ctx.out  # noqa: B018
    other = KeepsOutput.apply(leaf(3.0)).grad_fn
    assert other.out.tolist() == [6.0]  # per instance


def test_loop_with_output_as_ctx_attribute_keeps_memory_flat(no_gc):
    refs = []
    for _ in range(50):
        y = KeepsOutput.apply(torch.ones(1000, requires_grad=True))
        refs.append(weakref.ref(y.grad_fn))
        y.sum().backward()
    del y
    assert all(r() is None for r in refs)


@pytest.mark.parametrize("fn", [KeepsOutput, KeepsOutputNew])
def test_ctx_attribute_modified_in_place_is_detected_on_read(fn):
    x = leaf(1.0, 2.0, 3.0)
    y = fn.apply(x)
    with torch.no_grad():
        x.mul_(10)  # PyTorch silently computes a wrong gradient here
    with pytest.raises(
        RuntimeError,
        match=exact(
            "one of the variables needed for gradient computation has been modified by an inplace "
            "operation: "
            "[torch.FloatTensor [3]] is at version 1; expected version 0 instead. Hint: enable "
            "anomaly detection to "
            "find the operation that failed to compute its gradient, with "
            "torch.autograd.set_detect_anomaly(True, "
            "check_nan=False)."
        ),
    ):
        y.sum().backward()


def test_deep_chain_with_outputs_kept_as_ctx_attributes_is_freed_without_recursion(no_gc):
    x = leaf(1.0)
    y = x
    first = None
    for i in range(100_000):
        y = KeepsOutput.apply(y)
        if i == 0:
            first = weakref.ref(y.grad_fn)
    y.sum().backward()
    assert x.grad.tolist() == [float("inf")]  # 2**100000 overflows
    del y
    assert first() is None


# ---- better than PyTorch: double backward through values computed in forward -------------------


class CubeFromIntermediate(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.x2 = x * x  # computed under no_grad: carries no graph
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx, g):
        return g * 3 * ctx.x2


class CubeSavedIntermediate(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x * x)
        return x**3

    @staticmethod
    def backward(ctx, g):
        (x2,) = ctx.saved_tensors
        return g * 3 * x2


@pytest.mark.parametrize(
    "fn, what", [(CubeFromIntermediate, "ctx.x2"), (CubeSavedIntermediate, "saved tensor 0")]
)
def test_double_backward_through_a_forward_value_raises_naming_the_function(fn, what):
    x = leaf(1.0, 2.0)
    # Squared, so the incoming gradient 2 y carries a graph and the second derivative is real.
    (g,) = torch.autograd.grad((fn.apply(x) ** 2).sum(), x, create_graph=True)
    assert g.tolist() == [6.0, 192.0] and g.requires_grad  # the first derivative is right
    with pytest.raises(
        RuntimeError,
        match=f"^function {fn.__name__}Backward used {what}, a tensor computed in forward",
    ):
        torch.autograd.grad(g.sum(), x)


def test_first_backward_through_a_forward_value_is_unaffected():
    x = leaf(1.0, 2.0)
    CubeFromIntermediate.apply(x).sum().backward()
    assert x.grad.tolist() == [3.0, 12.0]


# ---- threads ------------------------------------------------------------------------------------


def test_threads_with_hooks_and_ctx_attributes_give_correct_results():
    errors, results = [], {}

    def work(k):
        try:
            for _ in range(200):
                x = torch.tensor([1.0, 2.0]) * k
                x.requires_grad_()
                y = KeepsOutput.apply(Cube.apply(x))
                y.register_hook(lambda g: g * 1)
                y.sum().backward()  # 2 * 3x^2
                results.setdefault(k, set()).add(tuple(x.grad.tolist()))
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in (1.0, 2.0)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert results == {1.0: {(6.0, 24.0)}, 2.0: {(24.0, 96.0)}}


def test_no_warnings_from_a_plain_apply():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Cube.apply(leaf(1.0)).sum().backward()


# ---- class structure: the remaining rows of PyTorch's table -------------------------------------


def test_instantiating_a_function_warns_and_calling_an_instance_raises():
    with pytest.warns(DeprecationWarning, match="should not be instantiated"):
        f = Cube()
    with pytest.raises(
        RuntimeError, match="^Legacy autograd function with non-static forward method is deprecated"
    ):
        f(leaf(1.0))


def test_missing_forward_raises_not_implemented():
    class NoForward(Function):
        @staticmethod
        def backward(ctx, g):
            return g

    with pytest.raises(
        NotImplementedError,
        match=exact("You must implement the forward function for custom autograd.Function."),
    ):
        NoForward.apply(leaf(1.0))


def test_vjp_alone_works_and_both_backward_and_vjp_is_an_error():
    class OnlyVjp(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def vjp(ctx, g):
            return g * 2

    class Both(OnlyVjp):
        @staticmethod
        def backward(ctx, g):
            return g

    x = leaf(1.0)
    OnlyVjp.apply(x).backward()
    assert x.grad.tolist() == [2.0]
    with pytest.raises(
        RuntimeError,
        match=exact(
            "Implementing both 'backward' and 'vjp' for a custom Function is not allowed. "
            "You should only implement one of them."
        ),
    ):
        Both.apply(x).backward()


def test_non_static_methods_bind_self_to_the_ctx():
    class NonStatic(Function):
        def forward(self, x):
            self.k = 3.0
            return x * 3

        def backward(self, g):
            return g * self.k

    x = leaf(1.0)
    NonStatic.apply(x).backward()
    assert x.grad.tolist() == [3.0]


def test_calling_forward_directly_records_no_custom_node():
    class Plain(Function):
        @staticmethod
        def forward(x):
            return x * 2

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        def backward(ctx, g):
            return g

    y = Plain.forward(leaf(1.0))
    assert y.grad_fn.name() == "MulBackward0"


def test_grad_fn_forward_cls_and_metadata():
    y = Cube.apply(leaf(1.0))
    assert y.grad_fn._forward_cls is Cube
    assert y.grad_fn.metadata == {}


def test_retain_grad_on_a_custom_output():
    x = leaf(1.0, 2.0)
    y = Cube.apply(x)
    y.retain_grad()
    (y * 2).sum().backward()
    assert y.grad.tolist() == [2.0, 2.0]


def test_backward_with_create_graph_warns_about_the_cycle():
    x = leaf(1.0)
    with pytest.warns(
        UserWarning, match="^Using backward\\(\\) with create_graph=True will create a"
    ):
        Cube.apply(x).backward(create_graph=True)
    assert x.grad.tolist() == [3.0]


def test_same_tensor_returned_twice_is_the_same_object():
    class Twice(Function):
        @staticmethod
        def forward(ctx, x):
            y = x * 2
            return y, y

        @staticmethod
        def backward(ctx, ga, gb):
            return ga + gb * 10

    x = leaf(1.0)
    a, b = Twice.apply(x)
    assert a is b and b.output_nr == 1
    a.sum().backward()
    assert x.grad.tolist() == [10.0]  # only the last slot receives the gradient


def test_list_output_and_tensors_nested_in_arguments_are_not_tracked():
    class ListOut(Function):
        @staticmethod
        def forward(ctx, xs):
            return [xs[0] * 2]

        @staticmethod
        def backward(ctx, g):
            return None

    (y,) = ListOut.apply([leaf(1.0)])
    assert y.grad_fn is None and not y.requires_grad


def test_no_grad_inside_enable_grad_builds_a_node():
    x = leaf(1.0)
    with torch.no_grad():
        with torch.enable_grad():
            y = Cube.apply(x)
    assert y.requires_grad and y.grad_fn.name() == "CubeBackward"


def test_mark_dirty_of_a_non_input_warns():
    class DirtyOther(Function):
        @staticmethod
        def forward(ctx, x):
            y = x * 2
            ctx.mark_dirty(y)
            return y

        @staticmethod
        def backward(ctx, g):
            return g * 2

    with pytest.warns(
        UserWarning,
        match=exact(
            "ctx.mark_dirty() received a tensor that was not an input. Only input Tensors that "
            "have been mutated should be passed to ctx.mark_dirty()."
        ),
    ):
        y = DirtyOther.apply(leaf(1.0))
    y.backward()


def test_saving_an_input_returned_as_is_with_setup_context_is_an_error():
    class Identity(Function):
        @staticmethod
        def forward(x):
            return x

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])

        @staticmethod
        def backward(ctx, g):
            return g

    with pytest.raises(
        RuntimeError, match="^An input that has been returned as-is as output is being saved"
    ):
        Identity.apply(leaf(1.0))


def test_leaf_hook_applies_to_autograd_grad_too():
    x = leaf(1.0)
    x.register_hook(lambda g: g * 100)
    (g,) = torch.autograd.grad(Cube.apply(x).sum(), x)
    assert g.tolist() == [300.0]
    assert x.grad is None


def test_gradcheck_numbers_inputs_among_those_that_require_grad():
    class WrongW(Function):
        @staticmethod
        def forward(ctx, x, w):
            return x * w

        @staticmethod
        def backward(ctx, g):
            return None, g * 0

    x = torch.tensor([1.0, 2.0], dtype=torch.float64)
    w = torch.tensor([3.0, 3.0], dtype=torch.float64, requires_grad=True)
    with pytest.raises(
        torch.autograd.GradcheckError,
        match="^Jacobian mismatch for output 0 with respect to input 0,\nnumerical:",
    ) as e:
        torch.autograd.gradcheck(WrongW.apply, (x, w))
    assert "input element 1, output element 1: numerical 2.0" in str(e.value)
