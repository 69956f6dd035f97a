"""grad_fn._saved_dim (and dims, dim0/dim1, dimension, index) as PyTorch 2.13 shows them: the
argument as the caller gave it, read through an unsigned conversion, so dim=-1 is 2**64 - 1 and
dim=-2 is 2**64 - 2, while a dim given as 2 stays 2."""

import engine as torch
import engine.nn.functional as F
import pytest

U = 2**64  # PyTorch's getters return negative ints as their unsigned 64-bit value

x = torch.rand(2, 3, 4, requires_grad=True)
idx = torch.zeros(2, 3, 1, dtype=torch.long)

# (call, node name, {attribute: value}), recorded from PyTorch 2.13.
CASES = {
    "squeeze": (lambda: x[:, :1].squeeze(-2), "SqueezeBackward1", {"dim": U - 2}),
    "unsqueeze": (lambda: x.unsqueeze(-1), "UnsqueezeBackward0", {"dim": U - 1}),
    "select": (lambda: x.select(-1, -1), "SelectBackward0", {"dim": U - 1, "index": U - 1}),
    "narrow": (lambda: x.narrow(-1, 1, 2), "SliceBackward0", {"dim": U - 1, "start": 1, "end": 3}),
    "transpose": (lambda: x.transpose(-1, 0), "TransposeBackward0", {"dim0": U - 1, "dim1": 0}),
    "cumsum": (lambda: x.cumsum(-1), "CumsumBackward0", {"dim": U - 1}),
    "cumprod": (lambda: x.cumprod(-1), "CumprodBackward0", {"dim": U - 1}),
    "max": (lambda: x.max(-1)[0], "MaxBackward0", {"dim": U - 1, "keepdim": False}),
    "min": (lambda: x.min(-1, keepdim=True)[0], "MinBackward0", {"dim": U - 1, "keepdim": True}),
    "prod": (lambda: x.prod(-1), "ProdBackward1", {"dim": U - 1, "keepdim": False}),
    "amax": (lambda: x.amax(-1), "AmaxBackward0", {"dim": (U - 1,)}),
    "amin": (lambda: x.amin((-1, 0)), "AminBackward0", {"dim": (U - 1, 0)}),
    "var": (lambda: x.var(-1), "VarBackward0", {"dim": (U - 1,), "keepdim": False}),
    "std": (lambda: x.std(-1, keepdim=True), "StdBackward0", {"dim": (U - 1,), "keepdim": True}),
    "norm": (lambda: x.norm(dim=-1), "LinalgVectorNormBackward0", {"dim": (U - 1,)}),
    "logsumexp": (lambda: x.logsumexp(-1), "LogsumexpBackward0", {"dim": (U - 1,)}),
    "gather": (lambda: x.gather(-1, idx), "GatherBackward0", {"dim": U - 1}),
    "index_select": (
        lambda: x.index_select(-1, torch.tensor([0])),
        "IndexSelectBackward0",
        {"dim": U - 1},
    ),
    "scatter": (lambda: x.scatter(-1, idx, x[..., :1]), "ScatterBackward0", {"dim": U - 1}),
    "split": (lambda: x.split(2, -1)[0], "SplitBackward0", {"dim": U - 1}),
    "unbind": (lambda: x.unbind(-1)[0], "UnbindBackward0", {"dim": U - 1}),
    "flip": (lambda: x.flip(-1), "FlipBackward0", {"dims": (U - 1,)}),
    "roll": (lambda: x.roll(1, -1), "RollBackward0", {"dims": (U - 1,), "shifts": (1,)}),
    "unfold": (
        lambda: x.unfold(-1, 2, 1),
        "UnfoldBackward0",
        {"dimension": U - 1, "size": 2, "step": 1, "self_sym_sizes": (2, 3, 4)},
    ),
    "sort": (lambda: x.sort(-1)[0], "SortBackward0", {"dim": U - 1}),
    "topk": (lambda: x.topk(1, -1)[0], "TopkBackward0", {"dim": U - 1}),
    "kthvalue": (
        lambda: x.kthvalue(1, -1)[0],
        "KthvalueBackward0",
        {"dim": U - 1, "keepdim": False},
    ),
    "median": (lambda: x.median(-1)[0], "MedianBackward1", {"dim": U - 1, "keepdim": False}),
    "diagonal": (
        lambda: x.diagonal(0, -1, -2),
        "DiagonalBackward0",
        {"dim1": U - 1, "dim2": U - 2, "offset": 0, "self_sym_sizes": (2, 3, 4)},
    ),
    "softmax": (lambda: F.softmax(x, -1), "SoftmaxBackward0", {"dim": U - 1}),
    "cat": (lambda: torch.cat([x, x], -1), "CatBackward0", {"dim": U - 1}),
    "sum": (lambda: x.sum(-2, keepdim=True), "SumBackward1", {"dim": (U - 2,), "keepdim": True}),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_negative_dims_read_back_as_pytorch_shows_them(case):
    call, name, attrs = case
    fn = call().grad_fn
    assert type(fn).__name__ == name
    for attr, value in attrs.items():
        assert getattr(fn, "_saved_" + attr) == value, attr
        assert "_saved_" + attr in dir(fn)


@pytest.mark.parametrize(
    ("call", "attr", "value"),
    [
        (lambda: x[:, :1].squeeze(1), "dim", 1),
        (lambda: x.transpose(2, 0), "dim0", 2),
        (lambda: x.select(2, 3), "index", 3),
        (lambda: x.cumsum(2), "dim", 2),
        (lambda: x.var(2), "dim", (2,)),
    ],
)
def test_non_negative_dims_are_unchanged(call, attr, value):
    assert getattr(call().grad_fn, "_saved_" + attr) == value


def test_gradients_unchanged_by_negative_dims():
    a = torch.rand(3, 4, dtype=torch.float64, requires_grad=True)
    for fn in (
        lambda t: t.cumsum(-1),
        lambda t: t.transpose(-1, -2),
        lambda t: t.var(-1),
        lambda t: t.amax(-1),
    ):
        assert torch.autograd.gradcheck(fn, (a,))
