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
"""

from __future__ import annotations

import math
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

    @property
    def arity(self):
        return len(self.domains)

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
