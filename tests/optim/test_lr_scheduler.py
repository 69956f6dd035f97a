"""engine.optim.lr_scheduler: lr (and cycled momentum) sequences of every scheduler against
PyTorch 2.13 (recorded by tests/fixtures/record_optim.py), composites, explicit-epoch closed
forms, state dicts, PyTorch's warnings and argument errors."""

import json
import math
import pathlib
import warnings

import engine
import pytest
from engine.optim import lr_scheduler

FIXTURE = json.loads((pathlib.Path(__file__).parent.parent / "fixtures" / "optim.json").read_text())

# The recorder's named lr_lambdas.
LAMBDAS = {
    "decay": lambda epoch: 0.95**epoch,
    "warmup": lambda epoch: min(1.0, (epoch + 1) / 5),
    "mult": lambda epoch: 0.9 if epoch % 2 else 1.0,
}


def _optimizer(kind="SGD"):
    p1 = engine.zeros(2, requires_grad=True)
    p2 = engine.zeros(3, requires_grad=True)
    groups = [{"params": [p1]}, {"params": [p2], "lr": 0.01}]
    if kind == "Adam":
        return engine.optim.Adam(groups, lr=0.1)
    return engine.optim.SGD(groups, lr=0.1, momentum=0.9)


def _build(name, options, opt):
    options = {k: v for k, v in options.items() if k != "optimizer"}
    if "lr_lambda" in options:
        fn = options["lr_lambda"]
        options["lr_lambda"] = [LAMBDAS[f] for f in fn] if isinstance(fn, list) else LAMBDAS[fn]
    return getattr(lr_scheduler, name)(opt, **options)


def _momenta(opt):
    return [g["betas"][0] if "betas" in g else g["momentum"] for g in opt.param_groups]


def _run(opt, sched, name):
    lrs, momenta = [sched.get_last_lr()], [_momenta(opt)]
    for epoch in range(FIXTURE["scheduler_steps"]):
        opt.step()
        if name == "ReduceLROnPlateau":
            sched.step(FIXTURE["metrics"][epoch])
        elif name == "OneCycleLR" and epoch + 1 >= sched.total_steps:
            break
        else:
            sched.step()
        lrs.append(sched.get_last_lr())
        momenta.append(_momenta(opt))
    return lrs, momenta


def _assert_sequences_equal(actual, expected):
    assert len(actual) == len(expected)
    for step, (a, e) in enumerate(zip(actual, expected)):
        assert len(a) == len(e), step
        for x, y in zip(a, e):
            # The same float arithmetic as PyTorch's: equal but for libm's last bit.
            assert math.isclose(x, y, rel_tol=1e-13, abs_tol=1e-17), (step, a, e)


@pytest.mark.parametrize(
    "case", FIXTURE["schedulers"], ids=lambda c: c["scheduler"] + "-" + str(c["options"])
)
def test_schedule_matches_pytorch(case):
    opt = _optimizer(case["options"].get("optimizer", "SGD"))
    sched = _build(case["scheduler"], case["options"], opt)
    lrs, momenta = _run(opt, sched, case["scheduler"])
    _assert_sequences_equal(lrs, case["lrs"])
    _assert_sequences_equal(momenta, case["momenta"])
    assert sorted(sched.state_dict()) == case["state_dict_keys"]


def _composite(kind, spec, opt):
    parts = spec["schedulers"] if kind == "SequentialLR" else spec
    scheds = [_build(n, o, opt) for n, o in parts]
    if kind == "SequentialLR":
        return lr_scheduler.SequentialLR(opt, scheds, milestones=spec["milestones"])
    return lr_scheduler.ChainedScheduler(scheds)


@pytest.mark.parametrize(
    "case", FIXTURE["sequential"] + FIXTURE["chained"], ids=lambda c: c["scheduler"]
)
def test_composite_schedule_matches_pytorch(case):
    opt = _optimizer()
    sched = _composite(case["scheduler"], case["spec"], opt)
    lrs, _ = _run(opt, sched, case["scheduler"])
    _assert_sequences_equal(lrs, case["lrs"])
    assert sorted(sched.state_dict()) == case["state_dict_keys"]


