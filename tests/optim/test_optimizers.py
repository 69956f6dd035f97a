"""engine.optim: trajectories and state dicts of every optimizer against PyTorch 2.13 (recorded
by tests/fixtures/record_optim.py on a small least-squares problem), and the Optimizer base's
bookkeeping: parameter groups and their errors, zero_grad, hooks, state_dict round trips and
argument validation with PyTorch's messages."""

import json
import pathlib
import warnings

import engine
import numpy as np
import pytest

FIXTURE = json.loads((pathlib.Path(__file__).parent.parent / "fixtures" / "optim.json").read_text())
PROBLEM = FIXTURE["problem"]
# float32 updates whose every operation matches PyTorch's up to its last-bit rounding choices
# (PyTorch's kernels use FMA), compounded over 20 steps.
RTOL32, ATOL32 = 2e-6, 5e-7


def _params(dtype=engine.float32):
    W = engine.tensor(PROBLEM["W"], dtype=dtype, requires_grad=True)
    b = engine.tensor(PROBLEM["b"], dtype=dtype, requires_grad=True)
    return W, b


def _loss(W, b):
    X = engine.tensor(PROBLEM["X"], dtype=W.dtype)
    Y = engine.tensor(PROBLEM["Y"], dtype=W.dtype)
    return ((X @ W.t() + b - Y) ** 2).mean()


def _make(name, options, W, b):
    options = dict(options)
    options.pop("dtype", None)
    groups = options.pop("groups", None)
    for key in ("betas", "etas", "step_sizes"):
        if key in options:
            options[key] = tuple(options[key])
    if groups is None:
        return getattr(engine.optim, name)([W, b], **options)
    specs = []
    for p, extra in zip((W, b), groups):
        extra = {k: tuple(v) if k == "betas" else v for k, v in extra.items()}
        specs.append({"params": [p], **extra})
    return getattr(engine.optim, name)(specs, **options)


def _case_id(case):
    return case["optimizer"] + "-" + "-".join(f"{k}={v}" for k, v in case["options"].items())


def _tolerances(dtype):
    return (RTOL32, ATOL32) if dtype == engine.float32 else (1e-12, 1e-13)


