"""The nn.functional losses of engine/nn/_losses.py (and the legacy size_average / reduce flags):
values and input gradients against PyTorch 2.13 (recorded by tests/fixtures/record_losses.py),
gradients against finite differences."""

import json
import pathlib
import warnings

import engine
import engine.nn.functional as F
import numpy as np
import pytest

FIXTURE = json.loads((pathlib.Path(__file__).parent / "fixtures" / "losses.json").read_text())
# Where finite differences cannot check the gradient: a data point on the hinge's kink
# (margin_ranking), an input at 0 under log(input + 1e-8) (poisson_full). PyTorch's recorded
# gradients still check them.
NO_GRADCHECK = {"margin_ranking", "poisson_full"}


def _tensors():
    t = {k: engine.tensor(v, dtype=engine.float64) for k, v in FIXTURE["data"].items()}
    t["logp"] = F.log_softmax(t["x"], 1)
    t["logq"] = F.log_softmax(t["y"], 1)
    return t


@pytest.mark.parametrize("case", FIXTURE["cases"], ids=lambda c: c["name"])
def test_values_and_gradients_match_pytorch(case):
    t = _tensors()
    first = t[case["keys"][0]].detach().requires_grad_(True)
    rest = [t[k] for k in case["keys"][1:]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the legacy-flag and 'mean' kl_div warnings
        out = getattr(F, case["fn"])(first, *rest, **case["kwargs"])
        np.testing.assert_allclose(out.detach().numpy(), case["value"], rtol=1e-12, atol=1e-12)
        (grad,) = engine.autograd.grad(out.sum(), first)
        np.testing.assert_allclose(grad.numpy(), case["grad"], rtol=1e-10, atol=1e-12)
        if case["name"] not in NO_GRADCHECK:
            fn = getattr(F, case["fn"])
            assert engine.autograd.gradcheck(lambda a: fn(a, *rest, **case["kwargs"]), (first,))


def test_legacy_flags_warn_as_pytorch():
    with pytest.warns(
        UserWarning,
        match="size_average and reduce args will be deprecated, please use reduction='sum'",
    ):
        out = F.mse_loss(engine.ones(2), engine.zeros(2), size_average=False)
    assert out.item() == 2.0
    with pytest.warns(UserWarning, match="please use reduction='none'"):
        assert F.l1_loss(engine.ones(2), engine.zeros(2), reduce=False).tolist() == [1.0, 1.0]


def test_kl_div_mean_warns_and_bad_parameters_raise():
    t = _tensors()
    with pytest.warns(
        UserWarning, match="reduction: 'mean' divides the total loss by both the batch size"
    ):
        F.kl_div(t["logp"], t["p"])
    with pytest.raises(
        RuntimeError, match="smooth_l1_loss does not support negative values for beta"
    ):
        F.smooth_l1_loss(t["x"], t["y"], beta=-1.0)
    with pytest.raises(
        RuntimeError, match="huber_loss does not support non-positive values for delta"
    ):
        F.huber_loss(t["x"], t["y"], delta=0.0)
