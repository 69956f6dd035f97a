"""`x.data = y` keeps x's version counter, and the views x had before keep sharing it with x, as
in PyTorch: an in-place write through either side moves both, while y keeps a counter of its own.
The old memory is not kept alive by x for its counter's sake."""

import engine as torch


def test_views_made_before_keep_sharing_the_counter():
    x = torch.randn(1, 2)
    x.add_(1).add_(1)
    xz = x[:]
    assert x._version == xz._version == 2
    x.data = torch.randn(2, 3)
    assert x._version == 2
    x.add_(1)
    assert x._version == xz._version == 3
    xz.add_(1)
    assert x._version == xz._version == 4
    later = x[:1]
    later.add_(1)
    assert x._version == xz._version == later._version == 5


def test_the_new_memory_keeps_its_own_counter():
    x = torch.zeros(3)
    y = torch.ones(3)
    y.add_(1)
    x.data = y
    assert (x._version, y._version) == (0, 1)
    x.add_(1)
    assert (x._version, y._version) == (1, 1)
    assert x.tolist() == y.tolist() == [3.0, 3.0, 3.0]  # same memory


def test_saved_view_of_old_memory_sees_writes_through_x():
    w = torch.ones(3, requires_grad=True)
    x = torch.ones(3)
    xv = x[:]
    out = w * xv  # saves xv at version 0
    x.data = torch.zeros(3)
    x.add_(1)  # the shared counter moves
    try:
        out.sum().backward()
    except RuntimeError as e:
        assert "modified by an inplace operation" in str(e)
    else:
        raise AssertionError("the in-place write went unnoticed")
