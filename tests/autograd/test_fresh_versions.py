"""Fresh results start at version 0, as in PyTorch: the random factories fill their tensor below
autograd, so only in-place writes users make count. torch.autograd._unsafe_preserve_version_counter
and torch._C._autograd._unsafe_set_version_counter hide in-place writes on purpose."""

import re

import engine as torch
import pytest

FRESH = {
    "rand": lambda: torch.rand(3),
    "randn": lambda: torch.randn(2, 2),
    "randint": lambda: torch.randint(0, 5, (3,)),
    "randint_float": lambda: torch.randint(5, (3,), dtype=torch.float32),
    "rand_like": lambda: torch.rand_like(torch.zeros(2)),
    "randn_like": lambda: torch.randn_like(torch.zeros(2)),
    "randint_like": lambda: torch.randint_like(torch.zeros(2), 3),
    "rand_generator": lambda: torch.rand(2, generator=torch.Generator().manual_seed(0)),
    "normal_size": lambda: torch.normal(0.0, 1.0, (3,)),
    "eye": lambda: torch.eye(3),
    "zeros": lambda: torch.zeros(2),
}


@pytest.mark.parametrize("make", FRESH.values(), ids=FRESH.keys())
def test_fresh_result_has_version_zero(make):
    assert make()._version == 0


def test_requires_grad_factories_are_fresh_leaves():
    x = torch.rand(3, requires_grad=True)
    assert x._version == 0 and x.is_leaf


@pytest.mark.parametrize("fill", ["uniform_", "normal_", "exponential_"])
def test_user_in_place_fills_still_count(fill):
    t = torch.zeros(2)
    getattr(t, fill)()
    assert t._version == 1


def test_random_result_saved_then_written_is_caught():
    w = torch.randn(3)
    x = torch.ones(3, requires_grad=True)
    y = x * w  # saves w at version 0
    w.mul_(2)
    with pytest.raises(RuntimeError, match="is at version 1; expected version 0 instead"):
        y.sum().backward()


def test_preserve_version_counter_hides_writes():
    x = torch.ones(2, requires_grad=True).clone()
    x.add_(1)
    x.add_(2)
    with torch.autograd._unsafe_preserve_version_counter(x):
        x.mul_(2)
        x.mul_(3)
    assert x._version == 2
    y = torch.ones(2, requires_grad=True).clone()
    with torch.autograd._unsafe_preserve_version_counter((x, y)):
        x.mul_(2)
        y.mul_(3)
    assert (x._version, y._version) == (2, 0)


def test_set_version_counter_checks_its_arguments():
    x = torch.ones(2)
    v = x[:1]
    torch._C._autograd._unsafe_set_version_counter((x,), (5,))
    assert x._version == 5 and v._version == 5  # views share the counter
    with pytest.raises(
        RuntimeError, match=re.escape("Cannot set a version_counter to a value below 0: -1")
    ):
        torch._C._autograd._unsafe_set_version_counter((x,), (-1,))
    with pytest.raises(RuntimeError, match="tensors_len=1, versions_len=2"):
        torch._C._autograd._unsafe_set_version_counter((x,), (1, 2))
    with pytest.raises(TypeError):
        torch._C._autograd._unsafe_set_version_counter(x, 1)
