"""The op table: one row per op, driving the forward, layout, gradient and differential tests.

A row's ``fn(lib, *tensors)`` is written once against the PyTorch API and runs with ``lib`` being
``engine`` or ``torch``; ``ref(*arrays)`` is the NumPy float64 reference. ``domains`` holds one
input domain per tensor argument, chosen away from kinks and poles so finite differences are
reliable (log and sqrt on positive values, abs / relu / sign / where's condition away from 0):

    real     uniform in [-2, 2]
    pos      uniform in [0.5, 2]
    nonzero  uniform in [0.5, 2] with a random sign
    int      integer values in [-2, 2] stored as floats (comparisons meet equal values)
    unit     uniform in [-0.9, 0.9] (asin, acos, tan)
    frac     k + f with integer k in [-3, 3] and f in [0.1, 0.4] or [0.6, 0.9] (rounding ops)

``shapes`` lists the input shapes of each case (broadcasting, 0-d, empty and size-1 cases are
spelled out there); ``layouts`` says which memory layouts the inputs may take (see make_input).
``second_order`` says whether a row's second derivatives are checked with gradgradcheck: the
elementwise rows, and the linear-algebra, product, scan, selection, statistics and nn.functional
rows except those listed in NO_SECOND_DERIVATIVE (no second derivative in PyTorch, or a
once-differentiable backward in engine). Matrix rows build their safe inputs inside ``fn``
(diagonally dominant or A A^T + n I), so any random sample is a valid argument.
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from dataclasses import dataclass
from typing import Callable

import numpy as np

# Input shapes per case. Elementwise rows share these; the others list their own.
UNARY_SHAPES = (((3, 4),), ((2, 3, 4),), ((),), ((0, 3),), ((1,),), ((1, 1),), ((7,),))
BINARY_SHAPES = (
    ((3, 4), (3, 4)),
    ((2, 3, 4), (2, 3, 4)),
    ((3, 1, 4), (2, 1)),  # both sides broadcast
    ((4,), (3, 4)),
    ((3, 4), ()),
    ((), (3, 4)),
    ((), ()),
    ((0, 3), (1, 3)),
    ((0, 3), (3,)),
    ((1,), (1, 1)),
)
MATMUL_SHAPES = (
    ((3,), (3,)),
    ((3,), (3, 4)),
    ((2, 3), (3,)),
    ((2, 3), (3, 4)),
    ((1, 1), (1, 1)),
    ((0, 3), (3, 4)),
    ((2, 0), (0, 4)),
    ((0,), (0,)),
)
REDUCE_SHAPES = (((3, 4),), ((2, 3, 4),), ((0, 3),), ((1, 1),))
ND_SHAPES = (((2, 3, 4),), ((1, 3, 5),))

ALL_LAYOUTS = ("contiguous", "permuted", "expanded")


@dataclass(frozen=True)
class Op:
    name: str
    fn: Callable
    ref: Callable
    domains: tuple[str, ...]
    differentiable: bool = True
    shapes: tuple = UNARY_SHAPES
    layouts: tuple[str, ...] = ALL_LAYOUTS
    # What the op gives for int32 inputs: "same", "float32", "int64", "bool", or None (untested).
    int_result: str | None = None
    # Output dtype regardless of the (floating) input dtype, if fixed.
    out_dtype: str | None = None
    # Elementwise in each input: second derivatives are checked with gradgradcheck.
    elementwise: bool = False
    # Reduced precision when computed in float32 (relative tolerance).
    f32_rtol: float = 1e-5
    # Second derivatives checked with gradgradcheck: None means "if elementwise"; False where
    # PyTorch has no second derivative or engine's backward is once-differentiable.
    gradgrad: bool | None = None

    @property
    def arity(self):
        return len(self.domains)

    @property
    def second_order(self):
        """Whether gradgradcheck applies to this row."""
        return self.elementwise if self.gradgrad is None else self.gradgrad

    def __repr__(self):
        return self.name


def _unary(name, fn, ref, domain="real", int_result="float32", **kw):
    return Op(name, fn, ref, (domain,), int_result=int_result, elementwise=True, **kw)


def _binary(name, fn, ref, domains=("real", "real"), int_result="same", **kw):
    return Op(
        name, fn, ref, domains, shapes=BINARY_SHAPES, int_result=int_result, elementwise=True, **kw
    )


def _compare(name, fn, ref):
    return Op(
        name,
        fn,
        ref,
        ("int", "int"),
        differentiable=False,
        shapes=BINARY_SHAPES,
        int_result="bool",
        out_dtype="bool",
    )


def _mean(x, axis=None, keepdims=False):
    # The mean of nothing is NaN (0/0) in both libraries; NumPy would also warn.
    count = x.size if axis is None else np.prod([x.shape[a] for a in np.atleast_1d(axis)])
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.sum(x, axis=axis, keepdims=keepdims) / count


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


OPS = [
    # ---- arithmetic ----
    _binary("add", lambda lib, a, b: lib.add(a, b), np.add),
    _binary("add_operator", lambda lib, a, b: a + b, np.add),
    _binary(
        "add_alpha",
        lambda lib, a, b: lib.add(a, b, alpha=2.5),
        lambda a, b: a + 2.5 * b,
        int_result=None,
    ),
    _binary("add_int_alpha", lambda lib, a, b: a.add(b, alpha=3), lambda a, b: a + 3 * b),
    _binary("sub", lambda lib, a, b: lib.sub(a, b), np.subtract),
    _binary("sub_operator", lambda lib, a, b: a - b, np.subtract),
    _binary(
        "sub_alpha",
        lambda lib, a, b: lib.sub(a, b, alpha=2.5),
        lambda a, b: a - 2.5 * b,
        int_result=None,
    ),
    _binary("mul", lambda lib, a, b: lib.mul(a, b), np.multiply),
    _binary("mul_operator", lambda lib, a, b: a * b, np.multiply),
    _binary(
        "div", lambda lib, a, b: lib.div(a, b), np.divide, ("real", "nonzero"), int_result="float32"
    ),
    _binary(
        "div_operator",
        lambda lib, a, b: a / b,
        np.divide,
        ("real", "nonzero"),
        int_result="float32",
    ),
    _unary("add_scalar", lambda lib, x: x + 2.5, lambda x: x + 2.5),
    _unary("radd_scalar", lambda lib, x: 2 + x, lambda x: 2 + x, int_result="same"),
    _unary("rsub_scalar", lambda lib, x: 2.5 - x, lambda x: 2.5 - x),
    _unary("mul_scalar", lambda lib, x: x * -3, lambda x: x * -3, int_result="same"),
    _unary("rdiv_scalar", lambda lib, x: 2.0 / x, lambda x: 2.0 / x, "nonzero"),
    _unary("div_int_scalar", lambda lib, x: x / 4, lambda x: x / 4),
    _unary("pow_scalar", lambda lib, x: x**3, lambda x: x**3, int_result="same"),
    _unary("pow_square", lambda lib, x: x**2, lambda x: x**2, int_result="same"),
    _unary("pow_sqrt", lambda lib, x: lib.pow(x, 0.5), np.sqrt, "pos"),
    _unary("pow_negative", lambda lib, x: x**-1.5, lambda x: x**-1.5, "pos"),
    _unary("rpow_scalar", lambda lib, x: 2.5**x, lambda x: 2.5**x),
    _binary("pow", lambda lib, a, b: lib.pow(a, b), np.power, ("pos", "real"), int_result=None),
    _binary("pow_operator", lambda lib, a, b: a**b, np.power, ("pos", "real"), int_result=None),
    _unary("neg", lambda lib, x: lib.neg(x), np.negative, int_result="same"),
    _unary("neg_operator", lambda lib, x: -x, np.negative, int_result="same"),
    # ---- unary functions ----
    _unary("exp", lambda lib, x: lib.exp(x), np.exp),
    _unary("log", lambda lib, x: lib.log(x), np.log, "pos"),
    _unary("sqrt", lambda lib, x: lib.sqrt(x), np.sqrt, "pos"),
    _unary("sin", lambda lib, x: lib.sin(x), np.sin),
    _unary("cos", lambda lib, x: lib.cos(x), np.cos),
    _unary("tanh", lambda lib, x: lib.tanh(x), np.tanh),
    _unary("sigmoid", lambda lib, x: lib.sigmoid(x), _sigmoid),
    _unary(
        "relu",
        lambda lib, x: lib.relu(x),
        lambda x: np.maximum(x, 0.0),
        "nonzero",
        int_result="same",
    ),
    _unary("abs", lambda lib, x: lib.abs(x), np.abs, "nonzero", int_result="same"),
    _unary("abs_operator", lambda lib, x: abs(x), np.abs, "nonzero", int_result="same"),
    _unary("sign", lambda lib, x: lib.sign(x), np.sign, "nonzero", int_result="same"),
    # ---- selection ----
    _binary(
        "where",
        lambda lib, a, b: lib.where(a > 0, a, b),
        lambda a, b: np.where(a > 0, a, b),
        ("nonzero", "real"),
    ),
    _unary(
        "where_scalar",
        lambda lib, x: lib.where(x > 0, x, 0.5),
        lambda x: np.where(x > 0, x, 0.5),
        "nonzero",
        int_result=None,
    ),
    _binary("maximum", lambda lib, a, b: lib.maximum(a, b), np.maximum),
    _binary("minimum", lambda lib, a, b: lib.minimum(a, b), np.minimum),
    # ---- comparisons ----
    _compare("eq", lambda lib, a, b: lib.eq(a, b), np.equal),
    _compare("ne", lambda lib, a, b: a != b, np.not_equal),
    _compare("lt", lambda lib, a, b: lib.lt(a, b), np.less),
    _compare("le", lambda lib, a, b: a <= b, np.less_equal),
    _compare("gt", lambda lib, a, b: lib.gt(a, b), np.greater),
    _compare("ge", lambda lib, a, b: a >= b, np.greater_equal),
    # ---- reductions ----
    Op("sum", lambda lib, x: x.sum(), np.sum, ("real",), shapes=UNARY_SHAPES, int_result="int64"),
    Op(
        "sum_function",
        lambda lib, x: lib.sum(x),
        np.sum,
        ("real",),
        shapes=UNARY_SHAPES,
        int_result="int64",
    ),
    Op(
        "sum_dim0",
        lambda lib, x: x.sum(0),
        lambda x: np.sum(x, 0),
        ("real",),
        shapes=REDUCE_SHAPES,
        int_result="int64",
    ),
    Op(
        "sum_dim_negative",
        lambda lib, x: x.sum(-1),
        lambda x: np.sum(x, -1),
        ("real",),
        shapes=REDUCE_SHAPES,
    ),
    Op(
        "sum_dim_tuple",
        lambda lib, x: x.sum((0, -1)),
        lambda x: np.sum(x, (0, -1)),
        ("real",),
        shapes=REDUCE_SHAPES,
    ),
    Op(
        "sum_keepdim",
        lambda lib, x: x.sum(1, keepdim=True),
        lambda x: np.sum(x, 1, keepdims=True),
        ("real",),
        shapes=REDUCE_SHAPES,
    ),
    Op(
        "sum_all_keepdim",
        lambda lib, x: x.sum((0, 1), True),
        lambda x: np.sum(x, (0, 1), keepdims=True),
        ("real",),
        shapes=REDUCE_SHAPES,
    ),
    Op("sum_0d_dim", lambda lib, x: x.sum(0), np.sum, ("real",), shapes=(((),),)),
    Op("mean", lambda lib, x: x.mean(), _mean, ("real",), shapes=UNARY_SHAPES[:3]),
    Op("mean_function", lambda lib, x: lib.mean(x), _mean, ("real",), shapes=UNARY_SHAPES[:3]),
    Op(
        "mean_dim0",
        lambda lib, x: x.mean(0),
        lambda x: _mean(x, 0),
        ("real",),
        shapes=REDUCE_SHAPES,
    ),
    Op(
        "mean_dim_negative",
        lambda lib, x: x.mean(-1),
        lambda x: _mean(x, -1),
        ("real",),
        shapes=REDUCE_SHAPES,
    ),
    Op(
        "mean_dim_tuple",
        lambda lib, x: x.mean((0, -1)),
        lambda x: _mean(x, (0, -1)),
        ("real",),
        shapes=REDUCE_SHAPES,
    ),
    Op(
        "mean_keepdim",
        lambda lib, x: x.mean(1, keepdim=True),
        lambda x: _mean(x, 1, True),
        ("real",),
        shapes=REDUCE_SHAPES,
    ),
    # ---- linear algebra ----
    Op(
        "matmul",
        lambda lib, a, b: lib.matmul(a, b),
        np.matmul,
        ("real", "real"),
        shapes=MATMUL_SHAPES,
        int_result="same",
    ),
    Op(
        "matmul_operator",
        lambda lib, a, b: a @ b,
        np.matmul,
        ("real", "real"),
        shapes=MATMUL_SHAPES,
    ),
    Op(
        "mm",
        lambda lib, a, b: lib.mm(a, b),
        np.matmul,
        ("real", "real"),
        shapes=tuple(s for s in MATMUL_SHAPES if len(s[0]) == len(s[1]) == 2),
        int_result="same",
    ),
    # ---- shapes and views ----
    Op(
        "reshape_flat",
        lambda lib, x: x.reshape(-1),
        lambda x: x.reshape(-1),
        ("real",),
        int_result="same",
    ),
    Op(
        "reshape",
        lambda lib, x: lib.reshape(x, (x.shape[0], -1)),
        lambda x: x.reshape(x.shape[0], -1),
        ("real",),
        shapes=ND_SHAPES + (((3, 4),), ((1, 1),)),
    ),
    Op(
        "view",
        lambda lib, x: x.view(-1, x.shape[-1]),
        lambda x: x.reshape(-1, x.shape[-1]),
        ("real",),
        shapes=ND_SHAPES + (((3, 4),), ((0, 3),)),
        layouts=("contiguous",),
        int_result="same",
    ),
    Op(
        "t",
        lambda lib, x: x.t(),
        lambda x: x.T,
        ("real",),
        shapes=(((3, 4),), ((3,),), ((),), ((0, 2),)),
        int_result="same",
    ),
    Op("t_function", lambda lib, x: lib.t(x), lambda x: x.T, ("real",), shapes=(((3, 4),),)),
    Op(
        "transpose",
        lambda lib, x: x.transpose(0, 1),
        lambda x: np.swapaxes(x, 0, 1),
        ("real",),
        shapes=ND_SHAPES + (((3, 4),),),
        int_result="same",
    ),
    Op(
        "transpose_negative",
        lambda lib, x: lib.transpose(x, -1, 0),
        lambda x: np.swapaxes(x, -1, 0),
        ("real",),
        shapes=ND_SHAPES,
    ),
    Op("unsqueeze", lambda lib, x: x.unsqueeze(0), lambda x: x[None], ("real",), int_result="same"),
    Op(
        "unsqueeze_negative", lambda lib, x: lib.unsqueeze(x, -1), lambda x: x[..., None], ("real",)
    ),
    Op(
        "squeeze",
        lambda lib, x: x.squeeze(),
        np.squeeze,
        ("real",),
        shapes=(((1, 3, 1),), ((1, 1),), ((),), ((3, 4),)),
        int_result="same",
    ),
    Op(
        "squeeze_dim",
        lambda lib, x: lib.squeeze(x, 0),
        lambda x: np.squeeze(x, 0) if x.shape[0] == 1 else x,
        ("real",),
        shapes=(((1, 3),), ((3, 1),), ((1, 0),)),
    ),
    Op(
        "expand",
        lambda lib, x: x.expand(2, 3, 4),
        lambda x: np.broadcast_to(x, (2, 3, 4)),
        ("real",),
        shapes=(((3, 1),), ((4,),), ((),), ((1, 3, 4),)),
        int_result="same",
    ),
    Op(
        "expand_keep",
        lambda lib, x: x.expand(-1, 5),
        lambda x: np.broadcast_to(x, (x.shape[0], 5)),
        ("real",),
        shapes=(((3, 1),), ((0, 1),)),
    ),
    Op(
        "permute",
        lambda lib, x: x.permute(2, 0, 1),
        lambda x: np.transpose(x, (2, 0, 1)),
        ("real",),
        shapes=ND_SHAPES,
        int_result="same",
    ),
    Op(
        "permute_function",
        lambda lib, x: lib.permute(x, (-1, 0, 1)),
        lambda x: np.transpose(x, (2, 0, 1)),
        ("real",),
        shapes=ND_SHAPES,
    ),
    Op("clone", lambda lib, x: x.clone(), np.copy, ("real",), int_result="same"),
    Op("clone_function", lambda lib, x: lib.clone(x), np.copy, ("real",)),
    Op("contiguous", lambda lib, x: x.contiguous(), np.copy, ("real",), int_result="same"),
    Op(
        "detach",
        lambda lib, x: x.detach(),
        np.copy,
        ("real",),
        differentiable=False,
        int_result="same",
    ),
    Op("to_float64", lambda lib, x: x.to(lib.float64), np.copy, ("real",), out_dtype="float64"),
    Op("double", lambda lib, x: x.double(), np.copy, ("real",), out_dtype="float64"),
    # float32 results are too coarse for float64 finite differences: values only.
    Op(
        "to_float32",
        lambda lib, x: x.to(lib.float32),
        np.copy,
        ("real",),
        differentiable=False,
        out_dtype="float32",
    ),
    Op(
        "to_int64",
        lambda lib, x: x.to(lib.int64),
        lambda x: np.trunc(x),
        ("real",),
        differentiable=False,
        out_dtype="int64",
        int_result="int64",
    ),
    Op(
        "to_bool",
        lambda lib, x: x.to(dtype=lib.bool),
        lambda x: x != 0,
        ("int",),
        differentiable=False,
        out_dtype="bool",
        int_result="bool",
    ),
    # ---- compositions (several nodes, views feeding arithmetic) ----
    Op(
        "composite",
        lambda lib, a, b: ((a.t() @ b).tanh() * 2 + b.sum(0)).mean(0),
        lambda a, b: np.mean(np.tanh(a.T @ b) * 2 + np.sum(b, 0), 0),
        ("real", "real"),
        shapes=(((3, 2), (3, 4)),),
    ),
]

# ---- indexing, strided views and joining (engine/_indexing.py, _shape_ops.py, index.cpp) ----
_IDX = np.array([2, 0, 2])
_GATHER = np.array([[0, 2, 1, 0], [1, 1, 0, 2], [2, 0, 0, 1]])


def _lib_index(lib, values):
    return lib.tensor(values.tolist())


def _np_gather(x, idx):
    return np.take_along_axis(x, idx, 0)


def _np_scatter_add(x, idx, src):
    out = x.copy()
    np.add.at(out, (idx, np.arange(idx.shape[1])[None, :].repeat(idx.shape[0], 0)), src)
    return out


INDEX_OPS = [
    Op("getitem_int", lambda lib, x: x[1], lambda x: x[1], ("real",), shapes=ND_SHAPES[:1]),
    Op(
        "getitem_slices",
        lambda lib, x: x[1:, ::2, -3:-1],
        lambda x: x[1:, ::2, -3:-1],
        ("real",),
        shapes=ND_SHAPES,
        int_result="same",
    ),
    Op(
        "getitem_none_ellipsis",
        lambda lib, x: x[None, ..., 1, None],
        lambda x: x[None, ..., 1, None],
        ("real",),
        shapes=ND_SHAPES,
    ),
    Op(
        "getitem_list",
        lambda lib, x: x[[2, 0, 2, -1]],
        lambda x: x[[2, 0, 2, -1]],
        ("real",),
        shapes=(((3, 4),), ((3,),)),
        int_result="same",
    ),
    Op(
        "getitem_advanced_pair",
        lambda lib, x: x[[0, 1, 1], :, [3, 0, 3]],
        lambda x: x[[0, 1, 1], :, [3, 0, 3]],
        ("real",),
        shapes=(((2, 3, 4),),),
    ),
    Op(
        "getitem_advanced_adjacent",
        lambda lib, x: x[:, lib.tensor([[0, 2], [1, 1]]), 1:],
        lambda x: x[:, np.array([[0, 2], [1, 1]]), 1:],
        ("real",),
        shapes=(((2, 3, 4),),),
    ),
    Op(
        "getitem_mask",
        lambda lib, x: x[x > 0],
        lambda x: x[x > 0],
        ("nonzero",),
        shapes=(((3, 4),), ((2, 3, 4),), ((0, 3),)),
    ),
    Op(
        "narrow",
        lambda lib, x: lib.narrow(x, -1, 1, 2),
        lambda x: x[..., 1:3],
        ("real",),
        shapes=ND_SHAPES + (((3, 4),),),
        int_result="same",
    ),
    Op(
        "flatten",
        lambda lib, x: x.flatten(1),
        lambda x: x.reshape(x.shape[0], -1),
        ("real",),
        shapes=ND_SHAPES,
    ),
    Op(
        "unflatten",
        lambda lib, x: x.unflatten(-1, (2, -1)),
        lambda x: x.reshape(*x.shape[:-1], 2, -1),
        ("real",),
        shapes=(((3, 4),), ((2, 3, 4),)),
    ),
    Op("T", lambda lib, x: x.T, lambda x: x.T, ("real",), shapes=(((3, 4),),)),
    Op("mT", lambda lib, x: x.mT, lambda x: np.swapaxes(x, -1, -2), ("real",), shapes=ND_SHAPES),
    Op(
        "broadcast_to",
        lambda lib, x: lib.broadcast_to(x, (2, 3, 4)),
        lambda x: np.broadcast_to(x, (2, 3, 4)),
        ("real",),
        shapes=(((3, 1),), ((4,),)),
    ),
    Op(
        "repeat",
        lambda lib, x: x.repeat(2, 1, 3),
        lambda x: np.tile(x, (2, 1, 3)),
        ("real",),
        shapes=(((3, 4),), ((2,),), ((),)),
        int_result="same",
    ),
    Op(
        "flip",
        lambda lib, x: lib.flip(x, (0, -1)),
        lambda x: np.flip(x, (0, -1)),
        ("real",),
        shapes=ND_SHAPES + (((3, 4),),),
        int_result="same",
    ),
    Op(
        "roll",
        lambda lib, x: lib.roll(x, (1, -2), (0, 1)),
        lambda x: np.roll(x, (1, -2), (0, 1)),
        ("real",),
        shapes=(((3, 4),), ((2, 3, 4),)),
    ),
    Op(
        "roll_flat",
        lambda lib, x: x.roll(5),
        lambda x: np.roll(x, 5),
        ("real",),
        shapes=(((3, 4),),),
    ),
    Op(
        "split",
        lambda lib, x: x.split(2, 1)[1],
        lambda x: np.split(x, [2], 1)[1][:, :2],
        ("real",),
        shapes=(((3, 4),), ((2, 3, 4),)),
    ),
    Op(
        "split_sections",
        lambda lib, x: lib.split(x, [1, 2], 0)[1],
        lambda x: x[1:3],
        ("real",),
        shapes=(((3, 4),),),
    ),
    Op(
        "chunk",
        lambda lib, x: x.chunk(2, -1)[-1],
        lambda x: x[..., 2:],
        ("real",),
        shapes=(((3, 4),), ((2, 3, 4),)),
    ),
    Op(
        "unbind",
        lambda lib, x: lib.unbind(x, 1)[2],
        lambda x: x[:, 2],
        ("real",),
        shapes=(((3, 4),), ((2, 3, 4),)),
    ),
    Op(
        "cat",
        lambda lib, a, b: lib.cat([a, b, a], 1),
        lambda a, b: np.concatenate([a, b, a], 1),
        ("real", "real"),
        shapes=(((3, 4), (3, 2)), ((2, 0), (2, 3)), ((2, 3, 4), (2, 1, 4))),
        int_result="same",
    ),
    Op(
        "cat_dim0",
        lambda lib, a, b: lib.cat((a, b)),
        lambda a, b: np.concatenate([a, b]),
        ("real", "real"),
        shapes=(((3, 4), (1, 4)), ((2,), (3,))),
    ),
    Op(
        "stack",
        lambda lib, a, b: lib.stack([a, b], -1),
        lambda a, b: np.stack([a, b], -1),
        ("real", "real"),
        shapes=(((3, 4), (3, 4)), ((), ())),
    ),
    Op(
        "tril",
        lambda lib, x: x.tril(),
        np.tril,
        ("real",),
        shapes=(((3, 4),), ((2, 3, 4),)),
        int_result="same",
    ),
    Op(
        "triu_offset",
        lambda lib, x: lib.triu(x, 1),
        lambda x: np.triu(x, 1),
        ("real",),
        shapes=(((3, 4),), ((4, 3),)),
    ),
    Op(
        "tril_negative",
        lambda lib, x: lib.tril(x, -1),
        lambda x: np.tril(x, -1),
        ("real",),
        shapes=(((3, 4),),),
    ),
    Op(
        "diag_vector",
        lambda lib, x: lib.diag(x, 1),
        lambda x: np.diag(x, 1),
        ("real",),
        shapes=(((3,),), ((1,),)),
        layouts=("contiguous",),
    ),
    Op(
        "diag_matrix",
        lambda lib, x: lib.diag(x, -1),
        lambda x: np.diag(x, -1),
        ("real",),
        shapes=(((3, 4),), ((4, 3),)),
    ),
    Op(
        "diagonal",
        lambda lib, x: x.diagonal(),
        lambda x: np.diagonal(x).copy(),
        ("real",),
        shapes=(((3, 4),), ((4, 3),)),
        int_result="same",
    ),
    Op(
        "diagonal_dims",
        lambda lib, x: lib.diagonal(x, 1, 0, 2),
        lambda x: np.diagonal(x, 1, 0, 2).copy(),
        ("real",),
        shapes=ND_SHAPES,
    ),
    Op(
        "index_select",
        lambda lib, x: x.index_select(0, _lib_index(lib, _IDX)),
        lambda x: x[_IDX],
        ("real",),
        shapes=(((3, 4),), ((3,),)),
        int_result="same",
    ),
    Op(
        "index_select_dim1",
        lambda lib, x: lib.index_select(x, -1, _lib_index(lib, _IDX)),
        lambda x: x[..., _IDX],
        ("real",),
        shapes=ND_SHAPES,
    ),
    Op(
        "gather",
        lambda lib, x: x.gather(0, _lib_index(lib, _GATHER)),
        lambda x: _np_gather(x, _GATHER),
        ("real",),
        shapes=(((3, 4),),),
        int_result="same",
    ),
    Op(
        "scatter_add",
        lambda lib, x, s: x.scatter_add(0, _lib_index(lib, _GATHER), s),
        lambda x, s: _np_scatter_add(x, _GATHER, s),
        ("real", "real"),
        shapes=(((3, 4), (3, 4)),),
    ),
    Op(
        "scatter",
        lambda lib, x, s: lib.scatter(x, 1, _lib_index(lib, np.array([[3], [0], [1]])), s),
        lambda x, s: np.where(np.arange(4)[None] == np.array([[3], [0], [1]]), s[:, :1], x),
        ("real", "real"),
        shapes=(((3, 4), (3, 2)),),
    ),
    Op(
        "index_add",
        lambda lib, x, s: x.index_add(0, _lib_index(lib, _IDX), s, alpha=2.0),
        lambda x, s: _np_index_add(x, s),
        ("real", "real"),
        shapes=(((3, 4), (3, 4)),),
    ),
    Op(
        "take",
        lambda lib, x: lib.take(x, _lib_index(lib, np.array([[0, -1], [5, 2]]))),
        lambda x: np.take(x, [[0, -1], [5, 2]]),
        ("real",),
        shapes=(((2, 3),), ((3, 4),)),
    ),
    Op(
        "masked_fill",
        lambda lib, x: x.masked_fill(x > 0, 0.5),
        lambda x: np.where(x > 0, 0.5, x),
        ("nonzero",),
        shapes=UNARY_SHAPES[:4],
    ),
]


def _np_index_add(x, s):
    out = x.copy()
    np.add.at(out, _IDX, 2.0 * s)
    return out


OPS.extend(INDEX_OPS)

# ---- the math API: more pointwise functions, reductions, batched products ----
EXTREMA_SHAPES = (((3, 4),), ((2, 3, 4),), ((1, 1),), ((5,),))
SPREAD_SHAPES = (((3, 4),), ((2, 3, 4),), ((5,),))  # var / std: more than one element
NO_TIES = ("contiguous", "permuted")  # an expanded input repeats values: ties at every extremum
BATCHED_MATMUL_SHAPES = (
    ((2, 3, 4), (4, 5)),
    ((2, 3, 4), (2, 4, 5)),
    ((2, 1, 3, 4), (3, 4, 2)),
    ((4,), (2, 4, 3)),
    ((2, 3, 4), (4,)),
    ((3, 4), (2, 4, 1)),
    ((0, 3, 4), (4, 2)),
)
TERNARY_SHAPES = (((3, 4), (3, 4), (3, 4)), ((3, 4), (4,), (3, 1)), ((2, 3), (), ()))


def _div0(x):
    with np.errstate(divide="ignore", invalid="ignore"):
        return x / 0.0


def _reduce(name, fn, ref, domain="real", shapes=REDUCE_SHAPES, **kw):
    return Op(name, fn, ref, (domain,), shapes=shapes, **kw)


def _logsumexp(x, axis):
    m = np.max(x, axis=axis, keepdims=True)
    return np.log(np.sum(np.exp(x - m), axis=axis)) + np.squeeze(m, axis)


def _norm(x, p, axis=None):
    a = np.abs(x)
    if p == np.inf:
        return np.max(a, axis=axis)
    return np.sum(a**p, axis=axis) ** (1.0 / p)


def _einsum(eq, domains=("real", "real"), shapes=None):
    return Op(
        f"einsum_{eq.replace(',', '_').replace('->', '_to_')}",
        lambda lib, *xs: lib.einsum(eq, *xs),
        lambda *xs: np.einsum(eq, *xs),
        domains,
        shapes=shapes,
    )


OPS += [
    _unary("exp2", lambda lib, x: lib.exp2(x), np.exp2),
    _unary("expm1", lambda lib, x: x.expm1(), np.expm1),
    _unary("log2", lambda lib, x: lib.log2(x), np.log2, "pos"),
    _unary("log10", lambda lib, x: x.log10(), np.log10, "pos"),
    _unary("log1p", lambda lib, x: lib.log1p(x), np.log1p, "pos"),
    _unary("rsqrt", lambda lib, x: lib.rsqrt(x), lambda x: 1 / np.sqrt(x), "pos"),
    _unary("reciprocal", lambda lib, x: x.reciprocal(), lambda x: 1 / x, "nonzero"),
    _unary("tan", lambda lib, x: lib.tan(x), np.tan, "unit"),
    _unary("asin", lambda lib, x: lib.asin(x), np.arcsin, "unit", int_result=None),
    _unary("acos", lambda lib, x: x.acos(), np.arccos, "unit", int_result=None),
    _unary("atan", lambda lib, x: lib.atan(x), np.arctan),
    _unary("sinh", lambda lib, x: lib.sinh(x), np.sinh),
    _unary("cosh", lambda lib, x: x.cosh(), np.cosh),
    _unary("erf", lambda lib, x: lib.erf(x), np.vectorize(math.erf, otypes=[float])),
    _unary("floor", lambda lib, x: lib.floor(x), np.floor, "frac", int_result="same"),
    _unary("ceil", lambda lib, x: x.ceil(), np.ceil, "frac", int_result="same"),
    _unary("round", lambda lib, x: lib.round(x), np.round, "frac", int_result="same"),
    _unary(
        "round_decimals",
        lambda lib, x: lib.round(x * 0.37, decimals=2),
        lambda x: np.round(x * 0.37, 2),
        "frac",
        int_result=None,
    ),
    _unary("trunc", lambda lib, x: x.trunc(), np.trunc, "frac", int_result="same"),
    _unary(
        "clamp",
        lambda lib, x: lib.clamp(x, -0.5, 0.5),
        lambda x: np.clip(x, -0.5, 0.5),
        int_result="float32",
    ),
    _unary(
        "clamp_min",
        lambda lib, x: x.clamp(min=0.3),
        lambda x: np.maximum(x, 0.3),
        int_result="float32",
    ),
    _unary(
        "clip_max_int",
        lambda lib, x: lib.clip(x, max=1),
        lambda x: np.minimum(x, 1),
        int_result="same",
    ),
    _binary(
        "clamp_tensor_min",
        lambda lib, a, b: lib.clamp(a, min=b),
        np.maximum,
    ),
    Op(
        "clamp_tensor_bounds",
        lambda lib, x, lo, hi: x.clamp(lo, hi),
        lambda x, lo, hi: np.minimum(np.maximum(x, lo), hi),
        ("real", "real", "real"),
        shapes=TERNARY_SHAPES,
        elementwise=True,
    ),
    _binary("atan2", lambda lib, a, b: lib.atan2(a, b), np.arctan2, int_result="float32"),
    _binary("fmod", lambda lib, a, b: lib.fmod(a, b), np.fmod, ("real", "nonzero")),
    _binary("remainder", lambda lib, a, b: a.remainder(b), np.remainder, ("real", "nonzero")),
    _binary("remainder_operator", lambda lib, a, b: a % b, np.remainder, ("real", "nonzero")),
    _unary(
        "rmod_scalar",
        lambda lib, x: 5 % x,
        lambda x: np.remainder(5, x),
        "nonzero",
        int_result="same",
    ),
    _binary(
        "floor_divide_operator",
        lambda lib, a, b: a // b,
        np.floor_divide,
        ("real", "nonzero"),
        differentiable=False,
    ),
    _binary(
        "floor_divide",
        lambda lib, a, b: lib.floor_divide(a, b),
        np.floor_divide,
        ("real", "nonzero"),
        differentiable=False,
    ),
    _binary(
        "lerp",
        lambda lib, a, b: lib.lerp(a, b, 0.3),
        lambda a, b: a + 0.3 * (b - a),
        int_result=None,
    ),
    Op(
        "lerp_tensor_weight",
        lambda lib, a, b, w: a.lerp(b, w),
        lambda a, b, w: a + w * (b - a),
        ("real", "real", "real"),
        shapes=TERNARY_SHAPES,
        elementwise=True,
    ),
    _compare("logical_and", lambda lib, a, b: lib.logical_and(a, b), np.logical_and),
    _compare("logical_or", lambda lib, a, b: a.logical_or(b), np.logical_or),
    _compare("logical_xor", lambda lib, a, b: lib.logical_xor(a, b), np.logical_xor),
    Op(
        "logical_not",
        lambda lib, x: lib.logical_not(x),
        np.logical_not,
        ("int",),
        differentiable=False,
        int_result="bool",
        out_dtype="bool",
    ),
    Op(
        "isfinite",
        lambda lib, x: lib.isfinite(x / 0.0),
        lambda x: np.isfinite(_div0(x)),
        ("int",),
        differentiable=False,
        out_dtype="bool",
    ),
    Op(
        "isinf",
        lambda lib, x: (x / 0.0).isinf(),
        lambda x: np.isinf(_div0(x)),
        ("int",),
        differentiable=False,
        out_dtype="bool",
    ),
    Op(
        "isnan",
        lambda lib, x: lib.isnan(x / 0.0),
        lambda x: np.isnan(_div0(x)),
        ("int",),
        differentiable=False,
        out_dtype="bool",
    ),
    # reductions
    _reduce("prod", lambda lib, x: x.prod(), np.prod, "nonzero", UNARY_SHAPES, int_result="int64"),
    _reduce("prod_dim", lambda lib, x: lib.prod(x, 1), lambda x: np.prod(x, 1), "nonzero"),
    _reduce(
        "prod_keepdim",
        lambda lib, x: x.prod(-1, keepdim=True),
        lambda x: np.prod(x, -1, keepdims=True),
        "nonzero",
    ),
    _reduce(
        "amax",
        lambda lib, x: lib.amax(x, (0, -1)),
        lambda x: np.max(x, (0, -1)),
        shapes=EXTREMA_SHAPES[:3],
        layouts=NO_TIES,
        int_result="same",
    ),
    _reduce(
        "amin_keepdim",
        lambda lib, x: x.amin(0, keepdim=True),
        lambda x: np.min(x, 0, keepdims=True),
        shapes=EXTREMA_SHAPES,
        layouts=NO_TIES,
    ),
    _reduce("max", lambda lib, x: x.max(), np.max, shapes=EXTREMA_SHAPES, layouts=NO_TIES),
    _reduce("min", lambda lib, x: lib.min(x), np.min, shapes=EXTREMA_SHAPES, layouts=NO_TIES),
    _reduce(
        "max_dim_values",
        lambda lib, x: lib.max(x, 0).values,
        lambda x: np.max(x, 0),
        shapes=EXTREMA_SHAPES,
        layouts=NO_TIES,
        int_result="same",
    ),
    _reduce(
        "min_dim_keepdim",
        lambda lib, x: x.min(-1, keepdim=True)[0],
        lambda x: np.min(x, -1, keepdims=True),
        shapes=EXTREMA_SHAPES,
        layouts=NO_TIES,
    ),
    _reduce(
        "max_dim_indices",
        lambda lib, x: x.max(dim=-1).indices,
        lambda x: np.argmax(x, -1),
        shapes=EXTREMA_SHAPES,
        layouts=NO_TIES,
        differentiable=False,
        out_dtype="int64",
    ),
    _reduce(
        "argmax",
        lambda lib, x: lib.argmax(x),
        np.argmax,
        shapes=EXTREMA_SHAPES,
        layouts=NO_TIES,
        differentiable=False,
        out_dtype="int64",
        int_result="int64",
    ),
    _reduce(
        "argmin_dim",
        lambda lib, x: x.argmin(1),
        lambda x: np.argmin(x, 1),
        shapes=EXTREMA_SHAPES[:3],
        layouts=NO_TIES,
        differentiable=False,
        out_dtype="int64",
    ),
    _reduce(
        "var",
        lambda lib, x: x.var(),
        lambda x: np.var(x, ddof=1),
        shapes=SPREAD_SHAPES,
        layouts=NO_TIES,
    ),
    _reduce(
        "var_dim_biased",
        lambda lib, x: lib.var(x, 1, unbiased=False),
        lambda x: np.var(x, 1),
        shapes=EXTREMA_SHAPES[:3],
    ),
    _reduce(
        "var_correction_keepdim",
        lambda lib, x: x.var((0, 1), correction=0, keepdim=True),
        lambda x: np.var(x, (0, 1), keepdims=True),
        shapes=EXTREMA_SHAPES[:3],
    ),
    _reduce(
        "std",
        lambda lib, x: lib.std(x),
        lambda x: np.std(x, ddof=1),
        shapes=SPREAD_SHAPES,
        layouts=NO_TIES,
    ),
    _reduce(
        "std_dim",
        lambda lib, x: x.std(0),
        lambda x: np.std(x, 0, ddof=1),
        shapes=(((3, 4),), ((2, 3, 4),)),
        layouts=NO_TIES,
    ),
    _reduce("norm", lambda lib, x: x.norm(), lambda x: _norm(x, 2), shapes=EXTREMA_SHAPES),
    _reduce(
        "norm_1",
        lambda lib, x: lib.norm(x, 1),
        lambda x: _norm(x, 1),
        "nonzero",
        EXTREMA_SHAPES,
    ),
    _reduce(
        "norm_inf",
        lambda lib, x: x.norm(float("inf")),
        lambda x: _norm(x, np.inf),
        shapes=EXTREMA_SHAPES,
        layouts=NO_TIES,
    ),
    _reduce(
        "norm_fro_dim",
        lambda lib, x: x.norm("fro", dim=1),
        lambda x: _norm(x, 2, 1),
        shapes=EXTREMA_SHAPES[:3],
    ),
    _reduce(
        "norm_3_dim",
        lambda lib, x: lib.norm(x, 3, 0, True),
        lambda x: _norm(x, 3, 0)[None],
        "nonzero",
        EXTREMA_SHAPES[:3],
    ),
    _reduce(
        "logsumexp",
        lambda lib, x: lib.logsumexp(x, 1),
        lambda x: _logsumexp(x, 1),
        shapes=EXTREMA_SHAPES[:3],
    ),
    _reduce(
        "cumsum",
        lambda lib, x: x.cumsum(0),
        lambda x: np.cumsum(x, 0) if x.ndim else x,
        shapes=UNARY_SHAPES,
        int_result="int64",
    ),
    _reduce(
        "cumsum_last",
        lambda lib, x: lib.cumsum(x, -1),
        lambda x: np.cumsum(x, -1),
        shapes=REDUCE_SHAPES,
    ),
    _reduce(
        "cumprod",
        lambda lib, x: lib.cumprod(x, 1),
        lambda x: np.cumprod(x, 1),
        "nonzero",
        REDUCE_SHAPES,
        int_result="int64",
    ),
    _reduce(
        "all",
        lambda lib, x: x.all(),
        np.all,
        "int",
        UNARY_SHAPES,
        differentiable=False,
        out_dtype="bool",
        int_result="bool",
    ),
    _reduce(
        "any_dim",
        lambda lib, x: lib.any(x, 1),
        lambda x: np.any(x, 1),
        "int",
        REDUCE_SHAPES,
        differentiable=False,
        out_dtype="bool",
        int_result="bool",
    ),
    _reduce(
        "all_dim_keepdim",
        lambda lib, x: x.all(0, keepdim=True),
        lambda x: np.all(x, 0, keepdims=True),
        "int",
        REDUCE_SHAPES,
        differentiable=False,
        out_dtype="bool",
    ),
    # products
    Op(
        "matmul_batched",
        lambda lib, a, b: a @ b,
        np.matmul,
        ("real", "real"),
        shapes=BATCHED_MATMUL_SHAPES,
        int_result="same",
    ),
    Op(
        "bmm",
        lambda lib, a, b: lib.bmm(a, b),
        np.matmul,
        ("real", "real"),
        shapes=(((2, 3, 4), (2, 4, 5)), ((0, 2, 3), (0, 3, 1)), ((1, 1, 1), (1, 1, 1))),
    ),
    Op(
        "mv",
        lambda lib, a, v: a.mv(v),
        np.matmul,
        ("real", "real"),
        shapes=(((2, 3), (3,)), ((0, 3), (3,))),
    ),
    Op(
        "dot",
        lambda lib, a, b: lib.dot(a, b),
        np.dot,
        ("real", "real"),
        shapes=(((3,), (3,)), ((0,), (0,))),
    ),
    Op(
        "outer",
        lambda lib, a, b: lib.outer(a, b),
        np.outer,
        ("real", "real"),
        shapes=(((3,), (4,)), ((0,), (2,))),
    ),
    _einsum("ij,jk->ik", shapes=(((2, 3), (3, 4)),)),
    _einsum("bij,bjk->bik", shapes=(((2, 2, 3), (2, 3, 4)),)),
    _einsum("i,i->", shapes=(((3,), (3,)),)),
    _einsum("i,j->ij", shapes=(((3,), (4,)),)),
    _einsum("bi,bi->b", shapes=(((2, 3), (2, 3)),)),
    _einsum("ij,kj->ik", shapes=(((2, 3), (4, 3)),)),
    _einsum("ij->ji", ("real",), shapes=(((2, 3),),)),
    _einsum("ii->i", ("real",), shapes=(((3, 3),),)),
    _einsum("ij->", ("real",), shapes=(((2, 3),),)),
    _einsum("ij", ("real",), shapes=(((2, 3),),)),
]


# ---- special functions and less common pointwise ops (references in NumPy float64, built from
# Python's math module where NumPy has no such function) ----
_lgamma_ref = np.vectorize(math.lgamma, otypes=[float])


def _digamma_ref(x):
    """psi(x) for x > 0: the recurrence up to x >= 20, then the asymptotic series."""
    x = np.array(x, dtype=np.float64)
    acc = np.zeros_like(x)
    for _ in range(20):
        small = x < 20
        acc -= np.where(small, 1 / x, 0.0)
        x = np.where(small, x + 1, x)
    z = 1 / (x * x)
    series = z * (1 / 12 - z * (1 / 120 - z * (1 / 252 - z * (1 / 240 - z / 132))))
    return acc + np.log(x) - 0.5 / x - series


def _polygamma_ref(n, x):
    """psi^(n)(x) for n >= 1, x > 0: (-1)^(n+1) n! sum_k (x + k)^-(n+1), the tail by Euler-Maclaurin."""
    x = np.asarray(x, dtype=np.float64)
    terms = 2000
    k = np.arange(terms).reshape((terms,) + (1,) * x.ndim)
    head = np.sum((x + k) ** -(n + 1.0), axis=0)
    y = x + terms
    tail = y**-n / n + 0.5 * y ** -(n + 1.0) + (n + 1) / 12 * y ** -(n + 2.0)
    return (-1) ** (n + 1) * math.factorial(n) * (head + tail)


def _erfinv_ref(y):
    """erf^-1 by Newton's method on math.erf, from 0 (convergent for |y| < 1)."""
    y = np.asarray(y, dtype=np.float64)
    erf = np.vectorize(math.erf, otypes=[float])
    x = np.zeros_like(y)
    for _ in range(60):
        x = x - (erf(x) - y) / (2 / math.sqrt(math.pi) * np.exp(-x * x))
    return x