def _to_list(value):
    """A state value as the fixture stores it."""
    if isinstance(value, engine.Tensor):
        return {"tensor": value.tolist(), "dtype": str(value.dtype).split(".")[-1]}
    if isinstance(value, dict):
        return {str(k): _to_list(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_to_list(v) for v in value]
    return value


def _assert_state_close(actual, expected, rtol, atol, where="state"):
    if isinstance(expected, dict) and "tensor" in expected:
        assert isinstance(actual, dict) and "tensor" in actual, where
        assert actual["dtype"] == expected["dtype"], where
        # Buffers that accumulate many terms (momentum of g / avg) carry rounding on the scale of
        # their largest element.
        scale = max(1.0, float(np.max(np.abs(expected["tensor"]), initial=0.0)))
        np.testing.assert_allclose(
            actual["tensor"], expected["tensor"], rtol=rtol, atol=4 * atol * scale, err_msg=where
        )
    elif isinstance(expected, dict):
        assert sorted(actual) == sorted(expected), where
        for k in expected:
            _assert_state_close(actual[k], expected[k], rtol, atol, f"{where}[{k}]")
    else:
        assert actual == expected, where


@pytest.mark.parametrize("case", FIXTURE["optimizers"], ids=_case_id)
def test_trajectory_matches_pytorch(case):
    dtype = getattr(engine, case["options"].get("dtype", "float32"))
    rtol, atol = _tolerances(dtype)
    W, b = _params(dtype)
    opt = _make(case["optimizer"], case["options"], W, b)
    for step in range(FIXTURE["steps"]):
        opt.zero_grad()
        loss = _loss(W, b)
        loss.backward()
        opt.step()
        np.testing.assert_allclose(loss.item(), case["losses"][step], rtol=rtol, atol=atol)
        np.testing.assert_allclose(
            W.tolist(), case["W"][step], rtol=rtol, atol=atol, err_msg=f"W, step {step}"
        )
        np.testing.assert_allclose(
            b.tolist(), case["b"][step], rtol=rtol, atol=atol, err_msg=f"b, step {step}"
        )

    sd = opt.state_dict()
    expected = case["state_dict"]
    assert _to_list(sd["param_groups"]) == expected["param_groups"]
    _assert_state_close(_to_list(sd["state"]), expected["state"], rtol, atol)


@pytest.mark.parametrize("case", FIXTURE["lbfgs"], ids=lambda c: "LBFGS-" + str(c["options"]))
def test_lbfgs_matches_pytorch(case):
    W, b = _params()
    opt = engine.optim.LBFGS([W, b], **case["options"])

    def closure():
        opt.zero_grad()
        loss = _loss(W, b)
        loss.backward()
        return loss

    for step in range(FIXTURE["lbfgs_steps"]):
        loss = opt.step(closure)
        np.testing.assert_allclose(loss.item(), case["losses"][step], rtol=1e-4, atol=1e-6)
        # Quasi-Newton steps amplify float32 rounding along ill-conditioned directions: PyTorch's
        # own float32 and float64 runs differ by ~1e-5 here.
        np.testing.assert_allclose(W.tolist(), case["W"][step], rtol=1e-4, atol=3e-5)
        np.testing.assert_allclose(b.tolist(), case["b"][step], rtol=1e-4, atol=3e-5)
    state = opt.state_dict()["state"][0]
    assert state["n_iter"] == case["n_iter"]
    assert state["func_evals"] == case["func_evals"]
    assert _to_list(opt.state_dict()["param_groups"]) == case["param_groups"]


def _run(opt, W, b, steps):
    for _ in range(steps):
        opt.zero_grad()
        _loss(W, b).backward()
        opt.step()


@pytest.mark.parametrize(
    "case",
    [c for c in FIXTURE["optimizers"] if c["options"].get("dtype") is None],
    ids=_case_id,
)
def test_state_dict_round_trip_resumes_the_trajectory(case):
    W, b = _params()
    opt = _make(case["optimizer"], case["options"], W, b)
    _run(opt, W, b, 8)
    saved = opt.state_dict()
    W2 = engine.tensor(W.tolist(), requires_grad=True)
    b2 = engine.tensor(b.tolist(), requires_grad=True)
    resumed = _make(case["optimizer"], case["options"], W2, b2)
    resumed.load_state_dict(saved)
    _run(resumed, W2, b2, FIXTURE["steps"] - 8)
    np.testing.assert_allclose(W2.tolist(), case["W"][-1], rtol=RTOL32, atol=ATOL32)
    np.testing.assert_allclose(b2.tolist(), case["b"][-1], rtol=RTOL32, atol=ATOL32)


# -- argument validation ---------------------------------------------------------------------------

INVALID = [
    ("SGD", {"lr": -1.0}, "Invalid learning rate: -1.0"),
    ("SGD", {"momentum": -0.5}, "Invalid momentum value: -0.5"),
    ("SGD", {"weight_decay": -1}, "Invalid weight_decay value: -1"),
    ("SGD", {"nesterov": True}, "Nesterov momentum requires a momentum and zero dampening"),
    ("SGD", {"nesterov": True, "momentum": 0.9, "dampening": 0.1}, "Nesterov momentum requires"),
    ("Adam", {"lr": -0.1}, "Invalid learning rate: -0.1"),
    ("Adam", {"eps": -1e-8}, "Invalid epsilon value: -1e-08"),
    ("Adam", {"betas": (1.5, 0.999)}, "Invalid beta parameter at index 0: 1.5"),
    ("Adam", {"betas": (0.9, 1.0)}, "Invalid beta parameter at index 1: 1.0"),
    ("Adam", {"weight_decay": -0.1}, "Invalid weight_decay value: -0.1"),
    ("Adam", {"betas": (0, 0.9)}, "betas must be either both floats or both Tensors"),
    ("AdamW", {"betas": (-0.1, 0.9)}, "Invalid beta parameter at index 0: -0.1"),
    ("RMSprop", {"alpha": -0.9}, "Invalid alpha value: -0.9"),
    ("RMSprop", {"momentum": -1}, "Invalid momentum value: -1"),
    ("RMSprop", {"eps": -1}, "Invalid epsilon value: -1"),
    ("Adagrad", {"lr_decay": -1}, "Invalid lr_decay value: -1"),
    ("Adagrad", {"initial_accumulator_value": -1}, "Invalid initial_accumulator_value value: -1"),
    ("Adamax", {"betas": (0.9, 2.0)}, "Invalid beta parameter at index 1: 2.0"),
    ("NAdam", {"momentum_decay": -1}, "Invalid momentum_decay value: -1"),
    ("RAdam", {"weight_decay": -1}, "Invalid weight_decay value: -1"),
    ("LBFGS", {"lr": -1}, "Invalid learning rate: -1"),
    ("Adadelta", {"rho": 1.5}, "Invalid rho value: 1.5"),
    ("Rprop", {"etas": (1.5, 1.2)}, "Invalid eta values: 1.5, 1.2"),
]


@pytest.mark.parametrize("name, options, message", INVALID, ids=lambda v: str(v))
def test_invalid_hyperparameters_raise_pytorchs_message(name, options, message):
    p = engine.zeros(2, requires_grad=True)
    with pytest.raises(ValueError, match="^" + message.replace("(", r"\(").replace(".", r"\.")):
        getattr(engine.optim, name)([p], **options)


def test_tensor_lr_must_have_one_element():
    p = engine.zeros(2, requires_grad=True)
    with pytest.raises(ValueError, match="Tensor lr must be 1-element"):
        engine.optim.SGD([p], lr=engine.tensor([0.1, 0.2]))


def test_tensor_lr_is_used_as_its_value():
    W, b = _params()
    opt = engine.optim.SGD([W, b], lr=engine.tensor(0.1))
    _run(opt, W, b, 3)
    np.testing.assert_allclose(
        W.tolist(), FIXTURE["optimizers"][0]["W"][2], rtol=RTOL32, atol=ATOL32
    )


# -- parameter groups ------------------------------------------------------------------------------


def test_empty_parameter_list():
    with pytest.raises(ValueError, match="^optimizer got an empty parameter list$"):
        engine.optim.SGD([], lr=0.1)


def test_a_single_tensor_is_not_an_iterable_of_parameters():
    with pytest.raises(
        TypeError, match="should be an iterable of Tensors or dicts, but got torch.Tensor"
    ):
        engine.optim.SGD(engine.zeros(2, requires_grad=True))


def test_sets_of_parameters_are_refused():
    with pytest.raises(TypeError, match="ordering of tensors in sets will change between runs"):
        engine.optim.SGD([{"params": {engine.zeros(2, requires_grad=True)}}])


def test_non_tensor_parameters_are_refused():
    with pytest.raises(
        TypeError, match="optimizer can only optimize Tensors, but one of the params is int"
    ):
        engine.optim.Adam([engine.zeros(1, requires_grad=True), 3])


def test_non_leaf_tensors_are_refused():
    x = engine.zeros(2, requires_grad=True)
    with pytest.raises(ValueError, match="^can't optimize a non-leaf Tensor$"):
        engine.optim.SGD([x * 2], lr=0.1)


def test_duplicate_parameters_warn():
    p = engine.zeros(2, requires_grad=True)
    with pytest.warns(
        UserWarning, match="optimizer contains a parameter group with duplicate parameters"
    ):
        engine.optim.SGD([p, p], lr=0.1)


def test_parameters_in_two_groups_are_refused():
    p = engine.zeros(2, requires_grad=True)
    with pytest.raises(
        ValueError, match="^some parameters appear in more than one parameter group$"
    ):
        engine.optim.SGD([{"params": [p]}, {"params": [p]}], lr=0.1)


def test_required_options_must_be_given():
    from engine.optim.optimizer import required

    class Plain(engine.optim.Optimizer):
        def __init__(self, params, lr=required):
            super().__init__(params, {"lr": lr})

    with pytest.raises(
        ValueError, match="didn't specify a value of required optimization parameter lr"
    ):
        Plain([engine.zeros(1, requires_grad=True)])
    assert repr(required) == "<required parameter>"


def test_groups_take_the_defaults_they_do_not_set():
    a, b = engine.zeros(2, requires_grad=True), engine.zeros(3, requires_grad=True)
    opt = engine.optim.SGD([{"params": [a]}, {"params": b, "lr": 0.5}], lr=0.1, momentum=0.9)
    assert [g["lr"] for g in opt.param_groups] == [0.1, 0.5]
    assert [g["momentum"] for g in opt.param_groups] == [0.9, 0.9]
    assert opt.param_groups[1]["params"] == [b]
    c = engine.zeros(1, requires_grad=True)
    opt.add_param_group({"params": [c], "momentum": 0.0})
    assert opt.param_groups[2]["lr"] == 0.1 and opt.param_groups[2]["momentum"] == 0.0


def test_named_parameters_are_accepted():
    a, b = engine.zeros(2, requires_grad=True), engine.zeros(3, requires_grad=True)
    opt = engine.optim.Adam([("a", a), ("b", b)])
    assert opt.param_groups[0]["param_names"] == ["a", "b"]
    assert opt.state_dict()["param_groups"][0]["param_names"] == ["a", "b"]
    with pytest.raises(ValueError, match="Some param names are missing"):
        engine.optim.Adam([("a", a), b])


def test_repr_lists_the_group_options():
    opt = engine.optim.SGD([engine.zeros(1, requires_grad=True)], lr=0.1)
    text = repr(opt)
    assert text.startswith("SGD (\nParameter Group 0\n    dampening: 0\n")
    assert "    lr: 0.1\n" in text and text.endswith(")")


def _parameter_class():
    """engine.nn.Parameter where this build has it, else the same construction by hand."""
    if hasattr(engine.nn, "Parameter"):
        return engine.nn.Parameter

    class Parameter(engine.Tensor):
        def __new__(cls, data, requires_grad=True):
            return engine.Tensor._make_subclass(cls, data, requires_grad)

        def __init__(self, data, requires_grad=True):
            pass

    return Parameter


def test_tensor_subclass_parameters_are_optimized():
    parameter = _parameter_class()
    W = parameter(engine.tensor(PROBLEM["W"]))
    b = parameter(engine.tensor(PROBLEM["b"]))
    opt = engine.optim.Adam([W, b], lr=0.01)
    _run(opt, W, b, FIXTURE["steps"])
    assert type(W) is parameter and W.is_leaf
    expected = next(
        c
        for c in FIXTURE["optimizers"]
        if c["optimizer"] == "Adam" and c["options"] == {"lr": 0.01}
    )
    np.testing.assert_allclose(W.tolist(), expected["W"][-1], rtol=RTOL32, atol=ATOL32)
    assert opt.state_dict()["state"][0]["step"].item() == FIXTURE["steps"]


# -- gradients, steps and hooks --------------------------------------------------------------------


def test_zero_grad_sets_to_none_by_default():
    W, b = _params()
    opt = engine.optim.SGD([W, b], lr=0.1)
    _loss(W, b).backward()
    opt.zero_grad()
    assert W.grad is None and b.grad is None


def test_zero_grad_in_place_keeps_zeroed_tensors():
    W, b = _params()
    opt = engine.optim.SGD([W, b], lr=0.1)
    _loss(W, b).backward()
    grad = W.grad
    opt.zero_grad(set_to_none=False)
    assert W.grad is grad
    assert W.grad.tolist() == [[0.0] * 4] * 3


def test_parameters_without_gradients_are_left_alone():
    W, b = _params()
    opt = engine.optim.Adam([W, b], lr=0.1)
    (W.sum() * 2).backward()
    opt.step()
    assert b.tolist() == engine.tensor(PROBLEM["b"]).tolist()
    assert b not in opt.state and W in opt.state


def test_step_updates_in_place_and_bumps_versions():
    W, b = _params()
    opt = engine.optim.Adam([W, b], lr=0.1)
    before = W._version
    data_ptr = W.data_ptr()
    _loss(W, b).backward()
    opt.step()
    assert W._version > before
    assert W.data_ptr() == data_ptr
    assert W.grad_fn is None and W.requires_grad and W.is_leaf


def test_step_returns_the_closure_loss_computed_with_grad():
    W, b = _params()
    opt = engine.optim.SGD([W, b], lr=0.1)

    def closure():
        opt.zero_grad()
        loss = _loss(W, b)
        assert loss.requires_grad
        loss.backward()
        return loss

    with engine.no_grad():
        loss = opt.step(closure)
    np.testing.assert_allclose(loss.item(), FIXTURE["optimizers"][0]["losses"][0], rtol=1e-6)


def test_state_tensors_are_named_and_typed_as_pytorchs():
    W, b = _params()
    opt = engine.optim.Adam([W, b], lr=0.1, amsgrad=True)
    _loss(W, b).backward()
    opt.step()
    state = opt.state[W]
    assert sorted(state) == ["exp_avg", "exp_avg_sq", "max_exp_avg_sq", "step"]
    assert (
        state["step"].dtype == engine.float32
        and state["step"].dim() == 0
        and state["step"].item() == 1.0
    )
    assert state["exp_avg"].shape == W.shape and state["exp_avg"].dtype == W.dtype


def test_sgd_without_momentum_keeps_no_state():
    W, b = _params()
    opt = engine.optim.SGD([W, b], lr=0.1)
    _run(opt, W, b, 2)
    assert opt.state_dict()["state"] == {}


def test_non_contiguous_parameters_are_updated_in_place():
    base = engine.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    p = base.t().detach().requires_grad_()
    assert not p.is_contiguous()
    q = engine.tensor(p.tolist(), requires_grad=True)
    for x in (p, q):
        opt = engine.optim.Adam([x], lr=0.1)
        for _ in range(3):
            opt.zero_grad()
            (x * x * engine.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])).sum().backward()
            opt.step()
    assert p.tolist() == q.tolist()


