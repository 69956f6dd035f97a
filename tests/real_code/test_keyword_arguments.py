"""Keyword spellings real scripts use for common tensor operations (``x.unsqueeze(dim=0)``,
``torch.var_mean(w, dim=..., unbiased=False)`` as weight-standardised convolutions call it, ...).

Golden values recorded from PyTorch 2.13; with torch installed the same checks run on it too.
"""

from __future__ import annotations

import pytest

X = [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
XXT = [[5.0, 14.0], [14.0, 50.0]]

CASES = {
    "unsqueeze": (lambda lib, x: x.unsqueeze(dim=0), [X]),
    "torch.unsqueeze": (lambda lib, x: lib.unsqueeze(input=x, dim=1), [[r] for r in X]),
    "transpose": (lambda lib, x: x.transpose(dim0=0, dim1=1), [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]),
    "torch.transpose": (
        lambda lib, x: lib.transpose(input=x, dim0=1, dim1=0),
        [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]],
    ),
    "pow": (lambda lib, x: x.pow(exponent=2), [[0.0, 1.0, 4.0], [9.0, 16.0, 25.0]]),
    "mul": (lambda lib, x: x.mul(other=2), [[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]]),
    "mul_": (lambda lib, x: x.clone().mul_(other=2), [[0.0, 2.0, 4.0], [6.0, 8.0, 10.0]]),
    "div_": (lambda lib, x: x.clone().div_(other=2), [[0.0, 0.5, 1.0], [1.5, 2.0, 2.5]]),
    "matmul": (lambda lib, x: x.matmul(other=x.t()), XXT),
    "mm": (lambda lib, x: x.mm(mat2=x.t()), XXT),
    "torch.mm": (lambda lib, x: lib.mm(input=x, mat2=x.t()), XXT),
    "bmm": (lambda lib, x: x[None].bmm(mat2=x.t()[None]), [XXT]),
    "torch.bmm": (lambda lib, x: lib.bmm(input=x[None], mat2=x.t()[None]), [XXT]),
    "outer": (lambda lib, x: lib.outer(input=x[0, :2], vec2=x[1, :2]), [[0.0, 0.0], [3.0, 4.0]]),
    "Tensor.outer": (lambda lib, x: x[0, :2].outer(vec2=x[1, :2]), [[0.0, 0.0], [3.0, 4.0]]),
    "where": (
        lambda lib, x: x.where(condition=x > 2, other=0.0),
        [[0.0, 0.0, 0.0], [3.0, 4.0, 5.0]],
    ),
    "torch.where": (
        lambda lib, x: lib.where(condition=x > 1, input=x, other=lib.zeros(1)),
        [[0.0, 0.0, 2.0], [3.0, 4.0, 5.0]],
    ),
    "clamp_min": (lambda lib, x: x.clamp_min(min=2), [[2.0, 2.0, 2.0], [3.0, 4.0, 5.0]]),
    "clamp_max": (lambda lib, x: x.clamp_max(max=2), [[0.0, 1.0, 2.0], [2.0, 2.0, 2.0]]),
    "fill_": (lambda lib, x: x.clone().fill_(value=1), [[1.0] * 3] * 2),
    "torch.reshape": (lambda lib, x: lib.reshape(input=x, shape=(-1,)), sum(X, [])),
    "torch.permute": (
        lambda lib, x: lib.permute(input=x, dims=(1, 0)),
        [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]],
    ),
    "flip": (lambda lib, x: x.flip(dims=(0,)), [X[1], X[0]]),
    "torch.flip": (lambda lib, x: lib.flip(x, dims=[1]), [r[::-1] for r in X]),
    "split": (lambda lib, x: lib.stack(x.split(split_size=2, dim=1)[1:]), [[[2.0], [5.0]]]),
    "scatter value": (
        lambda lib, x: x.scatter(1, lib.tensor([[0], [1]]), value=9.0),
        [[9.0, 1.0, 2.0], [3.0, 9.0, 5.0]],
    ),
    "scatter_ value": (
        lambda lib, x: x.clone().scatter_(0, lib.tensor([[1, 0, 1]]), value=-1.0),
        [[0.0, -1.0, 2.0], [-1.0, 4.0, -1.0]],
    ),
    "torch.scatter src": (
        lambda lib, x: lib.scatter(x, 1, lib.tensor([[2], [0]]), src=-x),
        [[0.0, 1.0, -0.0], [-3.0, 4.0, 5.0]],
    ),
    "repeat": (lambda lib, x: x[:, :1].repeat(repeats=(1, 2)), [[0.0, 0.0], [3.0, 3.0]]),
    "type_as": (lambda lib, x: x.type_as(other=x.int()), [[0, 1, 2], [3, 4, 5]]),
}