def _igamma_ref(a, x):
    """P(a, x) by its power series (x small against the number of terms)."""
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    term = np.ones_like(x)
    total = np.ones_like(x)
    for k in range(1, 200):
        term = term * x / (a + k)
        total = total + term
    log_prefix = a * np.log(x) - x - _lgamma_ref(a + 1)
    return np.exp(log_prefix) * total


def _mvlgamma_ref(x, p):
    return sum(_lgamma_ref(x - j / 2) for j in range(p)) + p * (p - 1) / 4 * math.log(math.pi)


OPS += [
    _unary("acosh", lambda lib, x: lib.acosh(x + 1.5), lambda x: np.arccosh(x + 1.5), "pos"),
    _unary("asinh", lambda lib, x: lib.asinh(x), np.arcsinh),
    _unary("atanh", lambda lib, x: x.atanh(), np.arctanh, "unit", int_result=None),
    _unary("lgamma", lambda lib, x: lib.lgamma(x), _lgamma_ref, "pos"),
    _unary("digamma", lambda lib, x: x.digamma(), _digamma_ref, "pos"),
    _unary(
        "polygamma_1", lambda lib, x: lib.polygamma(1, x), lambda x: _polygamma_ref(1, x), "pos"
    ),
    _unary("polygamma_2", lambda lib, x: x.polygamma(2), lambda x: _polygamma_ref(2, x), "pos"),
    _unary(
        "polygamma_3", lambda lib, x: lib.polygamma(3, x), lambda x: _polygamma_ref(3, x), "pos"
    ),
    _unary(
        "mvlgamma",
        lambda lib, x: lib.mvlgamma(x + 1.5, 3),
        lambda x: _mvlgamma_ref(x + 1.5, 3),
        "pos",
    ),
    _unary("erfc", lambda lib, x: lib.erfc(x), np.vectorize(math.erfc, otypes=[float])),
    _unary("erfinv", lambda lib, x: lib.erfinv(x), _erfinv_ref, "unit", int_result=None),
    _unary("i0", lambda lib, x: lib.i0(x), np.i0),
    _unary("sinc", lambda lib, x: lib.sinc(x), np.sinc, "nonzero"),
    _unary("frac", lambda lib, x: x.frac(), lambda x: x - np.trunc(x), "frac", int_result=None),
    _unary("deg2rad", lambda lib, x: lib.deg2rad(x), np.deg2rad),
    _unary("rad2deg", lambda lib, x: x.rad2deg(), np.rad2deg),
    Op(
        "signbit",
        lambda lib, x: lib.signbit(x),
        np.signbit,
        ("real",),
        differentiable=False,
        int_result="bool",
        out_dtype="bool",
    ),
    _unary(
        "frexp_mantissa",
        lambda lib, x: lib.frexp(x).mantissa,
        lambda x: np.frexp(x)[0],
        "nonzero",
        int_result=None,
    ),
    _unary(
        "igamma",
        lambda lib, x: lib.igamma(lib.full_like(x, 1.7), x),
        lambda x: _igamma_ref(1.7, x),
        "pos",
        int_result=None,
    ),
    _unary(
        "igammac",
        lambda lib, x: lib.full_like(x, 0.8).igammac(x),
        lambda x: 1 - _igamma_ref(0.8, x),
        "pos",
        int_result=None,
    ),
    _binary(
        "copysign",
        lambda lib, a, b: lib.copysign(a, b),
        np.copysign,
        ("nonzero", "nonzero"),
        int_result="float32",
    ),
    _binary(
        "heaviside",
        lambda lib, a, b: lib.heaviside(a, b),
        np.heaviside,
        ("int", "real"),
        differentiable=False,
    ),
    _binary(
        "nextafter",
        lambda lib, a, b: lib.nextafter(a, b),
        np.nextafter,
        differentiable=False,
        int_result=None,
    ),
    _binary("fmax", lambda lib, a, b: lib.fmax(a, b), np.fmax),
    _binary("fmin", lambda lib, a, b: a.fmin(b), np.fmin),
    _binary("logaddexp", lambda lib, a, b: lib.logaddexp(a, b), np.logaddexp, int_result=None),
    _binary("logaddexp2", lambda lib, a, b: a.logaddexp2(b), np.logaddexp2, int_result=None),
    _binary(
        "ldexp", lambda lib, a, b: lib.ldexp(a, b), lambda a, b: a * 2.0**b, int_result="float32"
    ),
    _binary(
        "hypot",
        lambda lib, a, b: lib.hypot(a, b),
        np.hypot,
        ("nonzero", "nonzero"),
        int_result=None,
    ),
    _binary(
        "xlogy",
        lambda lib, a, b: lib.xlogy(a, b),
        lambda a, b: a * np.log(b),
        ("real", "pos"),
        int_result="float32",
    ),
    _unary(
        "xlogy_scalar_other",
        lambda lib, x: x.xlogy(2.5),
        lambda x: x * math.log(2.5),
        int_result="float32",
    ),
    _unary(
        "logit",
        lambda lib, x: lib.logit(x * 0.4 + 0.5),
        lambda x: np.log((x * 0.4 + 0.5) / (1 - (x * 0.4 + 0.5))),
        "unit",
        int_result=None,
    ),
    _unary(
        "logit_eps",
        lambda lib, x: x.logit(eps=0.05),
        lambda x: np.log(np.clip(x, 0.05, 0.95) / (1 - np.clip(x, 0.05, 0.95))),
        "unit",
        int_result=None,
    ),
    _binary(
        "float_power",
        lambda lib, a, b: lib.float_power(a, b),
        np.power,
        ("pos", "real"),
        int_result="float64",
        out_dtype="float64",
    ),
]