def test_large_parameters_match_small_ones():
    # Crosses the size at which the update is split over threads and runs without the GIL.
    n = 300_000
    gen = engine.Generator().manual_seed(0)
    values = engine.randn(n, generator=gen)
    grads = engine.randn(n, generator=gen)
    big = values.clone().requires_grad_()
    pieces = [values[i : i + 1000].clone().requires_grad_() for i in range(0, n, 1000)]
    for params, chunks in (
        ([big], [grads]),
        (pieces, [grads[i : i + 1000] for i in range(0, n, 1000)]),
    ):
        opt = engine.optim.AdamW(params, lr=0.01)
        for _ in range(3):
            for p, g in zip(params, chunks):
                p.grad = g.clone()
            opt.step()
    assert engine.equal(big.detach(), engine.cat([p.detach() for p in pieces]))


def test_step_hooks_run_around_step_and_can_be_removed():
    W, b = _params()
    opt = engine.optim.SGD([W, b], lr=0.1)
    calls = []
    pre = opt.register_step_pre_hook(lambda o, args, kwargs: calls.append(("pre", o is opt)))
    post = opt.register_step_post_hook(lambda o, args, kwargs: calls.append(("post", o is opt)))
    opt.step()
    assert calls == [("pre", True), ("post", True)]
    pre.remove()
    post.remove()
    opt.step()
    assert len(calls) == 2


