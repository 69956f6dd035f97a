"""roll's int-list arguments parsed as PyTorch's argument parser parses them: NumPy integers and
one-element integer tensors count as ints, bool and floats do not, with PyTorch 2.13's messages
(recorded from it)."""

import engine
import numpy as np
import pytest


@pytest.mark.parametrize(
    "shifts",
    [1, np.int64(1), engine.tensor(1), (engine.tensor(1),), [np.int64(1)], engine.tensor([1])],
)
def test_int_like_shifts_are_taken(shifts):
    dims = (0,) if isinstance(shifts, (tuple, list)) else 0
    assert engine.roll(engine.arange(4.0), shifts, dims).tolist() == [3.0, 0.0, 1.0, 2.0]


@pytest.mark.parametrize(
    "shifts, message",
    [
        (True, "roll(): argument 'shifts' (position 2) must be tuple of ints, not bool"),
        (1.5, "roll(): argument 'shifts' (position 2) must be tuple of ints, not float"),
        (
            (True,),
            "roll(): argument 'shifts' (position 2) must be tuple of ints, but found element of type bool at pos 0",
        ),
        (
            [1.0],
            "roll(): argument 'shifts' (position 2) must be tuple of ints, but found element of type float at pos 0",
        ),
        (
            [1, "a"],
            "roll(): argument 'shifts' failed to unpack the object at pos 2 with error "
            '"type must be tuple of ints,but got str"',
        ),
    ],
)
def test_other_shifts_are_refused_with_pytorchs_message(shifts, message):
    with pytest.raises(TypeError) as info:
        engine.roll(engine.arange(4.0), shifts, 0)
    assert str(info.value) == message


def test_dims_are_checked_and_must_align():
    x = engine.arange(4.0).reshape(2, 2)
    with pytest.raises(
        TypeError, match=r"argument 'dims' \(position 3\) must be tuple of ints, not float"
    ):
        engine.roll(x, 1, 1.0)
    with pytest.raises(RuntimeError, match="shifts: 1, dims:2"):
        engine.roll(x, 1, (0, 1))
    with pytest.raises(RuntimeError, match="shifts: 2, dims:0"):
        engine.roll(x, (1, 2))
    assert engine.roll(x, 1).tolist() == [[3.0, 0.0], [1.0, 2.0]]