# ---- linear algebra, fused products, scans, selections, statistics and nn.functional ----
# Matrix inputs are made safe inside fn, so every random sample is a valid input:
# _dominant adds 3n to the diagonal (invertible, well conditioned) and _spd forms A A^T + n I
# (symmetric positive definite). Factorisation outputs that are unique only up to signs are
# normalised (QR) or combined into basis-independent results (SVD's U V^H, eigh's V e^L V^T).
LINALG_RTOL = 1e-4
SQUARE_SHAPES = (((3, 3),), ((2, 3, 3),), ((1, 1),), ((0, 2, 2),))
FULL_RANK_SHAPES = (((3, 4),), ((4, 3),), ((2, 3, 3),), ((1, 1),))


def _eye(lib, a):
    return lib.eye(a.shape[-1], dtype=a.dtype)


def _dominant(lib, a):
    return a + 3 * a.shape[-1] * _eye(lib, a)


def _spd(lib, a):
    return a @ a.mT + a.shape[-1] * _eye(lib, a)


def _np_dominant(a):
    return a + 3 * a.shape[-1] * np.eye(a.shape[-1])


def _np_spd(a):
    return a @ np.swapaxes(a, -1, -2) + a.shape[-1] * np.eye(a.shape[-1])


def _np_expm(a):
    """exp(a) by scaling and squaring around a Taylor series (float64 accurate for small a)."""
    norm = np.abs(a).sum(-1).max() if a.size else 0.0
    s = max(0, int(np.ceil(np.log2(max(norm, 1e-300)))) + 1)
    x = a / 2.0**s
    term = np.broadcast_to(np.eye(a.shape[-1]), a.shape).copy()
    out = term.copy()
    for k in range(1, 30):
        term = term @ x / k
        out = out + term
    for _ in range(s):
        out = out @ out
    return out


def _qr_normalised(lib, a, part):
    q, r = lib.linalg.qr(a)
    s = lib.sign(lib.diagonal(r, 0, -2, -1))
    return q * s.unsqueeze(-2) if part == 0 else r * s.unsqueeze(-1)


def _np_qr_normalised(a, part):
    q, r = np.linalg.qr(a)
    s = np.sign(np.diagonal(r, axis1=-2, axis2=-1))
    return q * s[..., None, :] if part == 0 else r * s[..., :, None]


def _np_svd_polar(a):
    u, _, vh = np.linalg.svd(a, full_matrices=False)
    return u @ vh