def test_pre_hook_may_replace_the_arguments():
    W, b = _params()
    opt = engine.optim.SGD([W, b], lr=0.1)
    seen = []

    def closure():
        seen.append(True)
        return engine.tensor(1.0)

    opt.register_step_pre_hook(lambda o, args, kwargs: (args, {"closure": closure}))
    assert opt.step().item() == 1.0 and seen == [True]
    opt.register_step_pre_hook(lambda o, args, kwargs: 3)
    with pytest.raises(
        RuntimeError, match="must return None or a tuple of \\(new_args, new_kwargs\\)"
    ):
        opt.step()


def test_global_step_hooks():
    from engine.optim.optimizer import (
        register_optimizer_step_post_hook,
        register_optimizer_step_pre_hook,
    )

    W, b = _params()
    opt = engine.optim.Adam([W, b])
    calls = []
    handles = [
        register_optimizer_step_pre_hook(lambda o, a, k: calls.append("pre")),
        register_optimizer_step_post_hook(lambda o, a, k: calls.append("post")),
    ]
    try:
        opt.step()
    finally:
        for h in handles:
            h.remove()
    opt.step()
    assert calls == ["pre", "post"]


def test_state_dict_hooks():
    W, b = _params()
    opt = engine.optim.SGD([W, b], lr=0.1, momentum=0.9)
    opt.register_state_dict_post_hook(lambda o, sd: {**sd, "extra": 1})
    assert opt.state_dict()["extra"] == 1
    loaded = []
    opt.register_load_state_dict_post_hook(lambda o: loaded.append(True))
    opt.load_state_dict(opt.state_dict())
    assert loaded == [True]


