"""``nn.DataParallel`` as PyTorch runs it without an accelerator: the wrapped module is called
as is, the repr nests it, and state_dict keys carry the ``module.`` prefix (so checkpoints saved
from a wrapped model load into a wrapped model).

Recorded from PyTorch 2.13 on a machine without a GPU; with torch installed the same checks run on
it too.
"""

from __future__ import annotations


def test_calls_the_module_and_trains(lib):
    lib.manual_seed(0)
    inner = lib.nn.Linear(3, 2)
    dp = lib.nn.DataParallel(inner, device_ids=[0])
    assert dp.module is inner and dp.device_ids == []
    x = lib.ones(4, 3)
    assert lib.equal(dp(x), inner(x))
    dp(x).sum().backward()
    assert inner.weight.grad.tolist() == [[4.0] * 3] * 2


def test_repr_and_state_dict_prefix(lib):
    dp = lib.nn.parallel.DataParallel(lib.nn.Linear(2, 1))
    assert repr(dp) == (
        "DataParallel(\n  (module): Linear(in_features=2, out_features=1, bias=True)\n)"
    )
    assert list(dp.state_dict()) == ["module.weight", "module.bias"]
    other = lib.nn.DataParallel(lib.nn.Linear(2, 1))
    other.load_state_dict(dp.state_dict())
    assert lib.equal(other.module.weight, dp.module.weight)


def test_keyword_inputs_pass_through(lib):
    class Scale(lib.nn.Module):
        def forward(self, x, *, factor=1.0):
            return x * factor

    assert lib.nn.DataParallel(Scale())(lib.ones(2), factor=3.0).tolist() == [3.0, 3.0]