def _eigh_exp(lib, a):
    evals, evecs = lib.linalg.eigh(a + a.mT)
    return (evecs * evals.exp().unsqueeze(-2)) @ evecs.mT


def _np_eigh_exp(a):
    evals, evecs = np.linalg.eigh(a + np.swapaxes(a, -1, -2))
    return (evecs * np.exp(evals)[..., None, :]) @ np.swapaxes(evecs, -1, -2)


def _linalg(name, fn, ref, domains=("real",), shapes=SQUARE_SHAPES, **kw):
    kw.setdefault("f32_rtol", LINALG_RTOL)
    if isinstance(domains, str):
        domains = (domains,)
    return Op(name, fn, ref, domains, shapes=shapes, **kw)


LINALG_OPS = [
    _linalg(
        "linalg_inv",
        lambda lib, a: lib.linalg.inv(_dominant(lib, a)),
        lambda a: np.linalg.inv(_np_dominant(a)),
    ),
    _linalg(
        "inverse",
        lambda lib, a: _dominant(lib, a).inverse(),
        lambda a: np.linalg.inv(_np_dominant(a)),
        shapes=SQUARE_SHAPES[:2],
    ),
    _linalg(
        "linalg_det",
        lambda lib, a: lib.linalg.det(_dominant(lib, a)),
        lambda a: np.linalg.det(_np_dominant(a)),
    ),
    _linalg(
        "linalg_slogdet",
        lambda lib, a: lib.linalg.slogdet(_spd(lib, a)).logabsdet,
        lambda a: np.linalg.slogdet(_np_spd(a))[1],
    ),
    _linalg(
        "logdet",
        lambda lib, a: lib.logdet(_spd(lib, a)),
        lambda a: np.linalg.slogdet(_np_spd(a))[1],
        shapes=SQUARE_SHAPES[:3],
    ),
    _linalg(
        "linalg_solve",
        lambda lib, a, b: lib.linalg.solve(_dominant(lib, a), b),
        lambda a, b: np.linalg.solve(_np_dominant(a), b),
        ("real", "real"),
        shapes=(
            ((3, 3), (3, 2)),
            ((2, 3, 3), (2, 3, 1)),
            ((3, 3), (3,)),
            ((1, 1), (1, 1)),
            ((0, 2, 2), (0, 2, 1)),
        ),
    ),
    _linalg(
        "linalg_solve_triangular",
        lambda lib, a, b: lib.linalg.solve_triangular(lib.tril(_dominant(lib, a)), b, upper=False),
        lambda a, b: np.linalg.solve(np.tril(_np_dominant(a)), b),
        ("real", "real"),
        shapes=(((3, 3), (3, 2)), ((2, 3, 3), (2, 3, 4)), ((1, 1), (1, 1))),
    ),
    _linalg(
        "linalg_cholesky",
        lambda lib, a: lib.linalg.cholesky(_spd(lib, a)),
        lambda a: np.linalg.cholesky(_np_spd(a)),
    ),
    _linalg(
        "linalg_qr_q",
        lambda lib, a: _qr_normalised(lib, a, 0),
        lambda a: _np_qr_normalised(a, 0),
        shapes=(((3, 3),), ((4, 3),), ((2, 3, 2),), ((1, 1),)),
        layouts=NO_TIES,
    ),
    _linalg(
        "linalg_qr_r",
        lambda lib, a: _qr_normalised(lib, a, 1),
        lambda a: _np_qr_normalised(a, 1),
        shapes=(((3, 3),), ((4, 3),), ((2, 3, 2),), ((1, 1),)),
        layouts=NO_TIES,
    ),
    _linalg(
        "linalg_svdvals",
        lambda lib, a: lib.linalg.svdvals(a),
        lambda a: np.linalg.svd(a, compute_uv=False),
        "nonzero",
        FULL_RANK_SHAPES,
        layouts=NO_TIES,
    ),
    _linalg(
        "linalg_svd_polar",
        lambda lib, a: (lambda usv: usv[0] @ usv[2])(lib.linalg.svd(a, full_matrices=False)),
        _np_svd_polar,
        "nonzero",
        FULL_RANK_SHAPES,
        layouts=NO_TIES,
    ),
    _linalg(
        "linalg_eigvalsh",
        lambda lib, a: lib.linalg.eigvalsh(a + a.mT),
        lambda a: np.linalg.eigvalsh(a + np.swapaxes(a, -1, -2)),
        layouts=NO_TIES,
    ),
    _linalg("linalg_eigh_exp", _eigh_exp, _np_eigh_exp, layouts=NO_TIES),
    _linalg(
        "linalg_pinv",
        lambda lib, a: lib.linalg.pinv(a + 2 * lib.eye(*a.shape[-2:], dtype=a.dtype)),
        lambda a: np.linalg.pinv(a + 2 * np.eye(*a.shape[-2:])),
        "nonzero",
        (((3, 4),), ((4, 3),), ((2, 2, 3),), ((1, 1),)),
        layouts=NO_TIES,
        f32_rtol=1e-3,
    ),
    _linalg(
        "linalg_matrix_power_3",
        lambda lib, a: lib.linalg.matrix_power(a, 3),
        lambda a: np.linalg.matrix_power(a, 3),
    ),
    _linalg(
        "matrix_power_negative",
        lambda lib, a: _dominant(lib, a).matrix_power(-2),
        lambda a: np.linalg.matrix_power(_np_dominant(a), -2),
        shapes=SQUARE_SHAPES[:3],
    ),
    _linalg(
        "linalg_matrix_exp",
        lambda lib, a: lib.linalg.matrix_exp(a * 0.5),
        lambda a: _np_expm(a * 0.5),
    ),
    _linalg(
        "linalg_vector_norm",
        lambda lib, x: lib.linalg.vector_norm(x),
        lambda x: _norm(x, 2),
        shapes=EXTREMA_SHAPES,
    ),
    _linalg(
        "linalg_vector_norm_3_dim",
        lambda lib, x: lib.linalg.vector_norm(x, 3, dim=-1, keepdim=True),
        lambda x: _norm(x, 3, -1)[..., None],
        "nonzero",
        EXTREMA_SHAPES,
    ),
    _linalg(
        "linalg_matrix_norm_fro",
        lambda lib, x: lib.linalg.matrix_norm(x),
        lambda x: np.sqrt(np.sum(x * x, axis=(-2, -1))),
        shapes=(((3, 4),), ((2, 3, 4),), ((1, 1),)),
    ),
    _linalg(
        "linalg_matrix_norm_nuc",
        lambda lib, x: lib.linalg.matrix_norm(x, "nuc"),
        lambda x: np.linalg.norm(x, "nuc", axis=(-2, -1)),
        "nonzero",
        FULL_RANK_SHAPES,
        layouts=NO_TIES,
    ),
    _linalg(
        "linalg_matrix_norm_2",
        lambda lib, x: lib.linalg.matrix_norm(x, 2),
        lambda x: np.linalg.norm(x, 2, axis=(-2, -1)),
        "nonzero",
        FULL_RANK_SHAPES,
        layouts=NO_TIES,
    ),
    _linalg(
        "linalg_norm",
        lambda lib, x: lib.linalg.norm(x, dim=1),
        lambda x: _norm(x, 2, 1),
        shapes=EXTREMA_SHAPES[:3],
    ),
    _linalg(
        "linalg_multi_dot",
        lambda lib, a, b, c: lib.linalg.multi_dot([a, b, c]),
        lambda a, b, c: a @ b @ c,
        ("real", "real", "real"),
        shapes=(((2, 3), (3, 4), (4, 2)), ((3,), (3, 4), (4,)), ((1, 1), (1, 1), (1, 1))),
    ),
    _linalg(
        "linalg_vecdot",
        lambda lib, a, b: lib.linalg.vecdot(a, b),
        lambda a, b: np.sum(a * b, -1),
        ("real", "real"),
        shapes=(((3, 4), (3, 4)), ((2, 3, 4), (4,)), ((0, 3), (3,))),
    ),
    _linalg(
        "linalg_cross",
        lambda lib, a, b: lib.linalg.cross(a, b),
        lambda a, b: np.cross(a, b),
        ("real", "real"),
        shapes=(((4, 3), (4, 3)), ((2, 1, 3), (1, 4, 3)), ((3,), (3,))),
    ),
    _linalg(
        "linalg_lstsq",
        lambda lib, a, b: lib.linalg.lstsq(a, b).solution,
        lambda a, b: np.linalg.lstsq(a, b, rcond=None)[0],
        ("nonzero", "real"),
        shapes=(((4, 3), (4, 2)), ((5, 2), (5, 1))),
        layouts=NO_TIES,
        f32_rtol=1e-3,
    ),
]


def _np_logcumsumexp(x, axis):
    return np.logaddexp.accumulate(x, axis=axis)


def _np_renorm(x, p, dim, maxnorm):
    axes = tuple(a for a in range(x.ndim) if a != dim)
    norms = np.sum(np.abs(x) ** p, axis=axes, keepdims=True) ** (1.0 / p)
    return x * np.where(norms > maxnorm, maxnorm / (norms + 1e-7), 1.0)


PRODUCT_AND_SCAN_OPS = [
    Op(
        "addmm",
        lambda lib, c, a, b: lib.addmm(c, a, b, beta=0.5, alpha=2.0),
        lambda c, a, b: 0.5 * c + 2.0 * (a @ b),
        ("real", "real", "real"),
        shapes=(((3, 4), (3, 2), (2, 4)), ((4,), (3, 2), (2, 4)), ((), (0, 2), (2, 4))),
    ),
    Op(
        "addmv",
        lambda lib, c, a, v: c.addmv(a, v, alpha=-1.5),
        lambda c, a, v: c - 1.5 * (a @ v),
        ("real", "real", "real"),
        shapes=(((3,), (3, 4), (4,)), ((), (2, 3), (3,))),
    ),
    Op(
        "addr",
        lambda lib, c, a, b: lib.addr(c, a, b, beta=2.0),
        lambda c, a, b: 2.0 * c + np.outer(a, b),
        ("real", "real", "real"),
        shapes=(((3, 4), (3,), (4,)), ((1, 4), (3,), (4,))),
    ),
    Op(
        "baddbmm",
        lambda lib, c, a, b: lib.baddbmm(c, a, b, beta=0.5, alpha=1.5),
        lambda c, a, b: 0.5 * c + 1.5 * (a @ b),
        ("real", "real", "real"),
        shapes=(((2, 3, 4), (2, 3, 5), (2, 5, 4)), ((3, 4), (2, 3, 2), (2, 2, 4))),
    ),
    Op(
        "addbmm",
        lambda lib, c, a, b: c.addbmm(a, b),
        lambda c, a, b: c + np.sum(a @ b, 0),
        ("real", "real", "real"),
        shapes=(((3, 4), (2, 3, 5), (2, 5, 4)), ((4,), (1, 3, 2), (1, 2, 4))),
    ),
    Op(
        "kron",
        lambda lib, a, b: lib.kron(a, b),
        np.kron,
        ("real", "real"),
        shapes=(((2, 3), (2, 2)), ((3,), (2,))),
    ),
    Op(
        "inner",
        lambda lib, a, b: lib.inner(a, b),
        np.inner,
        ("real", "real"),
        shapes=(((3, 4), (2, 4)), ((4,), (4,)), ((2, 3, 4), (4,))),
    ),
    Op(
        "tensordot",
        lambda lib, a, b: lib.tensordot(a, b, dims=2),
        lambda a, b: np.tensordot(a, b, 2),
        ("real", "real"),
        shapes=(((2, 3, 4), (3, 4, 2)), ((3, 4), (3, 4))),
    ),
    Op(
        "tensordot_dims_lists",
        lambda lib, a, b: lib.tensordot(a, b, dims=([0], [1])),
        lambda a, b: np.tensordot(a, b, ([0], [1])),
        ("real", "real"),
        shapes=(((3, 4), (2, 3)),),
    ),
    Op(
        "trace",
        lambda lib, x: lib.trace(x),
        np.trace,
        ("real",),
        shapes=(((3, 4),), ((3, 3),), ((1, 1),), ((0, 3),)),
    ),
    Op(
        "vdot",
        lambda lib, a, b: lib.vdot(a, b),
        np.vdot,
        ("real", "real"),
        shapes=(((3,), (3,)), ((0,), (0,))),
    ),
    Op(
        "cross",
        lambda lib, a, b: lib.cross(a, b, dim=1),
        lambda a, b: np.cross(a, b, axis=1),
        ("real", "real"),
        shapes=(((4, 3), (4, 3)), ((2, 3, 2), (2, 3, 2))),
    ),
    Op(
        "cdist",
        lambda lib, a, b: lib.cdist(a, b),
        lambda a, b: np.sqrt(np.sum((a[..., :, None, :] - b[..., None, :, :]) ** 2, -1)),
        ("real", "real"),
        shapes=(((4, 3), (5, 3)), ((2, 3, 2), (2, 4, 2))),
    ),
    Op(
        "cdist_p1",
        lambda lib, a, b: lib.cdist(a, b, p=1.0),
        lambda a, b: np.sum(np.abs(a[..., :, None, :] - b[..., None, :, :]), -1),
        ("real", "real"),
        shapes=(((4, 3), (5, 3)),),
    ),
    Op(
        "dist",
        lambda lib, a, b: lib.dist(a, b, 3),
        lambda a, b: _norm(a - b, 3),
        ("real", "real"),
        shapes=(((3, 4), (3, 4)), ((2, 3), (3,))),
    ),
    _reduce(
        "logcumsumexp",
        lambda lib, x: lib.logcumsumexp(x, 1),
        lambda x: _np_logcumsumexp(x, 1),
    ),
    _reduce(
        "cummax_values",
        lambda lib, x: lib.cummax(x, 1).values,
        lambda x: np.maximum.accumulate(x, 1),
        layouts=NO_TIES,
    ),
    _reduce(
        "cummin_values",
        lambda lib, x: x.cummin(-1)[0],
        lambda x: np.minimum.accumulate(x, -1),
        layouts=NO_TIES,
    ),
    _reduce("diff", lambda lib, x: lib.diff(x), lambda x: np.diff(x), shapes=REDUCE_SHAPES),
    _reduce(
        "diff_n2_dim0",
        lambda lib, x: x.diff(n=2, dim=0),
        lambda x: np.diff(x, 2, 0),
        shapes=(((4, 3),), ((3, 2, 2),)),
    ),
    _reduce(
        "trapezoid",
        lambda lib, x: lib.trapezoid(x, dx=0.5),
        lambda x: np.trapezoid(x, dx=0.5),
        shapes=(((3, 4),), ((2, 3, 4),), ((5,),)),
    ),
    _reduce(
        "cumulative_trapezoid",
        lambda lib, x: lib.cumulative_trapezoid(x, dim=0),
        lambda x: np.cumsum((x[1:] + x[:-1]) / 2, 0),
        shapes=(((3, 4),), ((2, 3, 4),), ((5,),)),
    ),
    # selections
    _reduce(
        "take_along_dim",
        lambda lib, x: x.take_along_dim(_lib_index(lib, _GATHER), 0),
        lambda x: _np_gather(x, _GATHER),
        shapes=(((3, 4),),),
    ),
    _reduce(
        "sort_descending",
        lambda lib, x: lib.sort(x, dim=-1, descending=True).values,
        lambda x: -np.sort(-x, -1),
        layouts=NO_TIES,
    ),
    _reduce(
        "msort",
        lambda lib, x: lib.msort(x),
        lambda x: np.sort(x, 0),
        shapes=REDUCE_SHAPES,
        layouts=NO_TIES,
    ),
    _reduce(
        "topk",
        lambda lib, x: x.topk(2).values,
        lambda x: -np.sort(-x, -1)[..., :2],
        shapes=(((3, 4),), ((2, 3, 4),), ((0, 3),)),
        layouts=NO_TIES,
    ),
    _reduce(
        "topk_smallest_dim0",
        lambda lib, x: lib.topk(x, 2, 0, largest=False)[0],
        lambda x: np.sort(x, 0)[:2],
        shapes=(((3, 4),), ((2, 3, 4),)),
        layouts=NO_TIES,
    ),
    _reduce(
        "kthvalue",
        lambda lib, x: lib.kthvalue(x, 2, 1).values,
        lambda x: np.sort(x, 1)[:, 1],
        shapes=(((3, 4),), ((2, 3, 4),)),
        layouts=NO_TIES,
    ),
    _reduce(
        "median_dim",
        lambda lib, x: x.median(dim=-1).values,
        lambda x: np.sort(x, -1)[..., (x.shape[-1] - 1) // 2],
        shapes=(((3, 4),), ((2, 3, 5),)),
        layouts=NO_TIES,
    ),
    _reduce(
        "median",
        lambda lib, x: lib.median(x),
        lambda x: np.sort(x, None)[(x.size - 1) // 2],
        shapes=(((3, 4),), ((5,),)),
        layouts=NO_TIES,
    ),
    _reduce(
        "quantile",
        lambda lib, x: lib.quantile(x, 0.3, dim=1),
        lambda x: np.quantile(x, 0.3, axis=1),
        shapes=(((3, 4),), ((2, 5, 2),)),
        layouts=NO_TIES,
    ),
    _reduce(
        "masked_select",
        lambda lib, x: x.masked_select(x > 0),
        lambda x: x[x > 0],
        "nonzero",
        shapes=(((3, 4),), ((2, 3, 4),), ((0, 3),)),
    ),
    # statistics
    _reduce(
        "cov",
        lambda lib, x: lib.cov(x),
        lambda x: np.cov(x),
        shapes=(((3, 5),), ((5,),)),
    ),
    _reduce(
        "cov_correction0",
        lambda lib, x: x.cov(correction=0),
        lambda x: np.cov(x, ddof=0),
        shapes=(((2, 4),),),
    ),
    _reduce(
        "corrcoef",
        lambda lib, x: lib.corrcoef(x),
        lambda x: np.corrcoef(x),
        shapes=(((3, 5),),),
        layouts=NO_TIES,
    ),
    _reduce(
        "var_mean",
        lambda lib, x: (lambda vm: vm[0] + 2 * vm[1])(lib.var_mean(x, 1)),
        lambda x: np.var(x, 1, ddof=1) + 2 * np.mean(x, 1),
        shapes=(((3, 4),), ((2, 3, 4),)),
    ),
    _reduce(
        "std_mean",
        lambda lib, x: (lambda sm: sm[0] - sm[1])(lib.std_mean(x, (0, 1), correction=0)),
        lambda x: np.std(x, (0, 1)) - np.mean(x, (0, 1)),
        shapes=(((3, 4),), ((2, 3, 4),)),
        layouts=NO_TIES,
    ),
    _reduce("nansum", lambda lib, x: lib.nansum(x, 0), lambda x: np.sum(x, 0)),
    _reduce(
        "nanmean",
        lambda lib, x: x.nanmean(-1),
        lambda x: _mean(x, -1),
        shapes=(((3, 4),), ((2, 3, 4),)),
    ),
    _reduce(
        "renorm",
        lambda lib, x: x.renorm(2, 0, 2.0),
        lambda x: _np_renorm(x, 2, 0, 2.0),
        shapes=(((3, 4),), ((2, 3, 4),)),
    ),
    # joining and shape
    Op(
        "hstack",
        lambda lib, a, b: lib.hstack([a, b]),
        lambda a, b: np.hstack([a, b]),
        ("real", "real"),
        shapes=(((3, 2), (3, 4)), ((2,), (3,)), ((2, 0, 3), (2, 1, 3))),
    ),
    Op(
        "vstack",
        lambda lib, a, b: lib.vstack([a, b]),
        lambda a, b: np.vstack([a, b]),
        ("real", "real"),
        shapes=(((2, 3), (1, 3)), ((3,), (3,)), ((0, 3), (2, 3))),
    ),
    Op(
        "dstack",
        lambda lib, a, b: lib.dstack([a, b]),
        lambda a, b: np.dstack([a, b]),
        ("real", "real"),
        shapes=(((2, 3), (2, 3)), ((3,), (3,))),
    ),
    Op(
        "column_stack",
        lambda lib, a, b: lib.column_stack([a, b]),
        lambda a, b: np.column_stack([a, b]),
        ("real", "real"),
        shapes=(((3,), (3, 2)),),
    ),
    Op(
        "block_diag",
        lambda lib, a, b: lib.block_diag(a, b),
        lambda a, b: np.block(
            [[a, np.zeros((a.shape[0], b.shape[1]))], [np.zeros((b.shape[0], a.shape[1])), b]]
        ),
        ("real", "real"),
        shapes=(((2, 3), (1, 2)), ((2, 2), (0, 3))),
    ),
    _reduce(
        "rot90",
        lambda lib, x: lib.rot90(x, 1, (0, 1)),
        lambda x: np.rot90(x, 1, (0, 1)),
        shapes=REDUCE_SHAPES,
    ),
    _reduce(
        "movedim",
        lambda lib, x: lib.movedim(x, 0, -1),
        lambda x: np.moveaxis(x, 0, -1),
        shapes=ND_SHAPES + ((((0, 3),),)),
    ),
    _reduce(
        "tile",
        lambda lib, x: x.tile((2, 1)),
        lambda x: np.tile(x, (2, 1)),
        shapes=UNARY_SHAPES,
    ),
    _reduce(
        "repeat_interleave",
        lambda lib, x: x.repeat_interleave(2, dim=0),
        lambda x: np.repeat(x, 2, 0),
        shapes=REDUCE_SHAPES,
    ),
    _reduce(
        "atleast_3d",
        lambda lib, x: lib.atleast_3d(x),
        np.atleast_3d,
        shapes=UNARY_SHAPES,
    ),
    Op(
        "cartesian_prod",
        lambda lib, a, b: lib.cartesian_prod(a, b),
        lambda a, b: np.stack(np.meshgrid(a, b, indexing="ij"), -1).reshape(-1, 2),
        ("real", "real"),
        shapes=(((3,), (2,)),),
    ),
]


# nn.functional. Targets and fixed arguments come from _fixed (deterministic values of a shape),
# built the same way in both libraries, so only the inputs under test carry gradients.
_erf = np.vectorize(math.erf, otypes=[float])
_SELU = (1.0507009873554804934193349852946, 1.6732632423543772848170429916717)


def _F(lib):
    return lib.nn.functional


def _fixed_np(shape, lo=-1.0, hi=1.0):
    n = int(np.prod(shape, dtype=np.int64))
    return (lo + (hi - lo) * (0.5 + 0.5 * np.sin(np.arange(n) * 1.7 + 0.3))).reshape(shape)


def _fixed(lib, like, lo=-1.0, hi=1.0, shape=None):
    values = _fixed_np(tuple(like.shape) if shape is None else shape, lo, hi)
    return _tensor(lib, values, like.dtype)


def _np_softmax(x, axis):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True)) if x.size else x
    return e / np.sum(e, axis=axis, keepdims=True)