# -- state dicts -----------------------------------------------------------------------------------


def test_state_dict_indexes_parameters_across_groups():
    a, b, c = (engine.zeros(n, requires_grad=True) for n in (1, 2, 3))
    opt = engine.optim.Adam([{"params": [a, b]}, {"params": [c], "lr": 0.1}])
    for p in (a, b, c):
        p.grad = engine.ones_like(p)
    opt.step()
    sd = opt.state_dict()
    assert [g["params"] for g in sd["param_groups"]] == [[0, 1], [2]]
    assert sorted(sd["state"]) == [0, 1, 2]
    assert sd["state"][2]["exp_avg"] is opt.state[c]["exp_avg"]


def test_load_state_dict_checks_the_group_layout():
    a, b = engine.zeros(1, requires_grad=True), engine.zeros(2, requires_grad=True)
    one = engine.optim.SGD([a, b], lr=0.1)
    two = engine.optim.SGD([{"params": [a]}, {"params": [b]}], lr=0.1)
    with pytest.raises(
        ValueError, match="^loaded state dict has a different number of parameter groups$"
    ):
        one.load_state_dict(two.state_dict())
    three = engine.optim.SGD([a], lr=0.1)
    with pytest.raises(ValueError, match="doesn't match the size of optimizer's group"):
        three.load_state_dict(one.state_dict())


