"""A custom Function's ``vmap`` staticmethod sees what PyTorch 2.13 shows it: each batched input
as a physical tensor with the batch where its batched tensor holds it, and that position in
``in_dims`` — a vmap input's ``in_dims`` entry (normalised), kept by unary ops (``exp``,
``pow(x, 2)``, ``clone``, dtype casts), moved to the front by ops with a second operand
(``x * 2``, ``x + y``) and by reductions and views; ``info`` carries the batch size and
randomness; ``out_dims`` says where the batch is in what it returns. Recorded from PyTorch."""

from __future__ import annotations

import engine
import pytest
from engine.func import vmap


class Probe(engine.autograd.Function):
    seen: list = []

    @staticmethod
    def forward(x, y):
        return x * y

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, g):
        return g, g

    @staticmethod
    def vmap(info, in_dims, x, y):
        Probe.seen.append((info.batch_size, info.randomness, in_dims, tuple(x.shape)))
        xd, yd = in_dims
        x = x.movedim(xd, 0)
        y = y.movedim(yd, 0) if yd is not None else y.unsqueeze(0)
        return (x * y).movedim(0, 1), 1


@pytest.fixture(autouse=True)
def _clear():
    Probe.seen.clear()


X = engine.arange(24.0).reshape(2, 3, 4)


@pytest.mark.parametrize(
    ("in_dim", "seen_dim", "shape"), [(0, 0, (2, 3, 4)), (1, 1, (2, 3, 4)), (-1, 2, (2, 3, 4))]
)
def test_vmap_input_keeps_its_in_dims_entry(in_dim, seen_dim, shape):
    out = vmap(Probe.apply, in_dims=(in_dim, None))(X, engine.tensor(2.0))
    assert Probe.seen == [(X.shape[in_dim], "error", (seen_dim, None), shape)]
    assert engine.equal(out, X.movedim(in_dim, 0) * 2)


def test_two_batched_inputs_and_randomness():
    y = engine.ones(3, 2, 4)
    vmap(Probe.apply, in_dims=(1, 0), randomness="same")(X, y)
    assert Probe.seen == [(3, "same", (1, 0), (2, 3, 4))]


@pytest.mark.parametrize(
    ("name", "op", "seen_dim", "shape"),
    [
        ("exp", lambda t: t.exp(), 1, (2, 3, 4)),
        ("pow", lambda t: t.pow(2), 1, (2, 3, 4)),
        ("clone", lambda t: t.clone(), 1, (2, 3, 4)),
        ("double", lambda t: t.double(), 1, (2, 3, 4)),
        ("times two", lambda t: t * 2, 0, (3, 2, 4)),
        ("plus itself", lambda t: t + t, 0, (3, 2, 4)),
        ("sum", lambda t: t.sum(0), 0, (3, 4)),
    ],
)
def test_ops_before_the_function(name, op, seen_dim, shape):
    vmap(lambda t: Probe.apply(op(t), engine.tensor(1.0)), in_dims=1)(X)
    assert Probe.seen == [(3, "error", (seen_dim, None), shape)]


def test_nested_vmap_sees_the_inner_level():
    out = vmap(vmap(Probe.apply, in_dims=(0, None)), in_dims=(1, None))(X, engine.tensor(1.0))
    assert Probe.seen == [(2, "error", (0, None), (2, 4))]
    assert out.shape == (3, 2, 4)
