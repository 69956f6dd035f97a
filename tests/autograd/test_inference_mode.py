"""Inference mode: inference tensors, their restrictions outside the mode, nesting, and the mode
flag. Expected messages are PyTorch 2.13's."""

import engine as torch
import pytest

INPLACE_OUTSIDE = "Inplace update to inference tensor outside InferenceMode is not allowed"
SAVE_FOR_BACKWARD = "Inference tensors cannot be saved for backward."
VIEW_IN_INFERENCE = (
    "A view was created in inference mode and is being modified inplace in normal mode."
)


def test_flag_and_grad_mode_inside():
    assert not torch.is_inference_mode_enabled()
    with torch.inference_mode():
        assert torch.is_inference_mode_enabled()
        assert not torch.is_grad_enabled()
        with torch.inference_mode(False):
            assert not torch.is_inference_mode_enabled()
            assert torch.is_grad_enabled()
        assert torch.is_inference_mode_enabled()
    assert not torch.is_inference_mode_enabled()
    assert torch.is_grad_enabled()


def test_inference_mode_false_turns_grad_on_as_in_pytorch():
    with torch.no_grad():
        with torch.inference_mode(False):
            assert torch.is_grad_enabled()
        assert not torch.is_grad_enabled()


def test_tensors_made_inside_are_inference_tensors():
    normal = torch.ones(2)
    with torch.inference_mode():
        t = torch.ones(2)
        u = normal * 2
        view = normal[:1]
        with torch.inference_mode(False):
            plain = torch.ones(1)
    assert t.is_inference() and torch.is_inference(t)
    assert u.is_inference()
    assert not view.is_inference()
    assert not plain.is_inference()
    assert not normal.is_inference()
    assert (t[:1]).is_inference() and t.detach().is_inference()
    # Out of place results outside the mode are normal tensors.
    assert not (t * 2).is_inference()


def test_inference_tensor_has_no_history_and_no_version():
    x = torch.ones(2, requires_grad=True)
    with torch.inference_mode():
        y = x * 2
    assert not y.requires_grad and y.grad_fn is None
    with pytest.raises(RuntimeError, match="Inference tensors do not track version counter."):
        _ = y._version


def test_inplace_on_inference_tensor_outside_the_mode_is_refused():
    with torch.inference_mode():
        t = torch.ones(2)
        t.add_(1)  # allowed inside
    with pytest.raises(RuntimeError, match=INPLACE_OUTSIDE):
        t.add_(1)
    with torch.no_grad(), pytest.raises(RuntimeError, match=INPLACE_OUTSIDE):
        t.mul_(2)
    assert t.tolist() == [2.0, 2.0]


def test_inference_tensor_cannot_require_grad_outside():
    with torch.inference_mode():
        t = torch.ones(2)
    with pytest.raises(
        RuntimeError,
        match="Setting requires_grad=True on inference tensor outside InferenceMode is not allowed.",
    ):
        t.requires_grad_()


def test_inference_tensor_cannot_be_saved_for_backward():
    with torch.inference_mode():
        t = torch.ones(2)
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=SAVE_FOR_BACKWARD):
        x * t
    # Not saved (the rule of add needs no inputs): allowed.
    y = x + t
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]
    # A clone is a normal tensor.
    (x * t.clone()).sum().backward()


def test_view_created_in_inference_mode_of_a_tensor_requiring_grad():
    base = torch.ones(3, requires_grad=True).clone()
    with torch.inference_mode():
        v = base[:2]
    with pytest.raises(RuntimeError, match=VIEW_IN_INFERENCE):
        v.add_(1)


def test_view_created_in_inference_mode_of_a_plain_tensor_may_be_written():
    base = torch.ones(3)
    with torch.inference_mode():
        v = base[:2]
    v.add_(1)
    assert base.tolist() == [2.0, 2.0, 1.0]


def test_decorator_forms():
    @torch.inference_mode()
    def f():
        return torch.is_inference_mode_enabled()

    @torch.inference_mode
    def g():
        return torch.ones(1).is_inference()

    @torch.inference_mode(False)
    def h():
        return torch.is_inference_mode_enabled()

    assert f() and g()
    with torch.inference_mode():
        assert not h()


def test_grad_mode_decorators_on_generators_restore_the_mode_around_yield():
    @torch.no_grad()
    def gen():
        for _ in range(2):
            yield torch.is_grad_enabled()

    it = gen()
    assert next(it) is False
    assert torch.is_grad_enabled()  # restored while the generator is suspended
    assert next(it) is False

    @torch.inference_mode()
    def inf_gen():
        yield torch.is_inference_mode_enabled()

    assert list(inf_gen()) == [True]
    assert not torch.is_inference_mode_enabled()


def test_bare_decorators_and_direct_call():
    @torch.no_grad
    def f():
        return torch.is_grad_enabled()

    @torch.enable_grad
    def g():
        return torch.is_grad_enabled()

    assert f() is False
    with torch.no_grad():
        assert g() is True
    assert torch.no_grad(lambda: torch.is_grad_enabled())() is False


def test_decorating_a_class_warns():
    with pytest.warns(FutureWarning, match="Decorating classes is deprecated"):

        @torch.no_grad()
        class Made:
            def __init__(self):
                self.grad = torch.is_grad_enabled()

    assert Made().grad is False