def test_load_state_dict_casts_state_to_the_parameter_dtype_but_not_step():
    p32 = engine.zeros(2, requires_grad=True)
    opt = engine.optim.Adam([p32])
    p32.grad = engine.ones(2)
    opt.step()
    p64 = engine.zeros(2, dtype=engine.float64, requires_grad=True)
    other = engine.optim.Adam([p64])
    other.load_state_dict(opt.state_dict())
    assert other.state[p64]["exp_avg"].dtype == engine.float64
    assert other.state[p64]["step"].dtype == engine.float32
    assert other.param_groups[0]["params"] == [p64]


def test_load_state_dict_accepts_python_number_steps():
    W, b = _params()
    opt = engine.optim.Adam([W, b], lr=0.01)
    _run(opt, W, b, 5)
    sd = opt.state_dict()
    for s in sd["state"].values():
        s["step"] = float(s["step"].item())
    W2, b2 = _params()
    W2.data.copy_(W)
    b2.data.copy_(b)
    resumed = engine.optim.Adam([W2, b2], lr=0.01)
    resumed.load_state_dict(sd)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _run(resumed, W2, b2, 1)
    assert (
        isinstance(resumed.state[W2]["step"], engine.Tensor)
        and resumed.state[W2]["step"].item() == 6.0
    )


