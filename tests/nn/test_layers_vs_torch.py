"""Every layer of tests/nn/layer_specs.py against PyTorch 2.13 (tests/fixtures/nn_modules.json):
its repr, its seeded initial weights (engine's generator follows PyTorch's stream), and — with the
same weights and float64 inputs — its output, the state it leaves (running statistics), and the
gradients of the inputs and of every parameter."""

import json
import pathlib

import engine
import engine.nn as nn
import numpy as np
import pytest

from tests.nn.layer_specs import GRAD_INPUTS, SPECS

FIXTURE = json.loads(
    (pathlib.Path(__file__).parents[1] / "fixtures" / "nn_modules.json").read_text()
)["layers"]
IDS = [spec[0] for spec in SPECS]


def decode(entry):
    arr = np.array(entry["values"], dtype=entry["dtype"]).reshape(entry["shape"])
    return engine.tensor(arr)


def decode_tree(entry, grad):
    """An input (a tensor or nested tuples), its floating tensors requiring grad when `grad`."""
    if "tuple" in entry:
        return tuple(decode_tree(item, grad) for item in entry["tuple"])
    t = decode(entry)
    return t.requires_grad_(grad and t.is_floating_point())


def assert_matches(actual, expected, what, rtol=1e-9, atol=1e-12):
    assert actual is not None, f"{what}: missing"
    assert list(actual.shape) == expected["shape"], (
        f"{what}: shape {list(actual.shape)} != {expected['shape']}"
    )
    assert str(actual.dtype).replace("torch.", "") == expected["dtype"], (
        f"{what}: dtype {actual.dtype}"
    )
    np.testing.assert_allclose(
        actual.detach().numpy().astype(np.float64).ravel(),
        np.array(expected["values"], dtype=np.float64),
        rtol=rtol,
        atol=atol,
        err_msg=what,
    )


def flatten(out):
    if isinstance(out, (tuple, list)):
        return [t for item in out for t in flatten(item)]
    return [] if out is None else [out]


def build(ctor):
    engine.manual_seed(0)
    return eval(ctor, {"nn": nn, "lib": engine})


@pytest.mark.parametrize("name,ctor,inputs,training", SPECS, ids=IDS)
def test_repr_matches_pytorch(name, ctor, inputs, training):
    assert repr(build(ctor)) == FIXTURE[name]["repr"]


@pytest.mark.parametrize("name,ctor,inputs,training", SPECS, ids=IDS)
def test_seeded_initial_weights_match_pytorch(name, ctor, inputs, training):
    state = build(ctor).state_dict()
    recorded = FIXTURE[name]["initial_state"]
    assert list(state) == list(recorded)
    for key, value in state.items():
        assert_matches(value, recorded[key], f"{name}.{key}", rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name,ctor,inputs,training", SPECS, ids=IDS)
def test_forward_backward_match_pytorch(name, ctor, inputs, training):
    entry = FIXTURE[name]
    module = build(ctor)
    module.load_state_dict({k: decode(v) for k, v in entry["initial_state"].items()})
    module = module.double()
    module.train(training)
    n_grad = GRAD_INPUTS.get(name, len(entry["inputs"]))
    args = [decode_tree(a, i < n_grad) for i, a in enumerate(entry["inputs"])]
    outs = flatten(module(*args))
    assert len(outs) == len(entry["outputs"])
    for i, (out, expected) in enumerate(zip(outs, entry["outputs"])):
        assert_matches(out, expected, f"{name} output {i}")
    weights = [decode(w) for w in entry["weights"]]
    sum((o * w).sum() for o, w in zip(outs, weights) if o.requires_grad).backward()
    for i, (arg, expected) in enumerate(zip(flatten(args), entry["input_grads"], strict=True)):
        if expected is None:
            assert arg.grad is None, f"{name}: input {i} got a gradient"
        else:
            assert_matches(arg.grad, expected, f"{name} grad of input {i}")
    grads = {k: p.grad for k, p in module.named_parameters() if p.grad is not None}
    assert sorted(grads) == sorted(entry["param_grads"])
    for key, expected in entry["param_grads"].items():
        assert_matches(grads[key], expected, f"{name} grad of {key}")
    for key, value in module.state_dict().items():
        assert_matches(value, entry["final_state"][key], f"{name} state {key}")
