"""``grad_fn._saved_<name>`` for the non-tensor arguments built-in nodes keep (PyTorch 2.13's names
and Python types: ints, bools, floats, tuples of ints, None), saved index tensors that are freed
with the graph, ``StackBackward0`` and ``dir(grad_fn)`` listing the saved attributes. The expected
values were read from PyTorch 2.13; ``test_matches_pytorch`` compares live when torch imports."""

import engine as torch
import pytest

FREED = "Trying to backward through the graph a second time"
NEG_ONE = 2**64 - 1  # PyTorch's getters convert ints as unsigned: a dim of -1 reads as 2**64 - 1


def _is_tensor(v):
    # either library's tensors (test_matches_pytorch summarises torch's nodes too)
    return hasattr(v, "grad_fn") and hasattr(v, "shape")


def _values(fn):
    out = {}
    for name in dir(fn):
        if name.startswith("_saved_"):
            v = getattr(fn, name)
            if _is_tensor(v):
                v = ("T", tuple(v.shape))
            elif isinstance(v, tuple):
                v = tuple(("T", tuple(x.shape)) if _is_tensor(x) else x for x in v)
            out[name] = (v, type(v).__name__)
    return type(fn).__name__, out


def _cases(t):
    a = t.ones(2, 3, requires_grad=True)
    b = t.ones(2, 3, requires_grad=True)
    return {
        "stack": lambda: t.stack([a, b], dim=0),
        "stack_neg": lambda: t.stack([a, b], dim=-1),
        "cat": lambda: t.cat([a, b], dim=1),
        "sum": lambda: a.sum(),
        "sum_dim": lambda: a.sum(1, keepdim=True),
        "mean": lambda: a.mean(),
        "mean_dim": lambda: a.mean(1),
        "max_dim": lambda: a.max(1)[0],
        "min_dim": lambda: a.min(dim=0, keepdim=True)[0],
        "amax": lambda: a.amax(1),
        "prod_dim": lambda: a.prod(1),
        "cumsum": lambda: a.cumsum(1),
        "cumprod": lambda: a.cumprod(1),
        "view": lambda: a.view(6),
        "transpose": lambda: a.transpose(0, 1),
        "permute": lambda: a.permute(1, 0),
        "unsqueeze": lambda: a.unsqueeze(1),
        "squeeze_dim": lambda: a.unsqueeze(1).squeeze(1),
        "expand": lambda: a[:1].expand(4, 3),
        "slice": lambda: a[:, 1:3],
        "slice_open": lambda: a[:, 1:],
        "slice_step": lambda: a[:, ::2],
        "narrow": lambda: a.narrow(1, -2, 1),
        "select": lambda: a[1],
        "logit_eps": lambda: t.logit(a, 0.25),
        "logit": lambda: t.logit(a),
        "exp": lambda: a.exp(),
        "mul": lambda: a * b,
    }