def _np_log_softmax(x, axis):
    return np.log(_np_softmax(x, axis))


def _np_softplus(x, beta=1.0):
    return np.log1p(np.exp(beta * x)) / beta


def _np_normalize(x, axis):
    return x / np.maximum(np.sqrt(np.sum(x * x, axis=axis, keepdims=True)), 1e-12)


def _np_layer_norm(x, ndim, w, b, eps=1e-5):
    axes = tuple(range(-ndim, 0))
    mean = x.mean(axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axes, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * w + b


def _np_group_norm(x, groups, w, b, eps=1e-5):
    n, c = x.shape[:2]
    g = x.reshape(n, groups, -1)
    mean = g.mean(-1, keepdims=True)
    var = ((g - mean) ** 2).mean(-1, keepdims=True)
    y = ((g - mean) / np.sqrt(var + eps)).reshape(x.shape)
    bshape = (1, c) + (1,) * (x.ndim - 2)
    return y * w.reshape(bshape) + b.reshape(bshape)


def _np_batch_norm(x, w, b, eps=1e-5):
    axes = (0,) + tuple(range(2, x.ndim))
    mean = x.mean(axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axes, keepdims=True)
    bshape = (1, x.shape[1]) + (1,) * (x.ndim - 2)
    return (x - mean) / np.sqrt(var + eps) * w.reshape(bshape) + b.reshape(bshape)


def _np_conv(x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
    """N-d cross-correlation over the trailing dims of x (N, C, *spatial), as conv1d/2d compute."""
    nsp = x.ndim - 2
    x = np.pad(x, ((0, 0), (0, 0)) + ((padding, padding),) * nsp)
    k = w.shape[2:]
    out_sp = [(x.shape[2 + i] - dilation * (k[i] - 1) - 1) // stride + 1 for i in range(nsp)]
    cin_g, cout_g = w.shape[1], w.shape[0] // groups
    out = np.zeros((x.shape[0], w.shape[0], *out_sp))
    for offset in np.ndindex(*k):
        window = tuple(
            slice(offset[i] * dilation, offset[i] * dilation + stride * (out_sp[i] - 1) + 1, stride)
            for i in range(nsp)
        )
        patch = x[(slice(None), slice(None)) + window]
        for g in range(groups):
            wg = w[(slice(g * cout_g, (g + 1) * cout_g), slice(None)) + offset]
            pg = patch[:, g * cin_g : (g + 1) * cin_g]
            out[:, g * cout_g : (g + 1) * cout_g] += np.einsum("oc,nc...->no...", wg, pg)
    if b is not None:
        out += b.reshape((1, -1) + (1,) * nsp)
    return out


def _np_pool(x, k, reduce):
    """Non-overlapping k-window pooling over the trailing len(k) dims (sizes divisible by k)."""
    nsp = len(k)
    lead = x.shape[:-nsp]
    shape = list(lead)
    for size, kk in zip(x.shape[-nsp:], k):
        shape += [size // kk, kk]
    y = x.reshape(shape)
    axes = tuple(len(lead) + 2 * i + 1 for i in range(nsp))
    return reduce(y, axis=axes)


def _linear_matrix(n_in, n_out, align_corners):
    """The (n_out, n_in) matrix of 1-d linear interpolation as interpolate computes it."""
    m = np.zeros((n_out, n_in))
    for o in range(n_out):
        if align_corners:
            src = o * (n_in - 1) / (n_out - 1) if n_out > 1 else 0.0
        else:
            src = max((o + 0.5) * n_in / n_out - 0.5, 0.0)
        lo = min(int(np.floor(src)), n_in - 1)
        hi = min(lo + 1, n_in - 1)
        m[o, lo] += 1 - (src - lo)
        m[o, hi] += src - lo
    return m


def _np_bilinear_resize(x, size, align_corners):
    mh = _linear_matrix(x.shape[-2], size[0], align_corners)
    mw = _linear_matrix(x.shape[-1], size[1], align_corners)
    return np.einsum("oh,...hw,pw->...op", mh, x, mw)


def _np_ce(x, targets, smoothing=0.0):
    logp = _np_log_softmax(x, 1)
    c = x.shape[1]
    picked = np.take_along_axis(logp, np.expand_dims(targets, 1), 1).squeeze(1)
    loss = -(1 - smoothing) * picked - smoothing / c * logp.sum(1)
    return loss.mean()


_CE_TARGETS = np.array([1, 0, 3])
_CE_TARGETS_2D = np.array([[2, 0, 1], [1, 1, 0]])


def _act(name, fn, ref, domain="real", **kw):
    return _unary(name, fn, ref, domain, int_result=None, **kw)


NN_OPS = [
    _act(
        "gelu",
        lambda lib, x: _F(lib).gelu(x),
        lambda x: 0.5 * x * (1 + _erf(x / math.sqrt(2))),
    ),
    _act(
        "gelu_tanh",
        lambda lib, x: _F(lib).gelu(x, approximate="tanh"),
        lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3))),
    ),
    _act("silu", lambda lib, x: _F(lib).silu(x), lambda x: x * _sigmoid(x)),
    _act("mish", lambda lib, x: _F(lib).mish(x), lambda x: x * np.tanh(_np_softplus(x))),
    _act(
        "elu",
        lambda lib, x: _F(lib).elu(x, 0.7),
        lambda x: np.where(x > 0, x, 0.7 * np.expm1(x)),
        "nonzero",
    ),
    _act(
        "selu",
        lambda lib, x: _F(lib).selu(x),
        lambda x: _SELU[0] * np.where(x > 0, x, _SELU[1] * np.expm1(x)),
        "nonzero",
    ),
    _act(
        "celu",
        lambda lib, x: _F(lib).celu(x, 0.5),
        lambda x: np.where(x > 0, x, 0.5 * np.expm1(x / 0.5)),
        "nonzero",
    ),
    _act(
        "leaky_relu",
        lambda lib, x: _F(lib).leaky_relu(x, 0.1),
        lambda x: np.where(x > 0, x, 0.1 * x),
        "nonzero",
    ),
    _act(
        "softplus",
        lambda lib, x: _F(lib).softplus(x, beta=2.0),
        lambda x: _np_softplus(x, 2.0),
    ),
    _act("logsigmoid", lambda lib, x: _F(lib).logsigmoid(x), lambda x: -np.log1p(np.exp(-x))),
    _act("hardtanh", lambda lib, x: _F(lib).hardtanh(x), lambda x: np.clip(x, -1, 1)),
    _act(
        "relu6",
        lambda lib, x: _F(lib).relu6(x * 2.5),
        lambda x: np.clip(x * 2.5, 0, 6),
        "nonzero",
    ),
    _act(
        "hardswish",
        lambda lib, x: _F(lib).hardswish(x),
        lambda x: x * np.clip(x + 3, 0, 6) / 6,
    ),
    _act(
        "hardsigmoid",
        lambda lib, x: _F(lib).hardsigmoid(x),
        lambda x: np.clip(x / 6 + 0.5, 0, 1),
    ),
    _act("softsign", lambda lib, x: _F(lib).softsign(x), lambda x: x / (1 + np.abs(x)), "nonzero"),
    _act("tanhshrink", lambda lib, x: _F(lib).tanhshrink(x), lambda x: x - np.tanh(x)),
    _act(
        "softshrink",
        lambda lib, x: _F(lib).softshrink(x, 0.3),
        lambda x: np.where(np.abs(x) > 0.3, x - 0.3 * np.sign(x), 0.0),
        "nonzero",
    ),
    _act(
        "hardshrink",
        lambda lib, x: _F(lib).hardshrink(x, 0.3),
        lambda x: np.where(np.abs(x) > 0.3, x, 0.0),
        "nonzero",
    ),
    _act(
        "threshold",
        lambda lib, x: _F(lib).threshold(x, 0.1, -1.0),
        lambda x: np.where(x > 0.1, x, -1.0),
        "nonzero",
    ),
    _act(
        "rrelu_eval",
        lambda lib, x: _F(lib).rrelu(x, 0.1, 0.3, training=False),
        lambda x: np.where(x >= 0, x, 0.2 * x),
        "nonzero",
    ),
    Op(
        "prelu",
        lambda lib, x, w: _F(lib).prelu(x, w),
        lambda x, w: np.where(x > 0, x, w.reshape((-1,) + (1,) * max(x.ndim - 2, 0)) * x),
        ("nonzero", "real"),
        shapes=(((2, 3, 4), (3,)), ((3, 4), (4,)), ((2, 3), (1,))),
    ),
    # softmax family and friends
    _reduce(
        "softmax",
        lambda lib, x: _F(lib).softmax(x, -1),
        lambda x: _np_softmax(x, -1),
    ),
    _reduce(
        "log_softmax",
        lambda lib, x: _F(lib).log_softmax(x, dim=1),
        lambda x: _np_log_softmax(x, 1),
    ),
    _reduce(
        "softmin",
        lambda lib, x: _F(lib).softmin(x, 0),
        lambda x: _np_softmax(-x, 0),
    ),
    _reduce(
        "softmax_tensor_method",
        lambda lib, x: x.softmax(0),
        lambda x: _np_softmax(x, 0),
        shapes=(((3, 4),), ((5,),)),
    ),
    _reduce(
        "glu",
        lambda lib, x: _F(lib).glu(x),
        lambda x: x[..., : x.shape[-1] // 2] * _sigmoid(x[..., x.shape[-1] // 2 :]),
        shapes=(((3, 4),), ((2, 3, 6),), ((0, 2),)),
    ),
    _reduce(
        "normalize",
        lambda lib, x: _F(lib).normalize(x, dim=1),
        lambda x: _np_normalize(x, 1),
        shapes=(((3, 4),), ((2, 3, 4),), ((0, 3),)),
    ),
    Op(
        "cosine_similarity",
        lambda lib, a, b: _F(lib).cosine_similarity(a, b, dim=-1),
        lambda a, b: np.sum(_np_normalize(a, -1) * _np_normalize(b, -1), -1),
        ("real", "real"),
        shapes=(((3, 4), (3, 4)), ((2, 3, 4), (4,))),
    ),
    Op(
        "pairwise_distance",
        lambda lib, a, b: _F(lib).pairwise_distance(a, b),
        lambda a, b: np.sqrt(np.sum((a - b + 1e-6) ** 2, -1)),
        ("real", "real"),
        shapes=(((3, 4), (3, 4)), ((2, 3, 4), (4,))),
    ),
    Op(
        "linear",
        lambda lib, x, w, b: _F(lib).linear(x, w, b),
        lambda x, w, b: x @ w.T + b,
        ("real", "real", "real"),
        shapes=(
            ((2, 3), (4, 3), (4,)),
            ((2, 5, 3), (4, 3), (4,)),
            ((3,), (2, 3), ()),
            ((0, 3), (2, 3), (2,)),
        ),
    ),
    Op(
        "bilinear",
        lambda lib, a, b, w, bias: _F(lib).bilinear(a, b, w, bias),
        lambda a, b, w, bias: np.einsum("ni,oij,nj->no", a, w, b) + bias,
        ("real", "real", "real", "real"),
        shapes=(((2, 3), (2, 4), (5, 3, 4), (5,)),),
    ),
    # losses
    Op(
        "mse_loss",
        lambda lib, a, b: _F(lib).mse_loss(a, b),
        lambda a, b: np.mean((a - b) ** 2),
        ("real", "real"),
        shapes=(((3, 4), (3, 4)), ((2, 3, 4), (2, 3, 4)), ((), ())),
    ),
    Op(
        "mse_loss_sum",
        lambda lib, a, b: _F(lib).mse_loss(a, b, reduction="sum"),
        lambda a, b: np.sum((a - b) ** 2),
        ("real", "real"),
        shapes=(((3, 4), (3, 4)),),
    ),
    Op(
        "l1_loss",
        lambda lib, a, b: _F(lib).l1_loss(a, b, reduction="none"),
        lambda a, b: np.abs(a - b),
        ("real", "real"),
        shapes=(((3, 4), (3, 4)), ((), ())),
    ),
    Op(
        "smooth_l1_loss",
        lambda lib, a, b: _F(lib).smooth_l1_loss(a, b, beta=0.5),
        lambda a, b: np.mean(
            np.where(np.abs(a - b) < 0.5, 0.5 * (a - b) ** 2 / 0.5, np.abs(a - b) - 0.25)
        ),
        ("real", "real"),
        shapes=(((3, 4), (3, 4)), ((2, 3, 4), (2, 3, 4))),
    ),
    Op(
        "huber_loss",
        lambda lib, a, b: _F(lib).huber_loss(a, b, delta=0.7, reduction="sum"),
        lambda a, b: np.sum(
            np.where(np.abs(a - b) < 0.7, 0.5 * (a - b) ** 2, 0.7 * (np.abs(a - b) - 0.35))
        ),
        ("real", "real"),
        shapes=(((3, 4), (3, 4)),),
    ),
    Op(
        "binary_cross_entropy",
        lambda lib, x, y: _F(lib).binary_cross_entropy(lib.sigmoid(x), y * 0.5 + 0.5),
        lambda x, y: np.mean(
            -(y * 0.5 + 0.5) * np.log(_sigmoid(x)) - (0.5 - y * 0.5) * np.log(1 - _sigmoid(x))
        ),
        ("real", "unit"),
        shapes=(((3, 4), (3, 4)), ((5,), (5,))),
    ),
    Op(
        "binary_cross_entropy_with_logits",
        lambda lib, x, y: _F(lib).binary_cross_entropy_with_logits(x, y * 0.5 + 0.5),
        lambda x, y: np.mean(
            -(y * 0.5 + 0.5) * np.log(_sigmoid(x)) - (0.5 - y * 0.5) * np.log(1 - _sigmoid(x))
        ),
        ("real", "unit"),
        shapes=(((3, 4), (3, 4)), ((2, 3, 4), (2, 3, 4))),
    ),
    Op(
        "kl_div",
        lambda lib, x, y: _F(lib).kl_div(
            _F(lib).log_softmax(x, 1), _F(lib).softmax(y, 1), reduction="batchmean"
        ),
        lambda x, y: (
            np.sum(_np_softmax(y, 1) * (_np_log_softmax(y, 1) - _np_log_softmax(x, 1))) / x.shape[0]
        ),
        ("real", "real"),
        shapes=(((3, 4), (3, 4)),),
    ),
    _reduce(
        "cross_entropy",
        lambda lib, x: _F(lib).cross_entropy(x, _lib_index(lib, _CE_TARGETS)),
        lambda x: _np_ce(x, _CE_TARGETS),
        shapes=(((3, 4),),),
    ),
    _reduce(
        "cross_entropy_smoothing",
        lambda lib, x: _F(lib).cross_entropy(x, _lib_index(lib, _CE_TARGETS), label_smoothing=0.2),
        lambda x: _np_ce(x, _CE_TARGETS, 0.2),
        shapes=(((3, 4),),),
    ),
    _reduce(
        "cross_entropy_spatial",
        lambda lib, x: _F(lib).cross_entropy(x, _lib_index(lib, _CE_TARGETS_2D)),
        lambda x: _np_ce(x, _CE_TARGETS_2D),
        shapes=(((2, 3, 3),),),
    ),
    Op(
        "cross_entropy_probabilities",
        lambda lib, x, y: _F(lib).cross_entropy(x, _F(lib).softmax(y, 1)),
        lambda x, y: np.mean(-np.sum(_np_softmax(y, 1) * _np_log_softmax(x, 1), 1)),
        ("real", "real"),
        shapes=(((3, 4), (3, 4)),),
    ),
    _reduce(
        "nll_loss",
        lambda lib, x: _F(lib).nll_loss(x, _lib_index(lib, _CE_TARGETS), reduction="sum"),
        lambda x: -np.sum(x[np.arange(3), _CE_TARGETS]),
        shapes=(((3, 4),),),
    ),
    Op(
        "poisson_nll_loss",
        lambda lib, x, y: _F(lib).poisson_nll_loss(x, y),
        lambda x, y: np.mean(np.exp(x) - y * x),
        ("real", "pos"),
        shapes=(((3, 4), (3, 4)),),
    ),
    Op(
        "gaussian_nll_loss",
        lambda lib, x, y, v: _F(lib).gaussian_nll_loss(x, y, v),
        lambda x, y, v: np.mean(0.5 * (np.log(v) + (x - y) ** 2 / v)),
        ("real", "real", "pos"),
        shapes=(((3, 4), (3, 4), (3, 4)),),
    ),
    _reduce(
        "soft_margin_loss",
        lambda lib, x: _F(lib).soft_margin_loss(x, _fixed(lib, x).sign()),
        lambda x: np.mean(np.log1p(np.exp(-np.sign(_fixed_np(x.shape)) * x))),
        shapes=(((3, 4),), ((5,),)),
    ),
    Op(
        "margin_ranking_loss",
        lambda lib, a, b: _F(lib).margin_ranking_loss(a, b, _fixed(lib, a).sign(), margin=0.2),
        lambda a, b: np.mean(np.maximum(0, -np.sign(_fixed_np(a.shape)) * (a - b) + 0.2)),
        ("real", "real"),
        shapes=(((5,), (5,)),),
    ),
    _reduce(
        "multilabel_soft_margin_loss",
        lambda lib, x: _F(lib).multilabel_soft_margin_loss(x, (_fixed(lib, x) > 0).to(x.dtype)),
        lambda x: np.mean(
            np.mean(
                -(_fixed_np(x.shape) > 0.0).astype(float) * np.log(_sigmoid(x))
                - (_fixed_np(x.shape) <= 0) * np.log(_sigmoid(-x)),
                1,
            )
        ),
        shapes=(((3, 4),),),
    ),
    # normalisation
    Op(
        "layer_norm",
        lambda lib, x, w, b: _F(lib).layer_norm(x, w.shape, w, b),
        lambda x, w, b: _np_layer_norm(x, w.ndim, w, b),
        ("real", "real", "real"),
        shapes=(((3, 4), (4,), (4,)), ((2, 3, 4), (4,), (4,)), ((2, 3, 4), (3, 4), (3, 4))),
    ),
    _reduce(
        "layer_norm_no_affine",
        lambda lib, x: _F(lib).layer_norm(x, (x.shape[-1],)),
        lambda x: _np_layer_norm(x, 1, 1.0, 0.0),
        shapes=(((3, 4),), ((0, 3),)),
    ),
    Op(
        "group_norm",
        lambda lib, x, w, b: _F(lib).group_norm(x, 2, w, b),
        lambda x, w, b: _np_group_norm(x, 2, w, b),
        ("real", "real", "real"),
        shapes=(((2, 4, 3), (4,), (4,)), ((1, 2, 2, 3), (2,), (2,))),
    ),
    Op(
        "batch_norm_training",
        lambda lib, x, w, b: _F(lib).batch_norm(x, None, None, w, b, training=True),
        lambda x, w, b: _np_batch_norm(x, w, b),
        ("real", "real", "real"),
        shapes=(((4, 3), (3,), (3,)), ((2, 3, 4), (3,), (3,))),
        layouts=NO_TIES,
    ),
    _reduce(
        "instance_norm",
        lambda lib, x: _F(lib).instance_norm(x),
        lambda x: _np_layer_norm(x, 1, 1.0, 0.0),
        shapes=(((2, 3, 4),),),
    ),
    Op(
        "rms_norm",
        lambda lib, x, w: _F(lib).rms_norm(x, (4,), w, eps=1e-6),
        lambda x, w: x / np.sqrt(np.mean(x * x, -1, keepdims=True) + 1e-6) * w,
        ("real", "real"),
        shapes=(((3, 4), (4,)), ((2, 3, 4), (4,))),
    ),
    # convolution, pooling, resampling
    Op(
        "conv1d",
        lambda lib, x, w, b: _F(lib).conv1d(x, w, b, padding=1),
        lambda x, w, b: _np_conv(x, w, b, padding=1),
        ("real", "real", "real"),
        shapes=(((2, 3, 5), (4, 3, 3), (4,)), ((1, 1, 1), (2, 1, 1), (2,))),
    ),
    Op(
        "conv1d_stride_dilation_groups",
        lambda lib, x, w: _F(lib).conv1d(x, w, stride=2, dilation=2, groups=2),
        lambda x, w: _np_conv(x, w, stride=2, dilation=2, groups=2),
        ("real", "real"),
        shapes=(((2, 4, 7), (4, 2, 2)),),
    ),
    Op(
        "conv2d",
        lambda lib, x, w, b: _F(lib).conv2d(x, w, b, stride=1, padding=1),
        lambda x, w, b: _np_conv(x, w, b, padding=1),
        ("real", "real", "real"),
        shapes=(((2, 2, 4, 3), (3, 2, 2, 2), (3,)), ((1, 1, 3, 3), (1, 1, 3, 3), (1,))),
    ),
    Op(
        "conv2d_stride_groups",
        lambda lib, x, w: _F(lib).conv2d(x, w, stride=2, groups=2),
        lambda x, w: _np_conv(x, w, stride=2, groups=2),
        ("real", "real"),
        shapes=(((1, 2, 5, 5), (2, 1, 3, 3)),),
    ),
    _reduce(
        "avg_pool1d",
        lambda lib, x: _F(lib).avg_pool1d(x, 2),
        lambda x: _np_pool(x, (2,), np.mean),
        shapes=(((2, 3, 4),),),
    ),
    _reduce(
        "avg_pool2d",
        lambda lib, x: _F(lib).avg_pool2d(x, 2),
        lambda x: _np_pool(x, (2, 2), np.mean),
        shapes=(((2, 3, 4, 2),), ((1, 4, 6),)),
    ),
    _reduce(
        "max_pool1d",
        lambda lib, x: _F(lib).max_pool1d(x, 2),
        lambda x: _np_pool(x, (2,), np.max),
        shapes=(((2, 3, 4),),),
        layouts=NO_TIES,
    ),
    _reduce(
        "max_pool2d",
        lambda lib, x: _F(lib).max_pool2d(x, 2),
        lambda x: _np_pool(x, (2, 2), np.max),
        shapes=(((2, 3, 4, 2),), ((1, 4, 6),)),
        layouts=NO_TIES,
    ),
    _reduce(
        "adaptive_avg_pool2d",
        lambda lib, x: _F(lib).adaptive_avg_pool2d(x, (2, 1)),
        lambda x: _np_pool(x, (x.shape[-2] // 2, x.shape[-1]), np.mean),
        shapes=(((2, 3, 4, 2),), ((1, 4, 6),)),
    ),
    _reduce(
        "interpolate_nearest",
        lambda lib, x: _F(lib).interpolate(x, scale_factor=2, mode="nearest"),
        lambda x: x.repeat(2, -1).repeat(2, -2),
        shapes=(((1, 2, 2, 3),),),
    ),
    _reduce(
        "interpolate_bilinear",
        lambda lib, x: _F(lib).interpolate(x, size=(3, 5), mode="bilinear"),
        lambda x: _np_bilinear_resize(x, (3, 5), False),
        shapes=(((1, 2, 2, 3),), ((2, 1, 4, 4),)),
    ),
    _reduce(
        "interpolate_bilinear_align_corners",
        lambda lib, x: _F(lib).interpolate(x, size=(3, 5), mode="bilinear", align_corners=True),
        lambda x: _np_bilinear_resize(x, (3, 5), True),
        shapes=(((1, 2, 2, 3),),),
    ),
    _reduce(
        "interpolate_linear",
        lambda lib, x: _F(lib).interpolate(x, size=7, mode="linear"),
        lambda x: np.einsum("oi,...i->...o", _linear_matrix(x.shape[-1], 7, False), x),
        shapes=(((2, 3, 4),),),
    ),
    _reduce(
        "pad_reflect",
        lambda lib, x: _F(lib).pad(x, (2, 1), mode="reflect"),
        lambda x: np.pad(x, ((0, 0), (0, 0), (2, 1)), mode="reflect"),
        shapes=(((2, 3, 4),),),
    ),
    _reduce(
        "pad_replicate",
        lambda lib, x: _F(lib).pad(x, (1, 2, 0, 1), mode="replicate"),
        lambda x: np.pad(x, ((0, 0), (0, 0), (0, 1), (1, 2)), mode="edge"),
        shapes=(((1, 2, 3, 3),),),
    ),
    _reduce(
        "pad_constant",
        lambda lib, x: _F(lib).pad(x, (1, 1, 2, 0), value=0.5),
        lambda x: np.pad(x, ((0, 0), (2, 0), (1, 1)), constant_values=0.5),
        shapes=(((2, 3, 4),), ((0, 2, 1),)),
    ),
    _reduce(
        "pixel_shuffle",
        lambda lib, x: _F(lib).pixel_shuffle(x, 2),
        lambda x: (
            x.reshape(x.shape[0], -1, 2, 2, *x.shape[2:])
            .transpose(0, 1, 4, 2, 5, 3)
            .reshape(x.shape[0], -1, x.shape[2] * 2, x.shape[3] * 2)
        ),
        shapes=(((2, 8, 2, 3),),),
    ),
    Op(
        "embedding",
        lambda lib, w: _F(lib).embedding(_lib_index(lib, _GATHER), w),
        lambda w: w[_GATHER],
        ("real",),
        shapes=(((3, 4),), ((4, 2),)),
    ),
]


def _np_conv_transpose(x, w, b=None, stride=1, padding=0):
    """N-d transposed convolution (groups=1, dilation=1): the adjoint of _np_conv."""
    nsp = x.ndim - 2
    k = w.shape[2:]
    in_sp = x.shape[2:]
    full = [(in_sp[i] - 1) * stride + k[i] for i in range(nsp)]
    out = np.zeros((x.shape[0], w.shape[1], *full))
    for offset in np.ndindex(*k):
        window = tuple(
            slice(offset[i], offset[i] + stride * (in_sp[i] - 1) + 1, stride) for i in range(nsp)
        )
        wk = w[(slice(None), slice(None)) + offset]
        out[(slice(None), slice(None)) + window] += np.einsum("co,nc...->no...", wk, x)
    crop = tuple(slice(padding, f - padding) for f in full)
    out = out[(slice(None), slice(None)) + crop]
    if b is not None:
        out += b.reshape((1, -1) + (1,) * nsp)
    return out


def _np_unfold(x, k):
    """im2col for a (N, C, H, W) input, kernel k x k, stride 1, no padding."""
    n, c, h, w = x.shape
    oh, ow = h - k + 1, w - k + 1
    cols = np.stack(
        [x[:, :, i : i + oh, j : j + ow] for i in range(k) for j in range(k)], 2
    )  # (N, C, k*k, oh, ow)
    return cols.reshape(n, c * k * k, oh * ow)


def _np_lrn(x, size, alpha=1e-4, beta=0.75, k=1.0):
    sq = np.pad(x * x, ((0, 0), (size // 2, (size - 1) // 2)) + ((0, 0),) * (x.ndim - 2))
    acc = sum(sq[:, i : i + x.shape[1]] for i in range(size))
    return x / (k + alpha / size * acc) ** beta


def _np_sdpa(q, k, v):
    scores = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])
    return _np_softmax(scores, -1) @ v


def _np_scatter_reduce_amax(x, idx, src):
    out = x.copy()
    cols = np.arange(idx.shape[1])[None, :].repeat(idx.shape[0], 0)
    np.maximum.at(out, (idx, cols), src)
    return out


def _np_lu(a):
    """Doolittle LU without pivoting (what partial pivoting does on diagonally dominant input)."""
    a = np.array(a, dtype=np.float64)
    n = a.shape[-1]
    lower = np.broadcast_to(np.eye(n), a.shape).copy()
    upper = a.copy()
    for j in range(n - 1):
        factors = upper[..., j + 1 :, j] / upper[..., j : j + 1, j]
        lower[..., j + 1 :, j] = factors
        upper[..., j + 1 :, :] -= factors[..., :, None] * upper[..., j : j + 1, :]
    return lower, upper


def _np_index_put_acc(x, v):
    out = x.copy()
    np.add.at(out, _IDX, np.broadcast_to(v, (len(_IDX),) + x.shape[1:]))
    return out


def _np_index_fill(x, idx, value):
    out = x.copy()
    out[:, idx] = value
    return out


def _np_masked_scatter(x, mask, s):
    out = x.copy()
    out[mask] = s.reshape(-1)[: int(mask.sum())]
    return out


def _np_slice_scatter(x, s):
    out = x.copy()
    out[:, 0:4:2] = s
    return out


def _np_diag_embed(x, offset):
    n = x.shape[-1] + abs(offset)
    out = np.zeros(x.shape[:-1] + (n, n))
    i = np.arange(x.shape[-1])
    out[..., i, i + offset] = x
    return out


_SCATTER_IDX = np.array([[0, 2, 1, 0], [2, 2, 0, 1]])
_MARGIN_TARGETS = np.array([2, 0, 3])


MORE_OPS = [
    # linear algebra, continued
    _linalg(
        "linalg_cond",
        lambda lib, a: lib.linalg.cond(_dominant(lib, a)),
        lambda a: np.linalg.cond(_np_dominant(a)),
        shapes=SQUARE_SHAPES[:3],
        layouts=NO_TIES,
    ),
    _linalg(
        "linalg_lu_solve",
        lambda lib, a, b: lib.linalg.lu_solve(*lib.linalg.lu_factor(_dominant(lib, a)), b),
        lambda a, b: np.linalg.solve(_np_dominant(a), b),
        ("real", "real"),
        shapes=(((3, 3), (3, 2)), ((2, 3, 3), (2, 3, 1))),
    ),
    _linalg(
        "linalg_lu_u",
        lambda lib, a: lib.linalg.lu(_dominant(lib, a)).U,
        lambda a: _np_lu(_np_dominant(a))[1],
        shapes=SQUARE_SHAPES[:3],
    ),
    _linalg(
        "linalg_lu_l",
        lambda lib, a: lib.linalg.lu(_dominant(lib, a)).L,
        lambda a: _np_lu(_np_dominant(a))[0],
        shapes=SQUARE_SHAPES[:3],
    ),
    _linalg(
        "linalg_tensorinv",
        lambda lib, a: lib.linalg.tensorinv(_dominant(lib, a).reshape(2, 2, 4), ind=2),
        lambda a: np.linalg.inv(_np_dominant(a)).reshape(4, 2, 2),
        shapes=(((4, 4),),),
    ),
    _linalg(
        "linalg_tensorsolve",
        lambda lib, a, b: lib.linalg.tensorsolve(_dominant(lib, a).reshape(2, 2, 4), b),
        lambda a, b: np.linalg.solve(_np_dominant(a), b.reshape(4)),
        ("real", "real"),
        shapes=(((4, 4), (2, 2)),),
    ),
    # fused pointwise and composites
    Op(
        "addcmul",
        lambda lib, a, b, c: lib.addcmul(a, b, c, value=0.5),
        lambda a, b, c: a + 0.5 * b * c,
        ("real", "real", "real"),
        shapes=TERNARY_SHAPES,
        elementwise=True,
    ),
    Op(
        "addcdiv",
        lambda lib, a, b, c: a.addcdiv(b, c, value=-2.0),
        lambda a, b, c: a - 2.0 * b / c,
        ("real", "real", "nonzero"),
        shapes=TERNARY_SHAPES,
        elementwise=True,
    ),
    _unary("square", lambda lib, x: lib.square(x), np.square, int_result="same"),
    _unary(
        "fliplr",
        lambda lib, x: lib.fliplr(x),
        np.fliplr,
        shapes=UNARY_SHAPES[:2],
        int_result="same",
    ),
    _unary(
        "clamp_max_scalar",
        lambda lib, x: lib.clamp_max(x, 0.5),
        lambda x: np.minimum(x, 0.5),
        int_result=None,
    ),
    _unary(
        "nan_to_num",
        lambda lib, x: lib.nan_to_num(lib.log(x), nan=0.5),
        lambda x: np.where(x > 0, np.log(np.abs(x)), 0.5),
        "nonzero",
        int_result=None,
    ),
    # scatter and selection composites
    Op(
        "scatter_reduce_sum",
        lambda lib, x, s: x.scatter_reduce(0, _lib_index(lib, _SCATTER_IDX), s, "sum"),
        lambda x, s: _np_scatter_add(x, _SCATTER_IDX, s),
        ("real", "real"),
        shapes=(((3, 4), (2, 4)),),
    ),
    Op(
        "scatter_reduce_amax",
        lambda lib, x, s: lib.scatter_reduce(x, 0, _lib_index(lib, _SCATTER_IDX), s, "amax"),
        lambda x, s: _np_scatter_reduce_amax(x, _SCATTER_IDX, s),
        ("real", "real"),
        shapes=(((3, 4), (2, 4)),),
        layouts=("contiguous",),
    ),
    Op(
        "index_put_accumulate",
        lambda lib, x, v: x.index_put((_lib_index(lib, _IDX),), v, accumulate=True),
        lambda x, v: _np_index_put_acc(x, v),
        ("real", "real"),
        shapes=(((3, 4), (3, 4)), ((3, 4), (4,))),
    ),
    _reduce(
        "index_fill",
        lambda lib, x: x.index_fill(1, _lib_index(lib, _IDX), -0.5),
        lambda x: _np_index_fill(x, _IDX, -0.5),
        shapes=(((3, 4),), ((2, 3, 4),)),
    ),
    Op(
        "masked_scatter",
        lambda lib, x, s: x.masked_scatter(x > 0, s),
        lambda x, s: _np_masked_scatter(x, x > 0, s),
        ("nonzero", "real"),
        shapes=(((3, 4), (3, 4)), ((2, 3), (8,))),
    ),
    Op(
        "select_scatter",
        lambda lib, x, s: lib.select_scatter(x, s, 0, 1),
        lambda x, s: np.concatenate([x[:1], s[None], x[2:]], 0),
        ("real", "real"),
        shapes=(((3, 4), (4,)), ((2, 3, 2), (3, 2))),
    ),
    Op(
        "slice_scatter",
        lambda lib, x, s: lib.slice_scatter(x, s, 1, 0, 4, 2),
        lambda x, s: _np_slice_scatter(x, s),
        ("real", "real"),
        shapes=(((3, 4), (3, 2)), ((3, 5), (3, 2))),
    ),
    Op(
        "diagonal_scatter",
        lambda lib, x, s: lib.diagonal_scatter(x, s),
        lambda x, s: x - np.diag(np.diagonal(x)) + np.diag(s),
        ("real", "real"),
        shapes=(((3, 3), (3,)),),
    ),
    _reduce(
        "aminmax",
        lambda lib, x: (lambda r: r.min * 2 + r.max)(lib.aminmax(x, dim=1)),
        lambda x: np.min(x, 1) * 2 + np.max(x, 1),
        shapes=(((3, 4),), ((2, 3, 4),)),
        layouts=NO_TIES,
    ),
    _reduce(
        "nanmedian",
        lambda lib, x: x.nanmedian(0).values,
        lambda x: np.sort(x, 0)[(x.shape[0] - 1) // 2],
        shapes=(((3, 4),), ((4, 2),)),
        layouts=NO_TIES,
    ),
    _reduce(
        "nanquantile",
        lambda lib, x: lib.nanquantile(x, 0.75),
        lambda x: np.quantile(x, 0.75),
        shapes=(((3, 4),), ((5,),)),
        layouts=NO_TIES,
    ),
    _reduce(
        "gradient",
        lambda lib, x: lib.gradient(x, spacing=0.5, dim=1)[0],
        lambda x: np.gradient(x, 0.5, axis=1),
        shapes=(((3, 4),), ((2, 3, 4),)),
    ),
    _reduce(
        "pdist",
        lambda lib, x: lib.pdist(x),
        lambda x: np.sqrt(np.sum((x[:, None] - x[None]) ** 2, -1)[np.triu_indices(x.shape[0], 1)]),
        shapes=(((4, 3),), ((2, 5),)),
        layouts=NO_TIES,
    ),
    _reduce(
        "tensor_split",
        lambda lib, x: lib.tensor_split(x, 3, dim=1)[1],
        lambda x: np.array_split(x, 3, 1)[1],
        shapes=(((3, 4),), ((2, 5, 2),)),
    ),
    _reduce(
        "diag_embed",
        lambda lib, x: lib.diag_embed(x, offset=1),
        lambda x: _np_diag_embed(x, 1),
        shapes=(((3,),), ((2, 3),), ((0,),)),
    ),
    _reduce(
        "diagflat",
        lambda lib, x: lib.diagflat(x),
        lambda x: np.diagflat(x),
        shapes=(((2, 2),), ((3,),)),
    ),
    Op(
        "broadcast_tensors",
        lambda lib, a, b: (lambda ab: ab[0] * 2 + ab[1])(lib.broadcast_tensors(a, b)),
        lambda a, b: a * 2 + b,
        ("real", "real"),
        shapes=(((3, 1), (4,)), ((2, 3), ())),
    ),
    _reduce(
        "combinations",
        lambda lib, x: lib.combinations(x, 2),
        lambda x: np.array([[x[i], x[j]] for i in range(len(x)) for j in range(i + 1, len(x))]),
        shapes=(((4,),),),
    ),
    _reduce(
        "sum_to_size",
        lambda lib, x: x.sum_to_size(1, 4),
        lambda x: x.sum(0, keepdims=True),
        shapes=(((3, 4),),),
    ),
    # nn.functional, continued
    Op(
        "conv_transpose1d",
        lambda lib, x, w, b: _F(lib).conv_transpose1d(x, w, b, stride=2, padding=1),
        lambda x, w, b: _np_conv_transpose(x, w, b, stride=2, padding=1),
        ("real", "real", "real"),
        shapes=(((2, 3, 4), (3, 2, 3), (2,)),),
    ),
    Op(
        "conv_transpose2d",
        lambda lib, x, w: _F(lib).conv_transpose2d(x, w, stride=2),
        lambda x, w: _np_conv_transpose(x, w, stride=2),
        ("real", "real"),
        shapes=(((1, 2, 2, 3), (2, 3, 2, 2)),),
    ),
    _reduce(
        "avg_pool2d_padding",
        lambda lib, x: _F(lib).avg_pool2d(x, 3, stride=1, padding=1, count_include_pad=True),
        lambda x: _np_conv(
            x.reshape(-1, 1, *x.shape[-2:]), np.full((1, 1, 3, 3), 1 / 9), padding=1
        ).reshape(x.shape),
        shapes=(((2, 3, 4),),),
    ),
    _reduce(
        "lp_pool1d",
        lambda lib, x: _F(lib).lp_pool1d(x, 2.0, 2),
        lambda x: np.sqrt(_np_pool(x * x, (2,), np.sum)),
        "nonzero",
        shapes=(((2, 3, 4),),),
    ),
    _reduce(
        "adaptive_max_pool2d",
        lambda lib, x: _F(lib).adaptive_max_pool2d(x, (2, 1)),
        lambda x: _np_pool(x, (x.shape[-2] // 2, x.shape[-1]), np.max),
        shapes=(((2, 3, 4, 2),),),
        layouts=NO_TIES,
    ),
    _reduce(
        "unfold",
        lambda lib, x: _F(lib).unfold(x, 2),
        lambda x: _np_unfold(x, 2),
        shapes=(((2, 2, 3, 4),),),
    ),
    _reduce(
        "fold_adjoint_of_unfold",
        lambda lib, x: _F(lib).fold(_F(lib).unfold(x, 2), (3, 4), 2),
        lambda x: x * _np_conv_transpose(np.ones((1, 1, 2, 3)), np.ones((1, 1, 2, 2))),
        shapes=(((1, 1, 3, 4),),),
    ),
    _reduce(
        "local_response_norm",
        lambda lib, x: _F(lib).local_response_norm(x, 2),
        lambda x: _np_lrn(x, 2),
        shapes=(((2, 4, 3),),),
    ),
    Op(
        "scaled_dot_product_attention",
        lambda lib, q, k, v: _F(lib).scaled_dot_product_attention(q, k, v),
        _np_sdpa,
        ("real", "real", "real"),
        shapes=(((2, 3, 4), (2, 5, 4), (2, 5, 2)), ((1, 2, 3, 4), (1, 2, 3, 4), (1, 2, 3, 4))),
    ),
    _reduce(
        "pixel_unshuffle",
        lambda lib, x: _F(lib).pixel_unshuffle(x, 2),
        lambda x: (
            x.reshape(x.shape[0], x.shape[1], x.shape[2] // 2, 2, x.shape[3] // 2, 2)
            .transpose(0, 1, 3, 5, 2, 4)
            .reshape(x.shape[0], -1, x.shape[2] // 2, x.shape[3] // 2)
        ),
        shapes=(((2, 2, 4, 6),),),
    ),
    _reduce(
        "interpolate_nearest_size",
        lambda lib, x: _F(lib).interpolate(x, size=5),
        lambda x: x[..., np.floor(np.arange(5) * x.shape[-1] / 5).astype(int)],
        shapes=(((2, 3, 3),),),
    ),
    Op(
        "triplet_margin_loss",
        lambda lib, a, p, n: _F(lib).triplet_margin_loss(a, p, n, margin=3.0),
        lambda a, p, n: np.mean(
            np.maximum(
                np.sqrt(np.sum((a - p + 1e-6) ** 2, -1))
                - np.sqrt(np.sum((a - n + 1e-6) ** 2, -1))
                + 3.0,
                0,
            )
        ),
        ("real", "real", "real"),
        shapes=(((3, 4), (3, 4), (3, 4)),),
    ),
    Op(
        "cosine_embedding_loss",
        lambda lib, a, b: _F(lib).cosine_embedding_loss(
            a, b, _fixed(lib, a, shape=(a.shape[0],)).sign()
        ),
        lambda a, b: np.mean(
            np.where(
                _fixed_np((a.shape[0],)) > 0,
                1 - np.sum(_np_normalize(a, 1) * _np_normalize(b, 1), 1),
                np.maximum(np.sum(_np_normalize(a, 1) * _np_normalize(b, 1), 1), 0),
            )
        ),
        ("real", "real"),
        shapes=(((4, 3), (4, 3)),),
        layouts=NO_TIES,
    ),
    _reduce(
        "hinge_embedding_loss",
        lambda lib, x: _F(lib).hinge_embedding_loss(x, _fixed(lib, x).sign(), margin=2.5),
        lambda x: np.mean(np.where(_fixed_np(x.shape) > 0, x, np.maximum(0, 2.5 - x))),
        shapes=(((3, 4),),),
    ),
    _reduce(
        "multi_margin_loss",
        lambda lib, x: _F(lib).multi_margin_loss(x, _lib_index(lib, _MARGIN_TARGETS), margin=3.0),
        lambda x: np.mean(
            (np.maximum(0, 3.0 - x[np.arange(3), _MARGIN_TARGETS][:, None] + x).sum(1) - 3.0)
            / x.shape[1]
        ),
        shapes=(((3, 4),),),
    ),
    # PyTorch has no gradient for nll_loss's weight: the weights are fixed values here.
    _reduce(
        "nll_loss_weighted",
        lambda lib, x: _F(lib).nll_loss(
            x, _lib_index(lib, _CE_TARGETS), weight=_fixed(lib, x, 0.5, 2.0, shape=(4,))
        ),
        lambda x: (
            -np.sum(_fixed_np((4,), 0.5, 2.0)[_CE_TARGETS] * x[np.arange(3), _CE_TARGETS])
            / np.sum(_fixed_np((4,), 0.5, 2.0)[_CE_TARGETS])
        ),
        shapes=(((3, 4),),),
    ),
]


def _np_adaptive_avg_1d(x, out):
    n = x.shape[-1]
    cols = [
        x[..., (i * n) // out : -((-(i + 1) * n) // out)].mean(-1, keepdims=True)
        for i in range(out)
    ]
    return np.concatenate(cols, -1)


def _np_max_pool2d_padded(x, k, padding):
    pad = ((0, 0),) * (x.ndim - 2) + ((padding, padding),) * 2
    xp = np.pad(x, pad, constant_values=-np.inf)
    windows = np.lib.stride_tricks.sliding_window_view(xp, (k, k), axis=(-2, -1))
    return windows.max(axis=(-2, -1))


def _np_trilinear(x, size):
    for axis, n_out in zip((-3, -2, -1), size):
        m = _linear_matrix(x.shape[axis], n_out, False)
        x = np.moveaxis(np.tensordot(x, m, ([axis], [1])), -1, axis)
    return x


def _np_householder_product(v, tau):
    m, n = v.shape
    q = np.eye(m)
    for i in range(len(tau)):
        w = np.concatenate([np.zeros(i), [1.0], v[i + 1 :, i]])
        q = q @ (np.eye(m) - tau[i] * np.outer(w, w))
    return q[:, :n]


def _np_affine_grid(theta, h, w):
    xs = (2 * np.arange(w) + 1) / w - 1
    ys = (2 * np.arange(h) + 1) / h - 1
    base = np.stack(np.broadcast_arrays(xs[None, :], ys[:, None], np.ones((h, w))), -1)
    return np.einsum("hwk,nik->nhwi", base, theta)


def _index_reduce_prod(lib, x, s):
    # PyTorch warns (once) that index_reduce is in beta; the row checks values, not that notice.
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "index_reduce\\(\\) is in beta", UserWarning)
        return x.index_reduce(0, _lib_index(lib, _IDX), s, "prod")


_CE_WEIGHTS = np.array([0.5, 2.0, 1.0, 1.5])


EXTRA_OPS = [
    _linalg(
        "cholesky_solve",
        lambda lib, a, b: lib.cholesky_solve(b, lib.linalg.cholesky(_spd(lib, a))),
        lambda a, b: np.linalg.solve(_np_spd(a), b),
        ("real", "real"),
        shapes=(((3, 3), (3, 2)), ((2, 3, 3), (2, 3, 1))),
    ),
    _linalg(
        "cholesky_inverse",
        lambda lib, a: lib.cholesky_inverse(lib.linalg.cholesky(_spd(lib, a))),
        lambda a: np.linalg.inv(_np_spd(a)),
        shapes=(((3, 3),), ((1, 1),)),
    ),
    _linalg(
        "linalg_householder_product",
        lambda lib, v, tau: lib.linalg.householder_product(v, tau),
        _np_householder_product,
        ("real", "unit"),
        shapes=(((4, 3), (3,)), ((3, 3), (2,))),
    ),
    _linalg(
        "pinverse",
        lambda lib, a: (a + 2 * lib.eye(*a.shape[-2:], dtype=a.dtype)).pinverse(),
        lambda a: np.linalg.pinv(a + 2 * np.eye(*a.shape[-2:])),
        shapes=(((3, 4),), ((2, 3, 2),)),
        layouts=NO_TIES,
        f32_rtol=1e-3,
    ),
    _linalg(
        "slogdet_function",
        lambda lib, a: lib.slogdet(_dominant(lib, a))[1],
        lambda a: np.linalg.slogdet(_np_dominant(a))[1],
        shapes=SQUARE_SHAPES[:2],
    ),
    Op(
        "scatter_reduce_mean",
        lambda lib, x, s: x.scatter_reduce(
            0, _lib_index(lib, _SCATTER_IDX), s, "mean", include_self=False
        ),
        lambda x, s: _np_scatter_mean(x, _SCATTER_IDX, s),
        ("real", "real"),
        shapes=(((3, 4), (2, 4)),),
    ),
    Op(
        "scatter_reduce_prod",
        lambda lib, x, s: x.scatter_reduce(0, _lib_index(lib, _SCATTER_IDX), s, "prod"),
        lambda x, s: _np_scatter_prod(x, _SCATTER_IDX, s),
        ("nonzero", "nonzero"),
        shapes=(((3, 4), (2, 4)),),
    ),
    Op(
        "index_reduce_prod",
        lambda lib, x, s: _index_reduce_prod(lib, x, s),
        lambda x, s: _np_index_prod(x, s),
        ("nonzero", "nonzero"),
        shapes=(((3, 4), (3, 4)),),
    ),
    Op(
        "index_copy",
        lambda lib, x, s: x.index_copy(1, _lib_index(lib, np.array([3, 0])), s),
        lambda x, s: _np_index_copy(x, s),
        ("real", "real"),
        shapes=(((3, 4), (3, 2)),),
    ),
    Op(
        "put_accumulate",
        lambda lib, x, s: x.put(_lib_index(lib, np.array([[0, 5], [5, 11]])), s, accumulate=True),
        lambda x, s: _np_put_acc(x, s),
        ("real", "real"),
        shapes=(((3, 4), (2, 2)),),
    ),
    _reduce(
        "adaptive_avg_pool1d",
        lambda lib, x: _F(lib).adaptive_avg_pool1d(x, 3),
        lambda x: _np_adaptive_avg_1d(x, 3),
        shapes=(((2, 3, 5),), ((1, 2, 3),)),
    ),
    _reduce(
        "max_pool2d_padding",
        lambda lib, x: _F(lib).max_pool2d(x, 3, stride=1, padding=1),
        lambda x: _np_max_pool2d_padded(x, 3, 1),
        shapes=(((1, 2, 3, 4),),),
        layouts=NO_TIES,
    ),
    _reduce(
        "avg_pool3d",
        lambda lib, x: _F(lib).avg_pool3d(x, 2),
        lambda x: _np_pool(x, (2, 2, 2), np.mean),
        shapes=(((1, 2, 2, 4, 2),),),
    ),
    Op(
        "conv3d",
        lambda lib, x, w: _F(lib).conv3d(x, w, padding=1),
        lambda x, w: _np_conv(x, w, padding=1),
        ("real", "real"),
        shapes=(((1, 2, 2, 3, 2), (2, 2, 2, 2, 2)),),
    ),
    _reduce(
        "interpolate_trilinear",
        lambda lib, x: _F(lib).interpolate(x, size=(3, 2, 4), mode="trilinear"),
        lambda x: _np_trilinear(x, (3, 2, 4)),
        shapes=(((1, 2, 2, 3, 2),),),
    ),
    _reduce(
        "interpolate_area",
        lambda lib, x: _F(lib).interpolate(x, size=3, mode="area"),
        lambda x: _np_adaptive_avg_1d(x, 3),
        shapes=(((2, 3, 5),),),
    ),
    _reduce(
        "channel_shuffle",
        lambda lib, x: lib.channel_shuffle(x, 2),
        lambda x: x.reshape(x.shape[0], 2, -1, *x.shape[2:]).swapaxes(1, 2).reshape(x.shape),
        shapes=(((2, 6, 3),),),
    ),
    _reduce(
        "affine_grid",
        lambda lib, t: _F(lib).affine_grid(t, [2, 1, 3, 4], align_corners=False),
        lambda t: _np_affine_grid(t, 3, 4),
        shapes=(((2, 2, 3),),),
    ),
    _reduce(
        "cross_entropy_weighted_ignore",
        lambda lib, x: _F(lib).cross_entropy(
            x,
            _lib_index(lib, np.array([1, 0, 3, 2])),
            weight=_tensor(lib, _CE_WEIGHTS, x.dtype),
            ignore_index=2,
        ),
        lambda x: (
            -np.sum(_CE_WEIGHTS[[1, 0, 3]] * _np_log_softmax(x, 1)[[0, 1, 2], [1, 0, 3]])
            / np.sum(_CE_WEIGHTS[[1, 0, 3]])
        ),
        shapes=(((4, 4),),),
    ),
    Op(
        "binary_cross_entropy_weighted",
        lambda lib, x, y: _F(lib).binary_cross_entropy(
            lib.sigmoid(x), y * 0.5 + 0.5, weight=_fixed(lib, x, 0.5, 2.0), reduction="sum"
        ),
        lambda x, y: np.sum(
            _fixed_np(x.shape, 0.5, 2.0)
            * (-(y * 0.5 + 0.5) * np.log(_sigmoid(x)) - (0.5 - y * 0.5) * np.log(1 - _sigmoid(x)))
        ),
        ("real", "unit"),
        shapes=(((3, 4), (3, 4)),),
    ),
    Op(
        "embedding_bag_mean",
        lambda lib, w: _F(lib).embedding_bag(
            _lib_index(lib, np.array([0, 2, 1, 3, 3])), w, _lib_index(lib, np.array([0, 2]))
        ),
        lambda w: np.stack([w[[0, 2]].mean(0), w[[1, 3, 3]].mean(0)]),
        ("real",),
        shapes=(((4, 3),),),
    ),
]


def _np_scatter_mean(x, idx, src):
    total = np.zeros_like(x)
    count = np.zeros_like(x)
    cols = np.arange(idx.shape[1])[None, :].repeat(idx.shape[0], 0)
    np.add.at(total, (idx, cols), src)
    np.add.at(count, (idx, cols), 1.0)
    return np.where(count > 0, total / np.maximum(count, 1), x)


def _np_scatter_prod(x, idx, src):
    out = x.copy()
    cols = np.arange(idx.shape[1])[None, :].repeat(idx.shape[0], 0)
    np.multiply.at(out, (idx, cols), src)
    return out


def _np_index_prod(x, s):
    out = x.copy()
    np.multiply.at(out, _IDX, s)
    return out


def _np_index_copy(x, s):
    out = x.copy()
    out[:, [3, 0]] = s
    return out


def _np_put_acc(x, s):
    out = x.copy().reshape(-1)
    np.add.at(out, np.array([[0, 5], [5, 11]]), s)
    return out.reshape(x.shape)


def _np_grid_sample(x, grid):
    """Bilinear grid_sample, zero padding, align_corners=False, on (N, C, H, W) and (N, h, w, 2)."""
    n, c, h, w = x.shape
    ix = ((grid[..., 0] + 1) * w - 1) / 2
    iy = ((grid[..., 1] + 1) * h - 1) / 2
    x0, y0 = np.floor(ix).astype(int), np.floor(iy).astype(int)
    out = np.zeros((n, c) + grid.shape[1:3])
    batch = np.arange(n)[:, None, None]
    for dx in (0, 1):
        for dy in (0, 1):
            xs, ys = x0 + dx, y0 + dy
            weight = (1 - np.abs(ix - xs)) * (1 - np.abs(iy - ys))
            inside = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
            vals = x[batch, :, np.clip(ys, 0, h - 1), np.clip(xs, 0, w - 1)]  # (N, h, w, C)
            out += np.moveaxis(vals * (weight * inside)[..., None], -1, 1)
    return out


def _cubic_matrix(n_in, n_out, a=-0.75):
    """The (n_out, n_in) matrix of 1-d bicubic interpolation (align_corners=False, clamped taps)."""
    m = np.zeros((n_out, n_in))
    for o in range(n_out):
        src = (o + 0.5) * n_in / n_out - 0.5
        base = int(np.floor(src))
        t = src - base
        for k, d in enumerate((t + 1, t, 1 - t, 2 - t)):
            if d <= 1:
                wgt = ((a + 2) * d - (a + 3)) * d * d + 1
            else:
                wgt = ((a * d - 5 * a) * d + 8 * a) * d - 4 * a
            m[o, min(max(base - 1 + k, 0), n_in - 1)] += wgt
    return m


_RUNNING_MEAN = np.array([0.2, -0.1, 0.4])
_RUNNING_VAR = np.array([1.5, 0.7, 1.1])


LATE_OPS = [
    Op(
        "grid_sample",
        lambda lib, x, g: _F(lib).grid_sample(x, g, align_corners=False),
        _np_grid_sample,
        ("real", "unit"),
        shapes=(((1, 2, 3, 4), (1, 2, 3, 2)), ((2, 1, 4, 4), (2, 3, 1, 2))),
        layouts=("contiguous", "permuted"),
    ),
    _reduce(
        "interpolate_bicubic",
        lambda lib, x: _F(lib).interpolate(x, size=(4, 5), mode="bicubic"),
        lambda x: np.einsum(
            "oh,...hw,pw->...op", _cubic_matrix(x.shape[-2], 4), x, _cubic_matrix(x.shape[-1], 5)
        ),
        shapes=(((1, 2, 3, 3),),),
    ),
    _reduce(
        "pad_circular",
        lambda lib, x: _F(lib).pad(x, (1, 2), mode="circular"),
        lambda x: np.pad(x, ((0, 0), (0, 0), (1, 2)), mode="wrap"),
        shapes=(((2, 3, 4),),),
    ),
    _linalg(
        "linalg_vander",
        lambda lib, x: lib.linalg.vander(x, N=4),
        lambda x: x[..., None] ** np.arange(4),
        shapes=(((3,),), ((2, 3),), ((0,),)),
    ),
    Op(
        "gaussian_nll_loss_full",
        lambda lib, x, y, v: _F(lib).gaussian_nll_loss(x, y, v, full=True, reduction="sum"),
        lambda x, y, v: np.sum(0.5 * (np.log(v) + (x - y) ** 2 / v) + 0.5 * math.log(2 * math.pi)),
        ("real", "real", "pos"),
        shapes=(((3, 4), (3, 4), (3, 4)), ((2, 3), (2, 3), (2, 1))),
    ),
    Op(
        "poisson_nll_loss_linear",
        lambda lib, x, y: _F(lib).poisson_nll_loss(x, y, log_input=False),
        lambda x, y: np.mean(x - y * np.log(x + 1e-8)),
        ("pos", "pos"),
        shapes=(((3, 4), (3, 4)),),
    ),
    Op(
        "kl_div_log_target",
        lambda lib, x, y: _F(lib).kl_div(x, y, reduction="sum", log_target=True),
        lambda x, y: np.sum(np.exp(y) * (y - x)),
        ("real", "real"),
        shapes=(((3, 4), (3, 4)), ((5,), (5,))),
    ),
    Op(
        "batch_norm_eval",
        lambda lib, x, w, b: _F(lib).batch_norm(
            x,
            _tensor(lib, _RUNNING_MEAN, x.dtype),
            _tensor(lib, _RUNNING_VAR, x.dtype),
            w,
            b,
        ),
        lambda x, w, b: (
            (x - _RUNNING_MEAN.reshape((1, 3) + (1,) * (x.ndim - 2)))
            / np.sqrt(_RUNNING_VAR.reshape((1, 3) + (1,) * (x.ndim - 2)) + 1e-5)
            * w.reshape((1, 3) + (1,) * (x.ndim - 2))
            + b.reshape((1, 3) + (1,) * (x.ndim - 2))
        ),
        ("real", "real", "real"),
        shapes=(((4, 3), (3,), (3,)), ((2, 3, 4), (3,), (3,))),
    ),
    _reduce(
        "lp_pool2d",
        lambda lib, x: _F(lib).lp_pool2d(x, 3.0, 2),
        lambda x: np.cbrt(_np_pool(x**3, (2, 2), np.sum)),
        "pos",
        shapes=(((1, 2, 4, 2),),),
    ),
    _reduce(
        "adaptive_max_pool1d",
        lambda lib, x: _F(lib).adaptive_max_pool1d(x, 2),
        lambda x: _np_pool(x, (x.shape[-1] // 2,), np.max),
        shapes=(((2, 3, 4),),),
        layouts=NO_TIES,
    ),
    _reduce(
        "max_pool3d",
        lambda lib, x: _F(lib).max_pool3d(x, 2),
        lambda x: _np_pool(x, (2, 2, 2), np.max),
        shapes=(((1, 2, 2, 4, 2),),),
        layouts=NO_TIES,
    ),
]


_MULTILABEL = np.array([[3, 0, -1, 1], [1, 2, 3, -1]])


def _np_multilabel_margin(x):
    losses = []
    for row, labels in zip(x, _MULTILABEL):
        targets = list(labels[: list(labels).index(-1)] if -1 in labels else labels)
        others = [i for i in range(len(row)) if i not in targets]
        total = sum(max(0.0, 1 - (row[j] - row[i])) for j in targets for i in others)
        losses.append(total / len(row))
    return np.mean(losses)


FINAL_OPS = [
    _reduce(
        "multilabel_margin_loss",
        lambda lib, x: _F(lib).multilabel_margin_loss(x, _lib_index(lib, _MULTILABEL)),
        _np_multilabel_margin,
        shapes=(((2, 4),),),
    ),
    Op(
        "triplet_margin_with_distance_loss",
        lambda lib, a, p, n: _F(lib).triplet_margin_with_distance_loss(a, p, n, margin=3.0),
        lambda a, p, n: np.mean(
            np.maximum(
                np.sqrt(np.sum((a - p + 1e-6) ** 2, -1))
                - np.sqrt(np.sum((a - n + 1e-6) ** 2, -1))
                + 3.0,
                0,
            )
        ),
        ("real", "real", "real"),
        shapes=(((3, 4), (3, 4), (3, 4)),),
    ),
    Op(
        "instance_norm_affine",
        lambda lib, x, w, b: _F(lib).instance_norm(x, weight=w, bias=b),
        lambda x, w, b: _np_layer_norm(x, 1, 1.0, 0.0) * w[:, None] + b[:, None],
        ("real", "real", "real"),
        shapes=(((2, 3, 4), (3,), (3,)),),
    ),
    _reduce(
        "max_unpool1d",
        lambda lib, x: _F(lib).max_unpool1d(*_F(lib).max_pool1d(x, 2, return_indices=True), 2),
        lambda x: np.where(x == np.repeat(_np_pool(x, (2,), np.max), 2, -1), x, 0.0),
        shapes=(((2, 3, 4),),),
        layouts=NO_TIES,
    ),
]


# Rows without a second-derivative check, and why. Every other row of the lists above has one.
NO_SECOND_DERIVATIVE = {
    "cdist": "PyTorch: the derivative for '_cdist_backward' is not implemented",
    "cdist_p1": "PyTorch: the derivative for '_cdist_backward' is not implemented",
    "pdist": "PyTorch: the derivative for '_pdist_backward' is not implemented",
    "hardsigmoid": "PyTorch: derivative for aten::hardsigmoid_backward is not implemented",
    "multi_margin_loss": "PyTorch: derivative for aten::multi_margin_loss_backward is not implemented",
    "logcumsumexp": "engine: its backward is marked once_differentiable",
    "scatter_reduce_prod": "engine: its backward is marked once_differentiable",
    "index_reduce_prod": "engine: its backward is marked once_differentiable",
    "embedding_bag_mean": "PyTorch: the derivative for '_embedding_bag_backward' is not implemented",
    "multilabel_margin_loss": (
        "PyTorch: derivative for aten::multilabel_margin_loss_backward is not implemented"
    ),
}
OPS += [
    dataclasses.replace(op, gradgrad=op.differentiable and op.name not in NO_SECOND_DERIVATIVE)
    for op in LINALG_OPS
    + PRODUCT_AND_SCAN_OPS
    + NN_OPS
    + MORE_OPS
    + EXTRA_OPS
    + LATE_OPS
    + FINAL_OPS
]

BY_NAME = {op.name: op for op in OPS}
assert len(BY_NAME) == len(OPS), "op names must be unique"


def sample(rng, shape, domain):
    """float64 NumPy values of `shape` drawn from `domain`."""
    if domain == "real":
        return rng.uniform(-2.0, 2.0, shape)
    if domain == "pos":
        return rng.uniform(0.5, 2.0, shape)
    if domain == "nonzero":
        return rng.uniform(0.5, 2.0, shape) * rng.choice([-1.0, 1.0], shape)
    if domain == "int":
        return rng.integers(-2, 3, shape).astype(np.float64)
    if domain == "unit":
        return rng.uniform(-0.9, 0.9, shape)
    if domain == "frac":
        f = rng.uniform(0.1, 0.4, shape) + rng.choice([0.0, 0.5], shape)
        return rng.integers(-3, 4, shape) + f
    raise ValueError(domain)


def sample_int(rng, shape, domain):
    """Integer values for integer-dtype inputs: positive where the domain asks for it."""
    lo = 1 if domain == "pos" else -3
    values = rng.integers(lo, 4, shape)
    if domain == "nonzero":
        values[values == 0] = 1
    return values


def layouts_for(op, shapes):
    """The layouts op's inputs can take for one case: a layout needs a dim it can act on."""
    out = []
    for layout in op.layouts:
        if layout == "permuted" and not any(len(s) >= 2 for s in shapes):
            continue
        if layout == "expanded" and not any(len(s) >= 1 and s[0] > 1 for s in shapes):
            continue
        out.append(layout)
    return out


def _tensor(lib, values, dtype):
    # Through a flat list and a reshape, so empty shapes such as (0, 3) survive.
    return lib.tensor(values.reshape(-1).tolist(), dtype=dtype).reshape(values.shape)


def make_input(lib, values, layout, dtype):
    """A `lib` tensor holding `values` (a NumPy array) in the given memory layout.

    contiguous  row-major
    permuted    the values stored with their dims reversed, then permuted back: every stride
                differs from the row-major one (the innermost is no longer 1)
    expanded    values' first dim broadcast from a single row (stride 0); `values` must
                already repeat along that dim (see expand_values)
    """
    if layout == "contiguous" or values.ndim == 0:
        return _tensor(lib, values, dtype)
    if layout == "permuted":
        if values.ndim < 2:
            return _tensor(lib, values, dtype)
        rev = tuple(reversed(range(values.ndim)))
        return _tensor(lib, values.transpose(rev), dtype).permute(*rev)
    if layout == "expanded":
        if values.shape[0] <= 1:
            return _tensor(lib, values, dtype)
        return _tensor(lib, values[:1], dtype).expand(*values.shape)
    raise ValueError(layout)


def expand_values(values, layout):
    """The values an input of this layout can hold: for `expanded`, the first row repeated."""
    if layout == "expanded" and values.ndim >= 1 and values.shape[0] > 1:
        return np.broadcast_to(values[:1], values.shape).copy()
    return values


def cases(op, rng, layouts=None):
    """(id, [values per input], layout) for every shape case and layout of `op`."""
    for shapes in op.shapes:
        for layout in layouts_for(op, shapes):
            if layouts is not None and layout not in layouts:
                continue
            values = [expand_values(sample(rng, s, d), layout) for s, d in zip(shapes, op.domains)]
            ident = "-".join("x".join(map(str, s)) or "0d" for s in shapes)
            yield f"{ident}-{layout}", values, layout