def test_randint_by_name(lib):
    for call in (
        lambda: lib.randint(0, 10, size=(5,)),
        lambda: lib.randint(10, size=(5,)),
        lambda: lib.randint(low=0, high=10, size=(5,)),
        lambda: lib.randint(high=10, size=(5,)),
        lambda: lib.randint(3, high=10, size=(5,)),
    ):
        t = call()
        assert tuple(t.shape) == (5,) and str(t.dtype).endswith("int64")
        assert 0 <= t.min().item() and t.max().item() < 10
    lib.manual_seed(0)
    named = lib.randint(low=2, high=9, size=(6,), generator=None).tolist()
    lib.manual_seed(0)
    assert named == lib.randint(2, 9, (6,)).tolist()
    with pytest.raises(TypeError):
        lib.randint(size=(5,))


def test_flip_dims_given_twice_raises(lib):
    with pytest.raises(TypeError, match="multiple values for argument 'dims'"):
        lib.tensor(X).flip(0, dims=(1,))


@pytest.mark.parametrize("name", list(CASES))
def test_keyword_spelling(lib, name):
    fn, expected = CASES[name]
    x = lib.tensor(X)
    assert fn(lib, x).tolist() == expected


def test_var_mean_unbiased_keyword(lib):
    x = lib.tensor(X)
    var, mean = lib.var_mean(x, dim=[1], keepdim=True, unbiased=False)
    assert var.flatten().tolist() == pytest.approx([2 / 3, 2 / 3])
    assert mean.tolist() == [[1.0], [4.0]]
    var, mean = lib.var_mean(x, 1, False)
    assert var.tolist() == pytest.approx([2 / 3, 2 / 3])
    var, mean = lib.var_mean(x, False)
    assert var.item() == pytest.approx(2.9166667) and mean.item() == 2.5
    std, mean = lib.std_mean(x, dim=0, unbiased=True)
    assert std.tolist() == pytest.approx([2.1213203] * 3) and mean.tolist() == [1.5, 2.5, 3.5]
    var, _ = lib.var_mean(x, dim=1, correction=0)
    assert var.tolist() == pytest.approx([2 / 3, 2 / 3])
    var, mean = lib.var_mean(x)
    assert var.item() == pytest.approx(3.5) and mean.item() == 2.5


def test_unknown_keyword_still_raises(lib):
    with pytest.raises(TypeError):
        lib.tensor(X).unsqueeze(position=0)


def test_functional_ops_take_every_argument_by_name(lib):
    from importlib import import_module

    F = import_module(lib.__name__ + ".nn.functional")
    v = lib.tensor(X, requires_grad=True)
    target = lib.tensor([0, 2])
    loss = F.cross_entropy(input=v, target=target, reduction="mean", label_smoothing=0.0)
    assert type(loss.grad_fn).__name__ == "NllLossBackward0"
    assert round(loss.item(), 5) == 1.40761
    loss = F.nll_loss(input=v.log_softmax(1), target=target, reduction="sum")
    assert type(loss.grad_fn).__name__ == "NllLossBackward0"
    x = lib.arange(24.0).reshape(1, 2, 3, 4).requires_grad_()
    up = F.interpolate(input=x, scale_factor=2, mode="bilinear", align_corners=False)
    assert tuple(up.shape) == (1, 2, 6, 8)
    assert type(up.grad_fn).__name__ == "UpsampleBilinear2DBackward0"
    grid = F.grid_sample(input=x, grid=lib.zeros(1, 2, 2, 2), align_corners=False)
    assert type(grid.grad_fn).__name__ == "GridSampler2DBackward0"


def test_as_methods_take_other_by_name(lib):
    v = lib.tensor(X)
    assert tuple(v[:1].expand_as(other=v).shape) == (2, 3)
    assert tuple(v.view_as(other=v.t()).shape) == (3, 2)
    assert tuple(v.reshape_as(other=v.t()).shape) == (3, 2)