EXPECTED = {
    "stack": ("StackBackward0", {"_saved_dim": (0, "int")}),
    "stack_neg": ("StackBackward0", {"_saved_dim": (NEG_ONE, "int")}),
    "cat": ("CatBackward0", {"_saved_dim": (1, "int")}),
    "sum": ("SumBackward0", {"_saved_self_sym_sizes": ((2, 3), "tuple")}),
    "sum_dim": (
        "SumBackward1",
        {
            "_saved_dim": ((1,), "tuple"),
            "_saved_keepdim": (True, "bool"),
            "_saved_self_sym_sizes": ((2, 3), "tuple"),
        },
    ),
    "mean": (
        "MeanBackward0",
        {"_saved_self_sym_numel": (6, "int"), "_saved_self_sym_sizes": ((2, 3), "tuple")},
    ),
    "mean_dim": (
        "MeanBackward1",
        {
            "_saved_dim": ((1,), "tuple"),
            "_saved_keepdim": (False, "bool"),
            "_saved_self_sym_numel": (6, "int"),
            "_saved_self_sym_sizes": ((2, 3), "tuple"),
        },
    ),
    "max_dim": (
        "MaxBackward0",
        {
            "_saved_dim": (1, "int"),
            "_saved_indices": (("T", (2,)), "tuple"),
            "_saved_keepdim": (False, "bool"),
            "_saved_self_sym_sizes": ((2, 3), "tuple"),
        },
    ),
    "min_dim": (
        "MinBackward0",
        {
            "_saved_dim": (0, "int"),
            "_saved_indices": (("T", (1, 3)), "tuple"),
            "_saved_keepdim": (True, "bool"),
            "_saved_self_sym_sizes": ((2, 3), "tuple"),
        },
    ),
    "amax": (
        "AmaxBackward0",
        {
            "_saved_dim": ((1,), "tuple"),
            "_saved_keepdim": (False, "bool"),
            "_saved_result": (("T", (2,)), "tuple"),
            "_saved_self": (("T", (2, 3)), "tuple"),
        },
    ),
    "prod_dim": (
        "ProdBackward1",
        {
            "_saved_dim": (1, "int"),
            "_saved_keepdim": (False, "bool"),
            "_saved_result": (("T", (2,)), "tuple"),
            "_saved_self": (("T", (2, 3)), "tuple"),
        },
    ),
    "cumsum": ("CumsumBackward0", {"_saved_dim": (1, "int")}),
    "cumprod": (
        "CumprodBackward0",
        {
            "_saved_dim": (1, "int"),
            "_saved_result": (("T", (2, 3)), "tuple"),
            "_saved_self": (("T", (2, 3)), "tuple"),
        },
    ),
    "view": ("ViewBackward0", {"_saved_self_sym_sizes": ((2, 3), "tuple")}),
    "transpose": ("TransposeBackward0", {"_saved_dim0": (0, "int"), "_saved_dim1": (1, "int")}),
    "permute": ("PermuteBackward0", {"_saved_dims": ((1, 0), "tuple")}),
    "unsqueeze": ("UnsqueezeBackward0", {"_saved_dim": (1, "int")}),
    "squeeze_dim": (
        "SqueezeBackward1",
        {"_saved_dim": (1, "int"), "_saved_self_sym_sizes": ((2, 1, 3), "tuple")},
    ),
    "expand": ("ExpandBackward0", {"_saved_self_sym_sizes": ((1, 3), "tuple")}),
    "slice": (
        "SliceBackward0",
        {
            "_saved_dim": (1, "int"),
            "_saved_end": (3, "int"),
            "_saved_self_sym_sizes": ((2, 3), "tuple"),
            "_saved_start": (1, "int"),
            "_saved_step": (1, "int"),
        },
    ),
    "slice_open": (
        "SliceBackward0",
        {
            "_saved_dim": (1, "int"),
            "_saved_end": (2**63 - 1, "int"),
            "_saved_self_sym_sizes": ((2, 3), "tuple"),
            "_saved_start": (1, "int"),
            "_saved_step": (1, "int"),
        },
    ),
    "slice_step": (
        "SliceBackward0",
        {
            "_saved_dim": (1, "int"),
            "_saved_end": (2**63 - 1, "int"),
            "_saved_self_sym_sizes": ((2, 3), "tuple"),
            "_saved_start": (0, "int"),
            "_saved_step": (2, "int"),
        },
    ),
    "narrow": (
        "SliceBackward0",
        {
            "_saved_dim": (1, "int"),
            "_saved_end": (2, "int"),
            "_saved_self_sym_sizes": ((2, 3), "tuple"),
            "_saved_start": (1, "int"),
            "_saved_step": (1, "int"),
        },
    ),
    "select": (
        "SelectBackward0",
        {
            "_saved_dim": (0, "int"),
            "_saved_index": (1, "int"),
            "_saved_self_sym_sizes": ((2, 3), "tuple"),
        },
    ),
    "logit_eps": (
        "LogitBackward0",
        {"_saved_eps": (0.25, "float"), "_saved_self": (("T", (2, 3)), "tuple")},
    ),
    "logit": (
        "LogitBackward0",
        {"_saved_eps": (None, "NoneType"), "_saved_self": (("T", (2, 3)), "tuple")},
    ),
    "exp": ("ExpBackward0", {"_saved_result": (("T", (2, 3)), "tuple")}),
    "mul": (
        "MulBackward0",
        {"_saved_other": (("T", (2, 3)), "tuple"), "_saved_self": (("T", (2, 3)), "tuple")},
    ),
}


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_saved_attributes_have_pytorchs_names_values_and_types(case):
    assert _values(_cases(torch)[case]().grad_fn) == EXPECTED[case]


