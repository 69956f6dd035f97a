"""``Tensor.data`` and the version counter as in PyTorch: ``x.data`` shares x's memory but has a
fresh version counter of its own (writes through it go unnoticed by autograd, and it is not a
view), and ``x.data = y`` keeps x's own counter rather than taking y's."""

import engine as torch
import pytest


def test_data_has_a_fresh_counter():
    x = torch.ones(3, requires_grad=True)
    with torch.no_grad():
        x.mul_(2)
    assert x._version == 1
    d = x.data
    assert d._version == 0
    assert not d.requires_grad and d.is_leaf and d.grad_fn is None
    d.add_(1)
    assert d._version == 1 and x._version == 1
    assert x.tolist() == [3.0, 3.0, 3.0]  # the memory is shared


def test_data_is_not_a_view():
    base = torch.ones(4, requires_grad=True)
    v = base[:2]
    d = v.data
    assert not d._is_view() and d._base is None


def test_views_of_data_share_its_counter():
    d = torch.ones(4, requires_grad=True).data
    v = d[:2]
    v.add_(1)
    assert d._version == 1 and v._version == 1
    e = d.detach()
    e.add_(1)
    assert d._version == 2


def test_writing_through_data_does_not_invalidate_saved_tensors():
    a = torch.ones(3, requires_grad=True)
    b = a * 1
    c = b * b
    b.data.add_(1)  # unnoticed, as PyTorch's .data is meant to be
    c.sum().backward()
    assert a.grad.tolist() == [4.0, 4.0, 4.0]


def test_writing_through_detach_is_noticed():
    a = torch.ones(3, requires_grad=True)
    b = a * 1
    c = b * b
    b.detach().add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        c.sum().backward()


def test_setting_data_keeps_the_own_counter():
    x = torch.ones(3, requires_grad=True)
    with torch.no_grad():
        x.mul_(2)
    y = torch.zeros(3)
    for _ in range(3):
        y.add_(1)
    assert (x._version, y._version) == (1, 3)
    x.data = y
    assert (x._version, y._version) == (1, 3)
    y.add_(1)
    assert (x._version, y._version) == (1, 4)
    with torch.no_grad():
        x.add_(1)
    assert (x._version, y._version) == (2, 4)
    assert x.tolist() == [5.0, 5.0, 5.0]  # x took y's memory


def test_setting_data_takes_shape_and_dtype():
    x = torch.ones(3, requires_grad=True)
    x.data = torch.ones(2, 2, dtype=torch.float64)
    assert x.shape == (2, 2) and x.dtype == torch.float64 and x.requires_grad


def test_matches_torch():
    real = pytest.importorskip("torch")

    def story(lib):
        x = lib.ones(3, requires_grad=True)
        with lib.no_grad():
            x.mul_(2)
        d = x.data
        d.add_(1)
        y = lib.zeros(3)
        y.add_(1)
        y.add_(1)
        x.data = y
        y.add_(1)
        with lib.no_grad():
            x.add_(1)
        return [x._version, d._version, y._version, d._is_view(), x.tolist()]

    assert story(torch) == story(real)