@pytest.mark.parametrize("case", FIXTURE["epoch_steps"], ids=lambda c: c["scheduler"])
def test_explicit_epochs_use_the_closed_form(case):
    opt = _optimizer()
    sched = _build(case["scheduler"], case["options"], opt)
    lrs = []
    # CosineAnnealingWarmRestarts takes (fractional) epochs by design, without the warning.
    deprecated = case["scheduler"] != "CosineAnnealingWarmRestarts"
    for epoch in case["epochs"]:
        opt.step()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            sched.step(epoch)
        assert [str(w.message)[:31] for w in caught] == (
            ["The epoch parameter in `schedul"] if deprecated else []
        )
        lrs.append(sched.get_last_lr())
    _assert_sequences_equal(lrs, case["lrs"])


# -- warnings --------------------------------------------------------------------------------------


def test_stepping_the_scheduler_before_the_optimizer_warns():
    opt = _optimizer()
    sched = lr_scheduler.StepLR(opt, step_size=2)
    with pytest.warns(
        UserWarning,
        match="Detected call of `lr_scheduler.step\\(\\)` before `optimizer.step\\(\\)`",
    ):
        sched.step()


def test_the_right_order_does_not_warn():
    opt = _optimizer()
    sched = lr_scheduler.ExponentialLR(opt, gamma=0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        opt.step()
        sched.step()
    assert sched.get_last_lr() == [0.05, 0.005]


def test_replacing_optimizer_step_after_the_scheduler_warns():
    opt = _optimizer()
    sched = lr_scheduler.StepLR(opt, step_size=2)
    opt.step = lambda closure=None: None
    with pytest.warns(UserWarning, match="Seems like `optimizer.step\\(\\)` has been overridden"):
        sched.step()


def test_calling_get_lr_directly_warns():
    opt = _optimizer()
    sched = lr_scheduler.StepLR(opt, step_size=2)
    with pytest.warns(UserWarning, match="please use `get_last_lr\\(\\)`"):
        sched.get_lr()


def test_optimizer_step_is_wrapped_once():
    opt = _optimizer()
    lr_scheduler.StepLR(opt, step_size=2)
    wrapped = opt.step
    lr_scheduler.ExponentialLR(opt, gamma=0.5)
    assert opt.step is wrapped and wrapped._wrapped_by_lr_sched
    opt.step()
    assert opt._opt_called


# -- state dicts and construction ------------------------------------------------------------------


def test_state_dict_round_trip_continues_the_schedule():
    opt = _optimizer()
    sched = lr_scheduler.CosineAnnealingLR(opt, T_max=6)
    for _ in range(3):
        opt.step()
        sched.step()
    saved = sched.state_dict()
    assert "optimizer" not in saved and saved["last_epoch"] == 3
    opt2 = _optimizer()
    for g2, g in zip(opt2.param_groups, opt.param_groups):
        g2["lr"] = g["lr"]
    sched2 = lr_scheduler.CosineAnnealingLR(opt2, T_max=6)
    sched2.load_state_dict(saved)
    for _ in range(3):
        opt.step()
        sched.step()
        opt2.step()
        sched2.step()
    assert sched2.get_last_lr() == sched.get_last_lr()


def test_lambda_state_dict_saves_callable_objects_only():
    class Decay:
        def __init__(self):
            self.rate = 0.5

        def __call__(self, epoch):
            return self.rate**epoch

    opt = _optimizer()
    sched = lr_scheduler.LambdaLR(opt, [Decay(), LAMBDAS["decay"]])
    assert sched.state_dict()["lr_lambdas"] == [{"rate": 0.5}, None]
    with pytest.raises(ValueError, match="^Expected 2 lr_lambdas, but got 1$"):
        lr_scheduler.LambdaLR(opt, [LAMBDAS["decay"]])


def test_base_lrs_come_from_initial_lr():
    opt = _optimizer()
    sched = lr_scheduler.StepLR(opt, step_size=2)
    assert sched.base_lrs == [0.1, 0.01]
    assert [g["initial_lr"] for g in opt.param_groups] == [0.1, 0.01]


def test_resuming_without_initial_lr_is_a_key_error():
    with pytest.raises(
        KeyError, match="param 'initial_lr' is not specified in param_groups\\[0\\]"
    ):
        lr_scheduler.StepLR(_optimizer(), step_size=2, last_epoch=3)


def test_a_non_optimizer_is_refused():
    with pytest.raises(TypeError, match="^int is not an Optimizer$"):
        lr_scheduler.StepLR(3, step_size=2)


def test_tensor_lr_is_filled_in_place():
    p = engine.zeros(1, requires_grad=True)
    lr = engine.tensor(0.1)
    opt = engine.optim.SGD([p], lr=lr)
    sched = lr_scheduler.ExponentialLR(opt, gamma=0.5)
    opt.step()
    sched.step()
    assert opt.param_groups[0]["lr"] is lr
    assert math.isclose(lr.item(), 0.05, rel_tol=1e-6)


INVALID = [
    (
        "ConstantLR",
        {"factor": 1.5},
        ValueError,
        "Constant multiplicative factor expected to be between 0 and 1.",
    ),
    (
        "LinearLR",
        {"start_factor": 0},
        ValueError,
        "Starting multiplicative factor expected to be greater than 0",
    ),
    (
        "LinearLR",
        {"end_factor": 2},
        ValueError,
        "Ending multiplicative factor expected to be between 0 and 1.",
    ),
    (
        "CosineAnnealingWarmRestarts",
        {"T_0": 0},
        ValueError,
        "Expected positive integer T_0, but got 0",
    ),
    (
        "CosineAnnealingWarmRestarts",
        {"T_0": 2, "T_mult": 0},
        ValueError,
        "Expected integer T_mult >= 1, but got 0",
    ),
    ("OneCycleLR", {"max_lr": 0.1}, ValueError, "You must define either total_steps OR"),
    (
        "OneCycleLR",
        {"max_lr": 0.1, "total_steps": 0},
        ValueError,
        "Expected positive integer total_steps, but got 0",
    ),
    (
        "OneCycleLR",
        {"max_lr": 0.1, "total_steps": 5, "pct_start": 1},
        ValueError,
        "Expected float between 0 and 1",
    ),
    (
        "OneCycleLR",
        {"max_lr": [0.1], "total_steps": 5},
        ValueError,
        "max_lr must have the same length",
    ),
    (
        "OneCycleLR",
        {"max_lr": 0.1, "total_steps": 5, "anneal_strategy": "x"},
        ValueError,
        "anneal_strategy must be",
    ),
    (
        "CyclicLR",
        {"base_lr": 0.1, "max_lr": 1, "mode": "x"},
        ValueError,
        "mode is invalid and scale_fn is None",
    ),
    ("ReduceLROnPlateau", {"factor": 1.0}, ValueError, "Factor should be < 1.0."),
    ("ReduceLROnPlateau", {"mode": "x"}, ValueError, "mode x is unknown!"),
    ("ReduceLROnPlateau", {"threshold_mode": "x"}, ValueError, "threshold mode x is unknown!"),
    ("ReduceLROnPlateau", {"min_lr": [0.1]}, ValueError, "expected 2 min_lrs, got 1"),
    (
        "MultiplicativeLR",
        {"lr_lambda": 3},
        TypeError,
        "lr_lambda should be a function, but got int",
    ),
]


@pytest.mark.parametrize("name, options, exc, message", INVALID, ids=lambda v: str(v))
def test_invalid_arguments_raise_pytorchs_message(name, options, exc, message):
    with pytest.raises(
        exc, match="^" + message.replace("(", r"\(").replace(".", r"\.").replace("+", r"\+")
    ):
        getattr(lr_scheduler, name)(_optimizer(), **options)


def test_cycled_momentum_needs_a_momentum():
    opt = engine.optim.Adagrad([engine.zeros(1, requires_grad=True)])
    with pytest.raises(ValueError, match="optimizer must support momentum or beta1"):
        lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=5)


def test_one_cycle_refuses_steps_past_the_end():
    opt = _optimizer()
    sched = lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=2)
    opt.step()
    sched.step()
    sched.step()
    with pytest.raises(
        ValueError, match="^Tried to step 3 times. The specified number of total steps is 2$"
    ):
        sched.step()


def test_composites_check_their_schedulers():
    opt = _optimizer()
    other = _optimizer()
    a = lr_scheduler.StepLR(opt, step_size=2)
    b = lr_scheduler.StepLR(other, step_size=2)
    with pytest.raises(ValueError, match="expects all schedulers to belong to the same optimizer"):
        lr_scheduler.SequentialLR(opt, [a, b], milestones=[2])
    with pytest.raises(
        ValueError, match="number of schedulers 1 and the number of milestones to be equal to 1"
    ):
        lr_scheduler.SequentialLR(opt, [a], milestones=[2])
    plateau = lr_scheduler.ReduceLROnPlateau(opt)
    with pytest.raises(ValueError, match="does not support `ReduceLROnPlateau` scheduler"):
        lr_scheduler.ChainedScheduler([a, plateau])
    with pytest.raises(ValueError, match="expects at least one scheduler to be chained"):
        lr_scheduler.ChainedScheduler([])