def test_matches_pytorch():
    real = pytest.importorskip("torch")
    ours, theirs = _cases(torch), _cases(real)
    for case in EXPECTED:
        assert _values(ours[case]().grad_fn) == _values(theirs[case]().grad_fn), case


def test_saved_values_outlive_backward_while_saved_tensors_do_not():
    a = torch.ones(2, 3, requires_grad=True)
    values, indices = a.max(1)
    values.sum().backward()
    fn = values.grad_fn
    assert fn._saved_dim == 1 and fn._saved_keepdim is False and fn._saved_self_sym_sizes == (2, 3)
    with pytest.raises(RuntimeError, match=FREED):
        _ = fn._saved_indices
    with pytest.raises(RuntimeError, match=FREED):
        values.sum().backward()


def test_max_indices_are_checked_for_inplace_writes():
    a = torch.tensor([[1.0, 3.0, 2.0]], requires_grad=True)
    values, indices = a.max(1)
    assert torch.equal(values.grad_fn._saved_indices, indices)
    indices.zero_()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        values.sum().backward()


def test_max_dim_gradient_unchanged():
    a = torch.tensor([[1.0, 3.0, 2.0], [5.0, 4.0, 6.0]], requires_grad=True)
    a.max(1)[0].sum().backward()
    assert a.grad.tolist() == [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    a.grad = None
    a.min(0, keepdim=True)[0].sum().backward()
    assert a.grad.tolist() == [[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]]


def test_stack_is_one_node_over_its_inputs():
    a = torch.ones(2, requires_grad=True)
    b = torch.zeros(2, dtype=torch.float64, requires_grad=True)
    c = torch.ones(2)
    out = torch.stack([a.float(), b.float(), c], dim=1)
    fn = out.grad_fn
    assert type(fn).__name__ == "StackBackward0"
    assert [type(n).__name__ if n is not None else None for n, _ in fn.next_functions] == [
        "AccumulateGrad",
        "ToCopyBackward0",
        None,
    ]
    (out * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    assert a.grad.tolist() == [1.0, 1.0]
    assert b.grad.dtype == torch.float64 and b.grad.tolist() == [2.0, 2.0]


def test_stack_double_backward():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (torch.stack([a * a, a], dim=0) ** 2).sum()
    (g,) = torch.autograd.grad(y, a, create_graph=True)
    assert g.tolist() == [4 * 1.0 + 2 * 1.0, 4 * 8.0 + 2 * 2.0]
    (gg,) = torch.autograd.grad(g.sum(), a)
    assert gg.tolist() == [12 * 1.0 + 2, 12 * 4.0 + 2]


def test_dir_lists_saved_attributes():
    a = torch.ones(2, 3, requires_grad=True)
    names = dir(a.sum(1).grad_fn)
    for n in ("_saved_dim", "_saved_keepdim", "_saved_self_sym_sizes", "name", "next_functions"):
        assert n in names
    assert "_saved_self" in dir((a * a).grad_fn) and "_raw_saved_self" in dir((a * a).grad_fn)


def test_unknown_saved_attribute_is_an_attribute_error():
    a = torch.ones(2, requires_grad=True)
    with pytest.raises(AttributeError, match="'SumBackward0' object has no attribute '_saved_dim'"):
        _ = a.sum().grad_fn._saved_dim