def test_unsupported_modes_are_refused():
    p = engine.zeros(1, requires_grad=True)
    with pytest.raises(NotImplementedError, match="differentiable=True"):
        engine.optim.Adam([p], differentiable=True)
    with pytest.raises(RuntimeError, match="only 'strong_wolfe' is supported"):
        opt = engine.optim.LBFGS([p], line_search_fn="armijo")
        p.grad = None

        def closure():
            opt.zero_grad()
            loss = ((p - 1) ** 2).sum()
            loss.backward()
            return loss

        opt.step(closure)
    with pytest.raises(ValueError, match="LBFGS doesn't support per-parameter options"):
        engine.optim.LBFGS([{"params": [p]}, {"params": [engine.zeros(1, requires_grad=True)]}])


def test_native_update_checks_its_inputs():
    p = engine.zeros(3, requires_grad=True)
    with pytest.raises(ValueError, match="gradient 0 has shape"):
        engine._C._optim_sgd(
            [p],
            [engine.zeros(2)],
            [None],
            lr=0.1,
            momentum=0.0,
            dampening=0.0,
            weight_decay=0.0,
            nesterov=False,
            maximize=False,
        )
    with pytest.raises(TypeError, match="gradient 0 has dtype"):
        engine._C._optim_adagrad(
            [p],
            [engine.zeros(3, dtype=engine.float64)],
            [engine.zeros(3)],
            [engine.tensor(0.0)],
            lr=0.1,
            lr_decay=0.0,
            weight_decay=0.0,
            eps=1e-10,
            maximize=False,
        )
    with pytest.raises(ValueError, match="expected as many exp_avg tensors as parameters"):
        engine._C._optim_adamax(
            [p],
            [engine.zeros(3)],
            [],
            [engine.zeros(3)],
            [engine.tensor(0.0)],
            lr=0.1,
            beta1=0.9,
            beta2=0.99,
            eps=1e-8,
            weight_decay=0.0,
            maximize=False,
        )


_ISA_SCRIPT = """
import engine
gen = engine.Generator().manual_seed(3)
out = []
for name, options in [("SGD", {"lr": 0.1, "momentum": 0.9, "nesterov": True, "weight_decay": 0.1}),
                      ("Adam", {"lr": 0.01, "amsgrad": True, "weight_decay": 0.1}),
                      ("AdamW", {"lr": 0.01, "maximize": True}),
                      ("RMSprop", {"lr": 0.01, "centered": True, "momentum": 0.5}),
                      ("Adagrad", {"lr": 0.1, "weight_decay": 0.1}),
                      ("Adamax", {"lr": 0.01, "weight_decay": 0.1}),
                      ("NAdam", {"lr": 0.01, "decoupled_weight_decay": True, "weight_decay": 0.1}),
                      ("RAdam", {"lr": 0.01, "weight_decay": 0.1}),
                      ("Adadelta", {"weight_decay": 0.1}),
                      ("Rprop", {"lr": 0.05}),
                      ("ASGD", {"lr": 0.05, "t0": 3, "weight_decay": 0.1})]:
    for dtype in (engine.float32, engine.float64):
        p = engine.randn(1037, generator=gen, dtype=dtype).requires_grad_()
        opt = getattr(engine.optim, name)([p], **options)
        for _ in range(8):
            p.grad = engine.randn(1037, generator=gen, dtype=dtype)
            opt.step()
        out.append(p.tolist())
print(repr(out))
"""


def test_portable_and_vector_loops_agree_bitwise():
    # The AVX2 copy of the loops does the same operations without FMA: identical results.
    import os
    import subprocess
    import sys

    def run(env_extra):
        env = {**os.environ, **env_extra}
        done = subprocess.run(
            [sys.executable, "-c", _ISA_SCRIPT], env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert run({"ENGINE_SIMD": "scalar"}) == run({})
